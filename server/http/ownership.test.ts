// Another user's data, through every route the app has. The route table is read from Fastify
// itself (apiRoutes, kept by an onRoute hook), so a route added later is covered without editing this file. User A
// owns one of everything; then a second user, a Telegram Mini App user and a second admin call
// every path with every method, with A's ids in every path parameter, body field and query
// parameter that takes an id. Each answer must be 404 (403 for an admin-only call, 405 for a
// method the path does not have, 415 for a body type it does not take), must not show A's
// data, and every row of the database that belongs to A (found by following the foreign keys
// from A's user row) must be byte for byte what it was.
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { API } from '../../contract/auth';
import { CRM_API, FOLDER_IMAGE_KINDS } from '../../contract/crm';
import { FUNNELS_API, type MessageMedia } from '../../contract/funnels';
import { LETTERS_API, type Series } from '../../contract/letters';
import { MAILINGS_API, type Mailing } from '../../contract/mailings';
import { SOURCES_API, type FunnelSource } from '../../contract/sources';
import { TEMPLATES_API, type Template } from '../../contract/templates';
import { WEBHOOKS_API } from '../../contract/webhooks';
import { startFakeBotApi } from '../../scripts/telegram/fake-bot-api';
import { signInitData } from '../../scripts/telegram/init-data';
import { setRole } from '../accounts/roles';
import type { Db } from '../db';
import { people, personEvents } from '../db/schema';
import { addPerson, addRunnableStage, addTag, call, connectFunnel, ok, type FunnelsTestEnv } from '../test/funnels-api';
import { createTestApp, createTestDb, signedInUser, TEST_BOT_TOKEN } from '../test/helpers';
import { apiRoutes } from './errors';

/** Every text A writes carries it: an answer to someone else that contains it shows A's data. */
const MARKER = 'Alpha7secret';
const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
type HttpMethod = (typeof METHODS)[number];

// --- the route table, from Fastify -----------------------------------------------------------

interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  pattern?: string;
  format?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
}

interface RouteEntry {
  method: HttpMethod;
  url: string;
  body?: JsonSchema;
  query?: JsonSchema;
}

/** The app's API routes as Fastify registered them (HEAD comes with every GET, as Fastify exposes it). */
function routeTable(): RouteEntry[] {
  return apiRoutes(env.t.app).flatMap((route) => {
    const schema = (route.schema ?? {}) as { body?: JsonSchema; querystring?: JsonSchema };
    const method = route.method.toUpperCase() as HttpMethod;
    const entry = { method, url: route.url, body: schema.body, query: schema.querystring };
    return method === 'GET' ? [entry, { ...entry, method: 'HEAD' as HttpMethod }] : [entry];
  });
}

/** Ways to write one id in a path. */
const ID_SPELLINGS: Array<(id: number) => string> = [String, (id) => `0${id}`];

const paramsOf = (url: string) => url.split('/').filter((part) => part.startsWith(':')).map((part) => part.slice(1));

/**
 * Values to try in a path parameter that is not an id (an id parameter takes A's ids). A new
 * such parameter fails the test until its values are named here.
 */
// The incoming webhook's :secret is its credential: any other caller knows only a wrong one.
const WORD_PARAMS: Record<string, readonly string[]> = { kind: FOLDER_IMAGE_KINDS, secret: ['not-the-secret'] };

// --- a valid request from a schema, with a given id wherever an id goes -----------------------

/**
 * Strings tried, in order, for a string field: the first its pattern and length accept. A free
 * text takes "UTC" (a valid name, text and time zone); a field shaped like an id takes the id.
 */
const STRING_SAMPLES = (id: number) => ['UTC', String(id), '2030-01-02', '10:00', '2030-01-02T10:00:00Z', 'https://example.com/', '#336699'];

function sample(schema: JsonSchema, id: number): unknown {
  if ('const' in schema) return schema.const;
  if (schema.enum) return schema.enum.find((v) => v !== null) ?? null;
  const branches = schema.anyOf ?? schema.oneOf;
  if (branches) return sample(branches.find((b) => b.type !== 'null') ?? branches[0], id);
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  switch (type) {
    case 'object':
      return Object.fromEntries(Object.entries(schema.properties ?? {}).map(([key, value]) => [key, sample(value, id)]));
    case 'array':
      if (schema.maxItems === 0) return [];
      return Array.from({ length: Math.max(1, schema.minItems ?? 0) }, () => sample(schema.items ?? {}, id));
    case 'integer':
    case 'number':
      return Math.min(Math.max(id, schema.minimum ?? id), schema.maximum ?? id);
    case 'boolean':
      return true;
    case 'null':
      return null;
    case 'string': {
      if (schema.format === 'date-time' || schema.format === 'rfc3339-date-time') return '2030-01-02T10:00:00Z';
      if (schema.format === 'calendar-day') return '2030-01-02';
      if (schema.format === 'email-address') return `someone${id}@example.com`;
      if (schema.format === 'uri') return 'https://example.com/';
      const fits = (s: string) =>
        (!schema.pattern || new RegExp(schema.pattern, 'u').test(s)) && s.length >= (schema.minLength ?? 0) && s.length <= (schema.maxLength ?? Infinity);
      return STRING_SAMPLES(id).find(fits) ?? 'x'.repeat(schema.minLength ?? 1);
    }
    default:
      return {};
  }
}

function sampleQuery(schema: JsonSchema | undefined, id: number): Record<string, string | string[]> {
  if (!schema) return {};
  const values = sample(schema, id) as Record<string, unknown>;
  return Object.fromEntries(Object.entries(values).map(([key, value]) => [key, Array.isArray(value) ? value.map(String) : String(value)]));
}

/** Whether a route takes an id in its body or query (a value planted there shows up in the request). */
function takesIdInRequest(route: RouteEntry): boolean {
  const sentinel = 987_654_321;
  return JSON.stringify([route.body ? sample(route.body, sentinel) : null, sampleQuery(route.query, sentinel)]).includes(String(sentinel));
}

// --- the rows that belong to a user, by the foreign keys --------------------------------------

interface ForeignKey {
  child: string;
  parent: string;
  childColumns: string[];
  parentColumns: string[];
}

type Row = Record<string, unknown>;

async function readAllRows(db: Db): Promise<Map<string, Row[]>> {
  const tables = await db.query<{ name: string }>(
    `select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by 1`,
  );
  const union = tables.map((t) => `select '${t.name}' as t, to_jsonb(x)::text as r from "${t.name}" x`).join(' union all ');
  const result = new Map<string, Row[]>(tables.map((t) => [t.name, []]));
  for (const row of await db.query<{ t: string; r: string }>(union)) result.get(row.t)!.push(JSON.parse(row.r) as Row);
  return result;
}

async function foreignKeys(db: Db): Promise<ForeignKey[]> {
  const rows = await db.query<{ child: string; parent: string; child_columns: string[] | string; parent_columns: string[] | string }>(
    `select c.conrelid::regclass::text as child, c.confrelid::regclass::text as parent,
            array(select a.attname::text from unnest(c.conkey) with ordinality k(n, i) join pg_attribute a on a.attrelid = c.conrelid and a.attnum = k.n order by k.i) as child_columns,
            array(select a.attname::text from unnest(c.confkey) with ordinality k(n, i) join pg_attribute a on a.attrelid = c.confrelid and a.attnum = k.n order by k.i) as parent_columns
       from pg_constraint c where c.contype = 'f' and c.connamespace = 'public'::regnamespace`,
  );
  const list = (v: string[] | string) => (Array.isArray(v) ? v : v.replace(/^\{|\}$/g, '').split(','));
  return rows.map((r) => ({ child: r.child.replace(/"/g, ''), parent: r.parent.replace(/"/g, ''), childColumns: list(r.child_columns), parentColumns: list(r.parent_columns) }));
}

/**
 * A user's rows in every table, each as its JSON text, sorted. A row is the user's if it points
 * (by a foreign key) at a row of theirs; a table that points at users (an owner column) belongs
 * by that column alone, so another user's funnel made from A's template is not A's.
 */
function rowsOf(userId: number, all: Map<string, Row[]>, keys: ForeignKey[]): Record<string, string[]> {
  const owned = new Map<string, Set<Row>>([...all.keys()].map((t) => [t, new Set<Row>()]));
  for (const row of all.get('users') ?? []) if (row.id === userId) owned.get('users')!.add(row);
  const ownerTables = new Set(keys.filter((k) => k.parent === 'users').map((k) => k.child));
  const tuple = (row: Row, columns: string[]) => JSON.stringify(columns.map((c) => row[c]));
  for (let changed = true; changed; ) {
    changed = false;
    for (const key of keys) {
      if (ownerTables.has(key.child) && key.parent !== 'users') continue;
      const parents = new Set([...owned.get(key.parent)!].map((row) => tuple(row, key.parentColumns)));
      for (const row of all.get(key.child) ?? []) {
        if (owned.get(key.child)!.has(row) || key.childColumns.some((c) => row[c] === null)) continue;
        if (parents.has(tuple(row, key.childColumns))) {
          owned.get(key.child)!.add(row);
          changed = true;
        }
      }
    }
  }
  return Object.fromEntries([...owned].map(([table, rows]) => [table, [...rows].map((r) => JSON.stringify(r)).sort()]));
}

/** The ids of a user's rows (every table with an id column). */
function idsIn(rows: Record<string, string[]>): number[] {
  const ids = new Set<number>();
  for (const list of Object.values(rows)) for (const text of list) {
    const id = (JSON.parse(text) as Row).id;
    if (typeof id === 'number') ids.add(id);
  }
  return [...ids].sort((a, b) => a - b);
}

function difference(before: Record<string, string[]>, after: Record<string, string[]>): string[] {
  const changes: string[] = [];
  for (const table of new Set([...Object.keys(before), ...Object.keys(after)])) {
    const was = new Set(before[table] ?? []);
    const is = new Set(after[table] ?? []);
    for (const row of was) if (!is.has(row)) changes.push(`${table}: was ${row.slice(0, 300)}`);
    for (const row of is) if (!was.has(row)) changes.push(`${table}: now ${row.slice(0, 300)}`);
  }
  return changes;
}

// --- the test ---------------------------------------------------------------------------------

type Caller = { name: string; headers: Record<string, string>; admin: boolean };
/** Who tries A's data (filled in, in this order, once they have signed in). */
const CALLER_NAMES = ['another user', 'a Telegram Mini App user', 'another admin'] as const;

const env = {} as FunnelsTestEnv;
let ownerId = 0;
let ownerIds: number[] = [];
let strangerIds: number[] = [];
let keys: ForeignKey[] = [];
const callers: Caller[] = [];

async function upload(key: string, method: 'POST' | 'PUT', url: string) {
  return env.t.app.inject({ method, url, headers: { authorization: `Token ${key}`, 'content-type': 'image/png' }, payload: PNG });
}

/** One of everything, owned by the user with this key. */
async function ownEverything(key: string, label: string) {
  const funnel = await connectFunnel(env, key, `${label} funnel`);
  ok(await call(env, key, 'PUT', FUNNELS_API.description(funnel.id), { description: `${label} description`, short_description: `${label} short` }));
  const tag = await addTag(env, key, funnel.id, `${label} tag`);
  const photo = ok<MessageMedia>(await upload(key, 'POST', `${FUNNELS_API.media(funnel.id)}?filename=${label}.png`), 201);
  const first = await addRunnableStage(env, key, funnel.id, { title: `${label} welcome`, tag_id: tag.id });
  ok(await call(env, key, 'PUT', FUNNELS_API.stageMessage(first.id), { text: `${label} hello`, media_id: photo.id, buttons: [], next_button: null }));
  const second = await addRunnableStage(env, key, funnel.id, { title: `${label} offer` });
  const source = ok<FunnelSource>(await call(env, key, 'POST', SOURCES_API.sources(funnel.id), { name: `${label} ad` }), 201);
  const ann = await addPerson(env, funnel.id, { firstName: `${label} Ann`, stageId: first.id, sourceId: source.id });
  await addPerson(env, funnel.id, { firstName: `${label} Bob`, stageId: second.id });
  ok(await call(env, key, 'POST', FUNNELS_API.personTags(ann.id), { tag_id: tag.id }), 201);
  // An outgoing webhook with a delivery in its log, and the incoming URL's secret made.
  ok(await call(env, key, 'POST', WEBHOOKS_API.webhooks(funnel.id), { url: `https://hooks.example.com/${label}`, events: ['stage.reached', 'tag.added'] }), 201);
  ok(await call(env, key, 'GET', WEBHOOKS_API.settings(funnel.id)));
  ok(await call(env, key, 'PATCH', FUNNELS_API.person(ann.id), { stage_id: second.id }));
  // An inbox conversation: Ann wrote and nobody has read it yet.
  await env.t.db.orm.insert(personEvents).values({ personId: ann.id, funnelId: funnel.id, direction: 'in', kind: 'text', text: `${label} question` });
  await env.t.db.orm.update(people).set({ unreadCount: 1 }).where(eq(people.id, ann.id));

  const mailing = async (title: string) =>
    ok<Mailing>(await call(env, key, 'POST', MAILINGS_API.mailings(funnel.id), { title: `${label} ${title}`, message: { text: `${label} news` } }), 201);
  await mailing('draft');
  const scheduled = await mailing('scheduled');
  ok(await call(env, key, 'POST', MAILINGS_API.send(scheduled.id), { scheduled_at: new Date(env.t.clock.now().getTime() + 86_400_000).toISOString() }));
  const sending = await mailing('sending');
  ok(await call(env, key, 'POST', MAILINGS_API.send(sending.id), {}));
  const paused = await mailing('paused');
  ok(await call(env, key, 'POST', MAILINGS_API.send(paused.id), {}));
  ok(await call(env, key, 'POST', MAILINGS_API.pause(paused.id)));
  const finished = await mailing('finished');
  ok(await call(env, key, 'POST', MAILINGS_API.send(finished.id), {}));
  // As the engine leaves it: everyone got it a minute ago (so it can still be deleted from the chats).
  await env.t.db.query(`update outbox set state = 'sent', sent_at = now() - interval '1 minute' where mailing_id = $1`, [finished.id]);
  await env.t.db.query(`update mailings set state = 'finished', finished_at = now() where id = $1`, [finished.id]);

  const series = ok<Series>(
    await call(env, key, 'POST', LETTERS_API.series(funnel.id), { name: `${label} warm-up`, join_on: { on: 'stage', stage_id: second.id, tag_id: null }, leave_on: { stage_id: null, tag_id: tag.id } }),
    201,
  );
  ok(await call(env, key, 'POST', LETTERS_API.letters(series.id), { name: `${label} day 1`, message: { text: `${label} day one` }, sending_time: { kind: 'through', every: 1, unit: 'days', time_of_day: '10:00' }, enabled: true }), 201);
  expect((await call(env, key, 'POST', LETTERS_API.members(series.id), { person_id: ann.id })).statusCode).toBe(204);

  const folder = ok<{ id: number }>(await call(env, key, 'POST', CRM_API.folders, { name: `${label} folder` }), 201);
  ok(await call(env, key, 'POST', CRM_API.funnels(folder.id), { funnel_id: funnel.id }));
  ok(await upload(key, 'PUT', CRM_API.image(folder.id, 'picture')));
  ok(await call(env, key, 'POST', CRM_API.lists, { name: `${label} static`, kind: 'static', folder_id: folder.id, person_ids: [ann.id] }), 201);
  ok(await call(env, key, 'POST', CRM_API.lists, { name: `${label} segment`, kind: 'segment', filter: { funnel: funnel.id } }), 201);
  return { funnel, folder };
}

beforeAll(async () => {
  const testDb = await createTestDb();
  const fake = await startFakeBotApi();
  const t = await createTestApp(testDb.db, {
    config: { telegramApiRoot: fake.url },
    deps: { funnelRuntime: { async sync() {}, stagesChanged() {} } },
  });
  Object.assign(env, {
    testDb,
    t,
    fake,
    synced: [],
    stagesChanged: [],
    async close() {
      await t.close();
      await fake.close();
      await testDb.drop();
    },
  });

  // A is an admin with a template, published from their funnel and later unpublished.
  const owner = await signedInUser(env.t);
  ownerId = owner.id;
  await setRole(env.t.db, owner.email, 'admin');
  const { funnel, folder } = await ownEverything(owner.key, MARKER);
  const template = ok<Template>(await call(env, owner.key, 'POST', TEMPLATES_API.templates, { funnel_id: funnel.id, name: `${MARKER} template` }), 201);
  ok(await upload(owner.key, 'PUT', TEMPLATES_API.cover(template.id)));
  ok(await call(env, owner.key, 'POST', CRM_API.templates(folder.id), { template_id: template.id }));
  ok(await call(env, owner.key, 'PATCH', TEMPLATES_API.template(template.id), { published: false }));

  // The others' own rows get ids far from A's, so an id of theirs never stands for one of A's.
  await env.t.db.query(`select setval(c.oid::regclass, 1000000) from pg_class c where c.relkind = 'S' and c.relnamespace = 'public'::regnamespace`);
  const stranger = await signedInUser(env.t);
  await ownEverything(stranger.key, 'Beta');
  const secondAdmin = await signedInUser(env.t);
  await setRole(env.t.db, secondAdmin.email, 'admin');
  const initData = signInitData({
    botToken: TEST_BOT_TOKEN,
    user: { id: 770_000_001, first_name: 'Tess', language_code: 'en' },
    authDate: Math.floor(env.t.clock.now().getTime() / 1000),
  });
  const telegramUser = { authorization: `TG ${initData}` };
  // "Start here" on the first open from Telegram makes the account.
  ok(await env.t.app.inject({ method: 'POST', url: API.telegramStart, payload: { init_data: initData } }), 201);
  ok(await env.t.app.inject({ method: 'GET', url: API.me, headers: telegramUser }));
  callers.push(
    { name: CALLER_NAMES[0], headers: { authorization: `Token ${stranger.key}` }, admin: false },
    { name: CALLER_NAMES[1], headers: telegramUser, admin: false },
    { name: CALLER_NAMES[2], headers: { authorization: `Token ${secondAdmin.key}` }, admin: true },
  );

  keys = await foreignKeys(env.t.db);
  const all = await readAllRows(env.t.db);
  ownerIds = idsIn(rowsOf(ownerId, all, keys)).filter((id) => id < 1_000_000);
  strangerIds = idsIn(rowsOf(stranger.id, all, keys)).filter((id) => id >= 1_000_000);
}, 60_000);

afterAll(async () => {
  await env.close?.();
});

async function ownersRows(): Promise<Record<string, string[]>> {
  return rowsOf(ownerId, await readAllRows(env.t.db), keys);
}

/** Every path of the API with the methods it has. */
function apiPaths(): Map<string, RouteEntry[]> {
  const paths = new Map<string, RouteEntry[]>();
  for (const route of routeTable()) {
    paths.set(route.url, [...(paths.get(route.url) ?? []), route]);
  }
  return paths;
}

/** Each way to fill a path's parameters from these ids (every id in every id parameter). */
function fillings(url: string, ids: number[], spellings: Array<(id: number) => string> = [String]): string[] {
  let urls = [url];
  for (const param of paramsOf(url)) {
    const values = /id$/i.test(param) ? ids.flatMap((id) => spellings.map((spell) => spell(id))) : WORD_PARAMS[param];
    if (!values) throw new Error(`${url}: name the values of :${param} in WORD_PARAMS`);
    urls = urls.flatMap((u) => values.map((v) => u.replace(`:${param}`, v)));
  }
  return urls;
}

function request(caller: Caller, method: HttpMethod, url: string, route: RouteEntry | undefined, id: number, png = false): Promise<LightMyRequestResponse> {
  const query = sampleQuery(route?.query, id);
  if (png) return env.t.app.inject({ method, url, query, headers: { ...caller.headers, 'content-type': 'image/png' }, payload: PNG });
  const body = route?.body ? sample(route.body, id) : undefined;
  return env.t.app.inject({ method, url, query, headers: caller.headers, ...(body === undefined ? {} : { payload: body as object }) });
}

describe("another user's data, through every route", () => {
  it('the route table has the routes that take ids (it is read from Fastify)', () => {
    const urls = [...apiPaths().keys()];
    expect(urls.filter((u) => paramsOf(u).length > 0).length).toBeGreaterThan(40);
    expect(urls).toContain('/api/mailings/:id/cancel/');
  });

  it("A's rows are found by the foreign keys: one of everything, and a mailing in each state", async () => {
    const rows = await ownersRows();
    const states = rows.mailings.map((r) => (JSON.parse(r) as { state: string }).state).sort();
    expect(states).toEqual(['draft', 'finished', 'paused', 'scheduled', 'sending']);
    for (const table of ['funnels', 'stages', 'tags', 'media', 'people', 'person_tags', 'person_events', 'outbox', 'letter_series', 'letters', 'series_members', 'crm_folders', 'folder_templates', 'templates', 'template_versions']) {
      expect(rows[table]?.length, table).toBeGreaterThan(0);
    }
    expect(rows.contact_lists).toHaveLength(2);
    expect(ownerIds.length).toBeGreaterThan(5);
  });

  for (const [callerIndex, callerName] of CALLER_NAMES.entries()) {
    it(`${callerName} gets 404 on every id route and method, and A's rows stay as they were`, async () => {
      const caller = callers[callerIndex];
      const failures: string[] = [];
      const baseline = await ownersRows();
      for (const [url, routes] of apiPaths()) {
        if (paramsOf(url).length === 0) continue;
        for (const method of METHODS) {
          const route = routes.find((r) => r.method === method);
          const sendsBody = method === 'POST' || method === 'PUT' || method === 'PATCH';
          // A method the path lacks is refused before any id is read: one id is enough.
          const ids = route ? ownerIds : ownerIds.slice(0, 1);
          // Another spelling of the same id ("07") must find nothing either; once is enough.
          const spellings = route && callerIndex === 0 ? ID_SPELLINGS : [String];
          for (const filled of fillings(url, ids, spellings)) {
            const id = Number(/\/(\d+)\//.exec(filled)?.[1] ?? ownerIds[0]);
            const attempts: Array<{ png: boolean; allowed: number[] }> = [{ png: false, allowed: route ? [403, 404] : [404, 405] }];
            if (sendsBody && !route?.body) attempts.push({ png: true, allowed: [403, 404, 405, 415] });
            for (const attempt of attempts) {
              const res = await request(caller, method, filled, route, id, attempt.png);
              if (!attempt.allowed.includes(res.statusCode)) failures.push(`${caller.name} ${method} ${filled}${attempt.png ? ' (png)' : ''}: ${res.statusCode} ${res.body.slice(0, 200)}`);
              else if (res.statusCode === 403 && caller.admin) failures.push(`${caller.name} ${method} ${filled}: 403 for an admin (another admin's object is 404)`);
              if (res.body.includes(MARKER)) failures.push(`${caller.name} ${method} ${filled}: shows A's data: ${res.body.slice(0, 200)}`);
            }
          }
        }
        const changes = difference(baseline, await ownersRows());
        if (changes.length) {
          failures.push(`${caller.name} on ${url} changed A's rows:\n  ${changes.slice(0, 5).join('\n  ')}`);
          break; // later paths would be compared with rows this one already changed
        }
      }
      expect(failures).toEqual([]);
    }, 120_000);
  }

  it("another user's own routes, with A's ids planted in bodies and queries, never touch or show A's data", async () => {
    const caller = callers[0];
    const failures: string[] = [];
    const baseline = await ownersRows();
    for (const [url, routes] of apiPaths()) {
      for (const route of routes) {
        if (route.method === 'HEAD' || !takesIdInRequest(route)) continue;
        // The caller's own objects in the path (or none), A's ids in the body and query.
        const urls = paramsOf(url).length ? fillings(url, strangerIds) : [url];
        for (const filled of urls) {
          for (const id of ownerIds) {
            const res = await request(caller, route.method, filled, route, id);
            if (res.statusCode >= 500) failures.push(`${route.method} ${filled} with id ${id}: ${res.statusCode} ${res.body.slice(0, 200)}`);
            if (res.body.includes(MARKER)) failures.push(`${route.method} ${filled} with id ${id}: shows A's data: ${res.body.slice(0, 200)}`);
          }
        }
        const changes = difference(baseline, await ownersRows());
        if (changes.length) {
          failures.push(`${route.method} ${url} changed A's rows:\n  ${changes.slice(0, 5).join('\n  ')}`);
          break;
        }
      }
    }
    expect(failures).toEqual([]);
  }, 120_000);
});
