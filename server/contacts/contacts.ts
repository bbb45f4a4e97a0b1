// Contacts: the people of all of a user's funnels (bots) in one list. One WHERE clause serves the
// page, its count and the CSV export, so the three always agree. The export is streamed in pages
// ordered by (joined_at, id) with a keyset, so its memory stays flat however many contacts there are.
// Values always go in as parameters: the statement texts are the few combinations of filters, each
// prepared once per connection on PostgreSQL.
import { CONTACTS_CSV_COLUMNS, CONTACTS_PAGE_DEFAULT, CONTACTS_PAGE_MAX, type BulkTagBody, type BulkTagResult, type Contact, type ContactsPage, type ContactsQuery } from '../../contract/contacts';
import type { Db } from '../db';
import { isoTime } from '../db/raw';
import { COMMON_ERRORS, invalidField } from '../domain-error';
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
  tags: Array<{ id: number; title: string; color: string }> | null;
  blocked: boolean;
  joined_at: Date | string;
  last_seen_at: Date | string;
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
  let where = ownedPeopleWhere(filter, params);
  if (listId !== undefined) {
    const list = await ownListCriterion(db, ownerId, listId);
    where += ` and ${list ? listCondition([list], params) : 'false'}`;
  }
  return { where, params };
}

const COLUMNS = `p.id, p.funnel_id, f.name as funnel_name, f.bot_username, p.telegram_id, p.first_name, p.last_name, p.username,
       p.stage_id, s.title as stage_title, p.blocked, p.joined_at, p.last_seen_at`;
const FROM = 'from people p join funnels f on f.id = p.funnel_id left join stages s on s.id = p.stage_id';
const SELECT = `select ${COLUMNS},
       (select json_agg(json_build_object('id', t.id, 'title', t.title, 'color', t.color) order by t.title)
          from person_tags pt join tags t on t.id = pt.tag_id where pt.person_id = p.id) as tags
  ${FROM}`;
/** The export reads a page's tags in one statement of their own, not one subquery per row. */
const SELECT_WITHOUT_TAGS = `select ${COLUMNS}, null as tags ${FROM}`;

/** A CSV field (RFC 4180), and never a formula when a spreadsheet opens it. */
export function csvField(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
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
  async function exportCsv(ownerId: number, query: ContactsQuery): Promise<AsyncGenerator<string>> {
    const { where, params } = await filters(db, ownerId, query);
    const page = (after: { joinedAt: string; id: number } | null): Promise<ContactRow[]> => {
      const keyset: string = after ? ` and (p.joined_at, p.id) < ($${params.length + 1}::timestamptz, $${params.length + 2}::int)` : '';
      return db.query<ContactRow>(
        `${SELECT_WITHOUT_TAGS} where ${where}${keyset} order by p.joined_at desc, p.id desc limit ${EXPORT_PAGE}`, // a constant
        after ? [...params, after.joinedAt, after.id] : params,
      );
    };
    const first = await page(null);
    return csvPages(first, page);
  }

  async function* csvPages(first: ContactRow[], page: (after: { joinedAt: string; id: number }) => Promise<ContactRow[]>): AsyncGenerator<string> {
    yield `\uFEFF${CONTACTS_CSV_COLUMNS.join(',')}\r\n`;
    let rows = first;
    for (;;) {
      if (rows.length === 0) return;
      const tagRows = await db.query<{ person_id: number; title: string }>(
        'select pt.person_id, t.title from person_tags pt join tags t on t.id = pt.tag_id where pt.person_id = any($1::int[]) order by t.title',
        [rows.map((r) => r.id)],
      );
      const tagsOf = new Map<number, string[]>();
      for (const t of tagRows) tagsOf.set(t.person_id, [...(tagsOf.get(t.person_id) ?? []), t.title]);
      let chunk = '';
      for (const r of rows) {
        const c = toContact(r);
        const fields = [
          String(c.id),
          c.funnel_name,
          // The bot's username without "@": a cell starting with "@" would need the formula guard.
          c.bot_username ?? '',
          c.first_name,
          c.last_name,
          c.username ?? '',
          String(c.telegram_id),
          c.stage_title ?? '',
          (tagsOf.get(c.id) ?? []).join('; '),
          c.blocked ? 'yes' : 'no',
          c.joined_at,
          c.last_seen_at,
        ];
        chunk += `${fields.map(csvField).join(',')}\r\n`;
      }
      yield chunk;
      const last = rows[rows.length - 1];
      if (rows.length < EXPORT_PAGE) return;
      rows = await page({ joinedAt: isoTime(last.joined_at), id: last.id });
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
