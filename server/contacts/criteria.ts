// Which people a contacts filter picks, as SQL conditions on people p alone (no other alias), so
// one builder serves the contacts list, its count and CSV, a saved segment's count, and a mailing's
// audience (where a list narrows a funnel's people). Values always go in as parameters, appended
// to the caller's list.
import type { ContactsFilter } from '../../contract/contacts';
import { NO_STAGE, PEOPLE_SEARCH_MAX } from '../../contract/funnels';
import { NO_SOURCE } from '../../contract/sources';

/** A list as a filter: a static list's members, or a segment's own filter. */
export type ListCriterion = { id: number; kind: 'static' | 'segment'; filter: ContactsFilter | null };

/** The conditions of `filter` (AND-ed by the caller), their values pushed onto `params`. */
export function criteriaParts(filter: ContactsFilter, params: unknown[]): string[] {
  const parts: string[] = [];
  const add = (sqlText: (n: string) => string, value: unknown) => {
    params.push(value);
    parts.push(sqlText(`$${params.length}`));
  };
  if (filter.funnel !== undefined) add((n) => `p.funnel_id = ${n}::int`, filter.funnel);
  if (filter.folder !== undefined) add((n) => `p.funnel_id in (select fo.id from funnels fo where fo.folder_id = ${n}::int)`, filter.folder);
  if (filter.stage === NO_STAGE) parts.push('p.stage_id is null');
  else if (filter.stage !== undefined) add((n) => `p.stage_id = ${n}::int`, Number(filter.stage));
  if (filter.source === NO_SOURCE) parts.push('p.source_id is null');
  else if (filter.source !== undefined) add((n) => `p.source_id = ${n}::int`, Number(filter.source));
  if (filter.field !== undefined) parts.push(fieldCondition(filter.field, filter.field_value, params));
  if (filter.tag !== undefined) add((n) => `exists (select 1 from person_tags pt where pt.person_id = p.id and pt.tag_id = ${n}::int)`, filter.tag);
  if (filter.joined_from !== undefined) add((n) => `p.joined_at >= ${n}::date`, filter.joined_from);
  if (filter.joined_to !== undefined) add((n) => `p.joined_at < ${n}::date + 1`, filter.joined_to);
  if (filter.blocked !== undefined) add((n) => `p.blocked = ${n}::boolean`, filter.blocked);
  const search = filter.search?.trim().replace(/^@/, '').slice(0, PEOPLE_SEARCH_MAX);
  if (search) {
    // LIKE's own characters are taken literally.
    const pattern = `%${search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    add((n) => `(lower(p.first_name || ' ' || p.last_name) like ${n} or lower(coalesce(p.username, '')) like ${n})`, pattern);
  }
  return parts;
}

/**
 * People p who have a value of field `fieldId`, or (with `value`) whose value equals it in any
 * case: e-mails are kept in small letters, but a text or a choice is kept as typed.
 */
export function fieldCondition(fieldId: number, value: string | undefined, params: unknown[]): string {
  params.push(fieldId);
  const field = `$${params.length}`;
  const wanted = value?.trim();
  if (!wanted) return `exists (select 1 from person_fields pf where pf.person_id = p.id and pf.field_id = ${field}::int)`;
  params.push(wanted);
  return `exists (select 1 from person_fields pf where pf.person_id = p.id and pf.field_id = ${field}::int and lower(pf.value) = lower($${params.length}::text))`;
}

/**
 * The WHERE over people p joined to their funnels f: the owner's ($1, already in `params`) who
 * match `filter`.
 */
export function ownedPeopleWhere(filter: ContactsFilter, params: unknown[]): string {
  return ['f.owner_id = $1', ...criteriaParts(filter, params)].join(' and ');
}

/** People in any of `lists` (none: nobody). */
export function listCondition(lists: ListCriterion[], params: unknown[]): string {
  const ors: string[] = [];
  const statics = lists.filter((l) => l.kind === 'static').map((l) => l.id);
  if (statics.length) {
    params.push(statics);
    ors.push(`exists (select 1 from contact_list_members m where m.person_id = p.id and m.list_id = any($${params.length}::int[]))`);
  }
  for (const list of lists) {
    if (list.kind !== 'segment') continue;
    // A segment's own filter never names a list, so this does not recurse.
    const parts = criteriaParts(list.filter ?? {}, params);
    ors.push(parts.length ? `(${parts.join(' and ')})` : 'true');
  }
  return ors.length ? `(${ors.join(' or ')})` : 'false';
}
