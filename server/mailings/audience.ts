// Who a mailing reaches, as one SQL condition over people (alias p) of one funnel: used for the
// live count, and in the statement that makes the recipient rows when the mailing starts.
import type { Db } from '../db';
import type { MailingAudience } from '../db/schema';
import { fieldCondition, listCondition, type ListCriterion } from '../contacts/criteria';

export const EMPTY_AUDIENCE: MailingAudience = { stages_in: [], stages_out: [], tags_in: [], tags_out: [], lists_in: [], sources_in: [] };

/**
 * The WHERE of people p of funnel $1 in `audience`; its lists are $2..$5 (int[]). People who
 * blocked the bot are always left out.
 */
const AUDIENCE_WHERE = `
  p.funnel_id = $1 and not p.blocked
  and (cardinality($2::int[]) = 0 or p.stage_id = any($2::int[]))
  and (cardinality($3::int[]) = 0 or p.stage_id is null or not (p.stage_id = any($3::int[])))
  and (cardinality($4::int[]) = 0 or exists (select 1 from person_tags pt where pt.person_id = p.id and pt.tag_id = any($4::int[])))
  and (cardinality($5::int[]) = 0 or not exists (select 1 from person_tags pt where pt.person_id = p.id and pt.tag_id = any($5::int[])))`;

/**
 * The audience's WHERE and its parameters. Lists (lists_in) narrow it to people in any of them,
 * read now: a segment is live, so a mailing started later reaches who matches then. Lists of
 * someone other than the funnel's owner, or deleted since, count as empty.
 */
export async function audienceQuery(db: Db, funnelId: number, a: MailingAudience): Promise<{ where: string; params: unknown[] }> {
  const params: unknown[] = [funnelId, a.stages_in, a.stages_out, a.tags_in, a.tags_out];
  let where = AUDIENCE_WHERE;
  // Sources (sources_in) narrow it to people whose first source is one of them.
  const sourceIds = a.sources_in ?? [];
  if (sourceIds.length > 0) {
    params.push(sourceIds);
    where += ` and p.source_id = any($${params.length}::int[])`;
  }
  // Fields (fields) narrow it to people who have each one (with its value, when given).
  for (const field of a.fields ?? []) where += ` and ${fieldCondition(field.field_id, field.value, params)}`;
  const listIds = a.lists_in ?? [];
  if (listIds.length === 0) return { where, params };
  return { where: `${where} and ${listCondition(await ownersLists(db, funnelId, listIds), params)}`, params };
}

/** Those of `listIds` that belong to the funnel's owner (the others are missing to them). */
export function ownersLists(db: Db, funnelId: number, listIds: number[]): Promise<ListCriterion[]> {
  return db.query<ListCriterion>('select l.id, l.kind, l.filter from contact_lists l join funnels f on f.owner_id = l.owner_id where f.id = $1 and l.id = any($2::int[])', [
    funnelId,
    listIds,
  ]);
}
