// Contacts: the people of all of a user's funnels (bots) in one list. One WHERE clause serves the
// page, its count and the CSV export, so the three always agree. The export is streamed in pages
// ordered by (joined_at, id) with a keyset, so its memory stays flat however many contacts there are.
// Values always go in as parameters: the statement texts are the few combinations of filters, each
// prepared once per connection on PostgreSQL.
import type { Language } from '../../contract/constants';
import { CONTACTS_CSV_COLUMNS, CONTACTS_PAGE_DEFAULT, CONTACTS_PAGE_MAX, type BulkTagBody, type BulkTagResult, type Contact, type ContactsPage, type ContactsQuery } from '../../contract/contacts';
import type { Db } from '../db';
import { isoTime } from '../db/raw';
import { COMMON_ERRORS, invalidField } from '../domain-error';
import { FUNNEL_ERRORS } from '../funnels/errors';
import { isTimeZone } from '../funnels/time-zone';
import { CONTACTS_CSV_WORDING } from './csv-wording';
import { listCondition, ownedPeopleWhere, type ListCriterion } from './criteria';

export interface ContactsServiceDeps {
  db: Db;
}

/** Rows of the export read at a time. */
const EXPORT_PAGE = 2000;

interface ContactRow {
  id: number;
  funnel_id: number;
  funnel_name: string;
  bot_username: string | null;
  telegram_id: string | number;
  first_name: string;
  last_name: string;
  username: string | null;
  stage_id: number | null;
  stage_title: string | null;
  source_id: number | null;
  source_name: string | null;
  fields: Contact['fields'] | null;
  tags: Array<{ id: number; title: string; color: string }> | null;
  blocked: boolean;
  joined_at: Date | string;
  last_seen_at: Date | string;
}

/** A field's column of the export. */
interface ExportFieldColumn {
  id: number;
  title: string;
  funnel_name: string;
}

/** A row of the export: its joined_at also as PostgreSQL's text, exact to the microsecond (the keyset). */
interface ExportRow extends ContactRow {
  joined_key: string;
}

function toContact(r: ContactRow): Contact {
  return {
    id: r.id,
    funnel_id: r.funnel_id,
    funnel_name: r.funnel_name,
    bot_username: r.bot_username,
    telegram_id: Number(r.telegram_id),
    first_name: r.first_name,
    last_name: r.last_name,
    username: r.username,
    stage_id: r.stage_id,
    stage_title: r.stage_title,
    source_id: r.source_id,
    source_name: r.source_name,
    fields: r.fields ?? [],
    tags: r.tags ?? [],
    blocked: r.blocked,
    joined_at: isoTime(r.joined_at),
    last_seen_at: isoTime(r.last_seen_at),
  };
}

/** A list of the owner's, as a criterion; someone else's or a missing one: nobody. */
export async function ownListCriterion(db: Db, ownerId: number, listId: number): Promise<ListCriterion | null> {
  const [row] = await db.query<ListCriterion>('select id, kind, filter from contact_lists where id = $1 and owner_id = $2', [listId, ownerId]);
  return row ?? null;
}

/** The WHERE clause of a query's filters (the owner's funnels always), and its parameters. */
async function filters(db: Db, ownerId: number, query: ContactsQuery): Promise<{ where: string; params: unknown[] }> {
  const params: unknown[] = [ownerId];
  const { list: listId, limit: _limit, offset: _offset, ...filter } = query;
  if (filter.field_value !== undefined && filter.field === undefined) throw invalidField('field', FUNNEL_ERRORS.fieldRequiredForValue);
  if (filter.field !== undefined) {
    const [own] = await db.query('select 1 from funnel_fields ff join funnels f on f.id = ff.funnel_id where ff.id = $1 and f.owner_id = $2', [filter.field, ownerId]);
    if (!own) throw invalidField('field', COMMON_ERRORS.doesNotExist(filter.field));
  }
  let where = ownedPeopleWhere(filter, params);
  if (listId !== undefined) {
    const list = await ownListCriterion(db, ownerId, listId);
    where += ` and ${list ? listCondition([list], params) : 'false'}`;
  }
  return { where, params };
}

const COLUMNS = `p.id, p.funnel_id, f.name as funnel_name, f.bot_username, p.telegram_id, p.first_name, p.last_name, p.username,
       p.stage_id, s.title as stage_title, p.source_id, src.name as source_name, p.blocked, p.joined_at, p.last_seen_at`;
const FROM = `from people p join funnels f on f.id = p.funnel_id left join stages s on s.id = p.stage_id
  left join funnel_sources src on src.id = p.source_id`;
const SELECT = `select ${COLUMNS},
       (select json_agg(json_build_object('id', t.id, 'title', t.title, 'color', t.color) order by t.title)
          from person_tags pt join tags t on t.id = pt.tag_id where pt.person_id = p.id) as tags,
       (select json_agg(json_build_object('field_id', ff.id, 'title', ff.title, 'value', pf.value) order by ff.id)
          from person_fields pf join funnel_fields ff on ff.id = pf.field_id where pf.person_id = p.id) as fields
  ${FROM}`;
/**
 * The export reads a page's tags in one statement of their own, not one subquery per row. Its
 * keyset is joined_at as PostgreSQL writes it: a JavaScript Date keeps milliseconds only, and a
 * keyset cut to them would skip the people who joined later in that millisecond.
 */
const SELECT_WITHOUT_TAGS = `select ${COLUMNS}, null as tags, null as fields, p.joined_at::text as joined_key ${FROM}`;

/** A CSV field (RFC 4180). */
export function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/**
 * A CSV field of text people typed (a name, a username, a title, a tag): never a formula when a
 * spreadsheet opens it. Only such text gets the guard: the bot's username, the ids and the times
 * never start with a formula's character, and an apostrophe there would only be noise.
 */
export function csvTextField(value: string): string {
  return csvField(/^[=+\-@\t\r]/.test(value) ? `'${value}` : value);
}

/** How a person reads the export: the headers' language and the time zone of its times. */
export interface CsvReader {
  language: Language;
  /** An IANA name ("Europe/Moscow"); refused with a 400 on `tz` when unknown. */
  timeZone: string;
}

/**
 * A moment as "YYYY-MM-DD HH:MM:SS" on the wall clock of the zone: the form a spreadsheet reads
 * as a date and time (an ISO string with "T" and "Z" stays text in most of them).
 */
export function spreadsheetTime(timeZone: string): (at: Date) => string {
  const format = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  });
  return (at) => {
    const parts: Partial<Record<Intl.DateTimeFormatPartTypes, string>> = {};
    for (const part of format.formatToParts(at)) parts[part.type] = part.value;
    return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}:${parts.second}`;
  };
}

export function createContactsService({ db }: ContactsServiceDeps) {
  async function list(ownerId: number, query: ContactsQuery): Promise<ContactsPage> {
    const { where, params } = await filters(db, ownerId, query);
    const limit = Math.min(query.limit ?? CONTACTS_PAGE_DEFAULT, CONTACTS_PAGE_MAX);
    const offset = query.offset ?? 0;
    const [[{ count }], rows] = await Promise.all([
      db.query<{ count: number }>(`select count(*)::int as count from people p join funnels f on f.id = p.funnel_id where ${where}`, params),
      db.query<ContactRow>(`${SELECT} where ${where} order by p.joined_at desc, p.id desc limit $${params.length + 1}::int offset $${params.length + 2}::int`, [
        ...params,
        limit,
        offset,
      ]),
    ]);
    return { count: Number(count), results: rows.map(toContact) };
  }

  /**
   * The filtered contacts as CSV, newest first: UTF-8 with a BOM (a spreadsheet then reads Cyrillic
   * right). The filters are resolved and the first page read before this resolves, so anything that
   * can fail does so before the first byte goes out (an answer with a status, not a cut stream).
   */
  async function exportCsv(ownerId: number, query: ContactsQuery, reader: CsvReader): Promise<AsyncGenerator<string>> {
    if (!isTimeZone(reader.timeZone)) throw invalidField('tz', FUNNEL_ERRORS.unknownTimeZone);
    const { where, params } = await filters(db, ownerId, query);
    const page = (after: ExportRow | null): Promise<ExportRow[]> => {
      const keyset: string = after ? ` and (p.joined_at, p.id) < ($${params.length + 1}::timestamptz, $${params.length + 2}::int)` : '';
      return db.query<ExportRow>(
        `${SELECT_WITHOUT_TAGS} where ${where}${keyset} order by p.joined_at desc, p.id desc limit ${EXPORT_PAGE}`, // a constant
        after ? [...params, after.joined_key, after.id] : params,
      );
    };
    const first = await page(null);
    // One column per field of the funnels whose people are exported, after the fixed ones.
    const fieldColumns = await db.query<ExportFieldColumn>(
      `select ff.id, ff.title, f.name as funnel_name from funnel_fields ff join funnels f on f.id = ff.funnel_id
        where f.owner_id = $1 and ff.funnel_id in (select p.funnel_id from people p join funnels f on f.id = p.funnel_id where ${where})
        order by f.id, ff.id`,
      params,
    );
    return csvPages(first, page, reader, fieldColumns);
  }

  async function* csvPages(first: ExportRow[], page: (after: ExportRow) => Promise<ExportRow[]>, reader: CsvReader, fieldColumns: ExportFieldColumn[]): AsyncGenerator<string> {
    const wording = CONTACTS_CSV_WORDING[reader.language];
    const time = spreadsheetTime(reader.timeZone);
    // Two funnels may each have an "E-mail": their columns say whose.
    const titleCount = new Map<string, number>();
    for (const column of fieldColumns) titleCount.set(column.title, (titleCount.get(column.title) ?? 0) + 1);
    const fieldHeaders = fieldColumns.map((column) => csvTextField((titleCount.get(column.title) ?? 0) > 1 ? `${column.title} (${column.funnel_name})` : column.title));
    yield `\uFEFF${[...CONTACTS_CSV_COLUMNS.map((column) => csvField(wording.columns[column])), ...fieldHeaders].join(',')}\r\n`;
    let rows = first;
    for (;;) {
      if (rows.length === 0) return;
      const tagRows = await db.query<{ person_id: number; title: string }>(
        'select pt.person_id, t.title from person_tags pt join tags t on t.id = pt.tag_id where pt.person_id = any($1::int[]) order by t.title',
        [rows.map((r) => r.id)],
      );
      const tagsOf = new Map<number, string[]>();
      for (const t of tagRows) tagsOf.set(t.person_id, [...(tagsOf.get(t.person_id) ?? []), t.title]);
      const valueRows = fieldColumns.length
        ? await db.query<{ person_id: number; field_id: number; value: string }>('select person_id, field_id, value from person_fields where person_id = any($1::int[])', [
            rows.map((r) => r.id),
          ])
        : [];
      const valueOf = new Map(valueRows.map((v) => [`${v.person_id}:${v.field_id}`, v.value]));
      let chunk = '';
      for (const r of rows) {
        const fields = [
          csvField(String(r.id)),
          csvTextField(r.funnel_name),
          // The bot's username as Telegram gives it (letters, digits, "_"), without "@": nothing to guard.
          csvField(r.bot_username ?? ''),
          csvTextField(r.first_name),
          csvTextField(r.last_name),
          csvTextField(r.username ?? ''),
          csvField(String(r.telegram_id)),
          csvTextField(r.stage_title ?? ''),
          csvTextField((tagsOf.get(r.id) ?? []).join('; ')),
          r.blocked ? wording.yes : wording.no,
          time(new Date(r.joined_at)),
          time(new Date(r.last_seen_at)),
          csvTextField(r.source_name ?? ''),
          ...fieldColumns.map((column) => csvTextField(valueOf.get(`${r.id}:${column.id}`) ?? '')),
        ];
        chunk += `${fields.join(',')}\r\n`;
      }
      yield chunk;
      const last = rows[rows.length - 1];
      if (rows.length < EXPORT_PAGE) return;
      rows = await page(last);
    }
  }

  /** Tags or untags the user's people of the tag's funnel among `person_ids`; the rest stay as they are. */
  async function bulkTag(ownerId: number, body: BulkTagBody): Promise<BulkTagResult> {
    const [tag] = await db.query<{ id: number }>('select t.id from tags t join funnels f on f.id = t.funnel_id where t.id = $1 and f.owner_id = $2', [body.tag_id, ownerId]);
    if (!tag) throw invalidField('tag_id', COMMON_ERRORS.doesNotExist(body.tag_id));
    const ids = [...new Set(body.person_ids)];
    const changed =
      body.action === 'add'
        ? await db.query(
            `insert into person_tags (person_id, tag_id, source)
             select p.id, t.id, 'manual' from people p join tags t on t.funnel_id = p.funnel_id join funnels f on f.id = t.funnel_id
              where p.id = any($1::int[]) and t.id = $2 and f.owner_id = $3
             on conflict do nothing returning person_id`,
            [ids, body.tag_id, ownerId],
          )
        : await db.query(
            `delete from person_tags pt using people p, tags t, funnels f
              where pt.person_id = p.id and pt.tag_id = t.id and t.funnel_id = p.funnel_id and f.id = t.funnel_id
                and p.id = any($1::int[]) and t.id = $2 and f.owner_id = $3
             returning pt.person_id`,
            [ids, body.tag_id, ownerId],
          );
    return { changed: changed.length, unchanged: ids.length - changed.length };
  }

  return { list, exportCsv, bulkTag };
}
