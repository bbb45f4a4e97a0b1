// One rule for text in every JSON body: a string with an unpaired UTF-16 surrogate ("\ud800"
// written in the JSON) cannot be stored by PostgreSQL, so it is refused with a 400 naming the
// field, the same on every route — never a 500, never stored half-way. And one rule for every
// string field of every route, read from the routes' own schemas: NUL, an unpaired surrogate, a
// day that does not exist and a moment that is not RFC 3339 are each a 400 naming the field.
import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { API } from '../../contract/auth';
import { FUNNELS_API } from '../../contract/funnels';
import { DATE_TIME_MESSAGE, DAY_MESSAGE, INVALID_MESSAGE_KEYWORD, STRING_FORMATS } from '../../contract/schemas/common';
import { GOOD_PASSWORD, signedInUser, uniqueEmail } from '../test/helpers';
import { apiRoutes, MESSAGES } from './errors';
import { addStage, addTag, connectFunnel, ok, useFunnelsTestEnv, user } from '../test/funnels-api';

const env = useFunnelsTestEnv();

/** Sends a raw JSON text, so that the escapes reach the server as written. */
function send(method: 'POST' | 'PUT' | 'PATCH', url: string, json: string, key?: string): Promise<LightMyRequestResponse> {
  return env.t.app.inject({
    method,
    url,
    headers: { 'content-type': 'application/json', ...(key ? { authorization: `Token ${key}` } : {}) },
    payload: json,
  });
}

function refused(res: LightMyRequestResponse, field: string) {
  expect(res.statusCode, res.body).toBe(400);
  expect(res.json()).toEqual({ [field]: [MESSAGES.brokenText] });
}

describe('text with a broken character', () => {
  it('is refused in a stage message: text, a button URL, the next-step text', async () => {
    const key = await user(env);
    const funnel = await connectFunnel(env, key);
    const stage = await addStage(env, key, funnel.id);
    const url = FUNNELS_API.stageMessage(stage.id);
    refused(await send('PUT', url, '{"text":"hi \\ud800"}', key), 'text');
    refused(await send('PUT', url, '{"text":"a lone low half \\udc00 here"}', key), 'text');
    refused(await send('PUT', url, '{"text":"ok","buttons":[{"text":"Go","url":"https://example.com/\\ud83d"}]}', key), 'buttons');
    refused(await send('PUT', url, '{"text":"ok","next_button":{"text":"Next \\udbff"}}', key), 'next_button');
    // Nothing was stored, and a well-formed pair (an emoji) still passes.
    const saved = ok<{ text: string }>(await send('PUT', url, '{"text":"hi \\ud83d\\ude00"}', key));
    expect(saved.text).toBe('hi 😀');
  });

  it('is refused in a funnel name and a tag title', async () => {
    const key = await user(env);
    const funnel = await connectFunnel(env, key, 'Shop');
    refused(await send('PATCH', FUNNELS_API.funnel(funnel.id), '{"name":"Shop \\ud800"}', key), 'name');
    refused(await send('POST', FUNNELS_API.tags(funnel.id), '{"title":"vip \\ud800"}', key), 'title');
    const tag = await addTag(env, key, funnel.id, 'vip');
    refused(await send('PATCH', FUNNELS_API.tag(tag.id), '{"title":"\\udc00"}', key), 'title');
    expect(ok<{ name: string }>(await env.t.app.inject({ method: 'GET', url: FUNNELS_API.funnel(funnel.id), headers: { authorization: `Token ${key}` } })).name).toBe('Shop');
  });

  it('is refused in the auth API too, naming each field that holds one', async () => {
    const email = uniqueEmail('broken');
    const res = await send(
      'POST',
      API.register,
      JSON.stringify({ email, password: GOOD_PASSWORD, re_password: GOOD_PASSWORD, first_name: 'X', last_name: 'Y' })
        .replace('"X"', '"Al\\ud800ice"')
        .replace('"Y"', '"\\udfff"'),
    );
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ first_name: [MESSAGES.brokenText], last_name: [MESSAGES.brokenText] });
    // The account was not made: the same e-mail registers cleanly afterwards.
    const clean = await send('POST', API.register, JSON.stringify({ email, password: GOOD_PASSWORD, re_password: GOOD_PASSWORD, first_name: 'Al', last_name: 'Y' }));
    expect(clean.statusCode, clean.body).toBe(201);
  });

  it('in a key or in the body as a whole is a non-field error', async () => {
    refused(await send('POST', API.login, '{"\\ud800":"x"}'), 'non_field_errors');
    refused(await send('POST', API.login, '"\\ud800"'), 'non_field_errors');
  });
});

// ---------------------------------------------------------------------------------------------
// Every route, every string field: read from the route table and each route's schemas
// ---------------------------------------------------------------------------------------------

type SchemaNode = Record<string, unknown>;
/** A string field: the way to it from the body's (or query's) top, and its schema. */
interface StringField {
  path: Array<string | number>;
  node: SchemaNode;
}

const NUL_MESSAGE = 'Null characters are not allowed.';
const IMPOSSIBLE_DAYS = ['2024-02-30', '2023-02-29', '2024-13-45', '0000-01-01'];
const BAD_MOMENTS = ['', '2030-02-30T10:00:00Z', 'Thu, 28 Feb 2030 10:00:00 GMT', 'next friday', '2030-02-28T10:00:00', '+010000-01-01T00:00:00Z', '+275760-09-13T00:00:00Z'];

function stringFields(node: unknown, path: Array<string | number> = []): StringField[] {
  if (typeof node !== 'object' || node === null) return [];
  const schema = node as SchemaNode;
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  const found: StringField[] = [];
  if (types.includes('string') && !Array.isArray(schema.enum)) found.push({ path, node: schema });
  if (types.includes('object') && schema.properties && typeof schema.properties === 'object') {
    for (const [name, child] of Object.entries(schema.properties)) found.push(...stringFields(child, [...path, name]));
  }
  if (types.includes('array') && typeof schema.items === 'object') found.push(...stringFields(schema.items, [...path, 0]));
  return found;
}

/** `value` placed at `path`, arrays and objects made on the way. */
function placed(path: Array<string | number>, value: unknown): unknown {
  if (path.length === 0) return value;
  const [head, ...rest] = path;
  return typeof head === 'number' ? [placed(rest, value)] : { [head]: placed(rest, value) };
}

/** What the field must answer for a bad value: its own message if it has one, else the text rule's. */
function expectedMessage(field: StringField, fallback: string): string {
  const custom = field.node[INVALID_MESSAGE_KEYWORD];
  return typeof custom === 'string' ? custom : fallback;
}

/** A route's path with ids filled in: the caller's own funnel where a route checks it before the body (uploads). */
const fillPath = (url: string, funnelId: number) => url.replace(/^\/api\/funnels\/:id\//, `/api/funnels/${funnelId}/`).replace(/:[A-Za-z]+/g, '1');
const reportedName = (name: string | number) => String(name).replace(/\[\]$/, '');

/** Rows in every table of the database: a refused request leaves each count as it was. */
async function rowCounts(): Promise<Record<string, number>> {
  const tables = await env.t.db.query<{ name: string }>(`select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by 1`);
  const counts: Record<string, number> = {};
  for (const { name } of tables) counts[name] = Number((await env.t.db.query<{ n: number }>(`select count(*)::int as n from "${name}"`))[0].n);
  return counts;
}

describe('every string field of every route', () => {
  it('is a string the contract defines: a text, a day, a moment or an e-mail address', () => {
    const routes = apiRoutes(env.t.app);
    expect(routes.length).toBeGreaterThan(80);
    const loose = routes.flatMap((route) =>
      (['body', 'querystring'] as const).flatMap((part) =>
        stringFields(route.schema?.[part])
          .filter((field) => !(typeof field.node.format === 'string' && field.node.format in STRING_FORMATS))
          .map((field) => `${route.method} ${route.url} ${part}.${field.path.join('.')}`),
      ),
    );
    expect(loose).toEqual([]);
  });

  it('refuses NUL, a broken character, an impossible day and a moment that is not RFC 3339 with a 400 naming it, and saves nothing', async () => {
    // An admin, so that admin-only routes reach their validation too.
    const admin = await signedInUser(env.t);
    await env.t.db.query(`update users set role = 'admin' where id = $1`, [admin.id]);
    env.t.app.sessions.forgetUser(admin.id);
    const key = admin.key;
    const funnel = await connectFunnel(env, key);
    const before = await rowCounts();
    const failures: string[] = [];
    let checked = 0;
    const expectRefused = (what: string, res: LightMyRequestResponse, field: string, message: string) => {
      checked += 1;
      const body = res.statusCode === 400 ? (res.json() as Record<string, unknown>) : {};
      const messages = body[field];
      if (res.statusCode !== 400 || !Array.isArray(messages) || !messages.includes(message)) {
        failures.push(`${what}: ${res.statusCode} ${res.body.slice(0, 300)} (wanted ${field}: ${message})`);
      }
    };

    for (const route of apiRoutes(env.t.app)) {
      const url = fillPath(route.url, funnel.id);
      const headers = { authorization: `Token ${key}` };
      for (const field of stringFields(route.schema?.body)) {
        const name = reportedName(field.path[0]);
        const what = `${route.method} ${route.url} body.${field.path.join('.')}`;
        const values: Array<[string, string]> = [['a\u0000b', expectedMessage(field, NUL_MESSAGE)]];
        if (field.node.format === 'calendar-day') values.push(...IMPOSSIBLE_DAYS.map((day): [string, string] => [day, DAY_MESSAGE]));
        if (field.node.format === 'rfc3339-date-time') values.push(...BAD_MOMENTS.map((at): [string, string] => [at, DATE_TIME_MESSAGE]));
        for (const [value, message] of values) {
          const res = await env.t.app.inject({ method: route.method as 'POST', url, headers, payload: placed(field.path, value) as object });
          expectRefused(`${what} = ${JSON.stringify(value)}`, res, name, message);
        }
        // A lone surrogate, as JSON can write it: the body parser names the top field.
        const json = JSON.stringify(placed(field.path, 'BROKEN-HERE')).replace('BROKEN-HERE', 'x\\ud800');
        const res = await env.t.app.inject({ method: route.method as 'POST', url, headers: { ...headers, 'content-type': 'application/json' }, payload: json });
        expectRefused(`${what} = "x\\ud800"`, res, String(field.path[0]), MESSAGES.brokenText);
      }
      for (const field of stringFields(route.schema?.querystring)) {
        if (field.path.length !== 1) continue; // a query is flat: id[] lists are its items
        const name = String(field.path[0]);
        const what = `${route.method} ${route.url} ?${name}`;
        const values: Array<[string, string]> = [['a%00b', expectedMessage(field, NUL_MESSAGE)]];
        if (field.node.format === 'calendar-day') values.push(...IMPOSSIBLE_DAYS.map((day): [string, string] => [day, DAY_MESSAGE]));
        if (field.node.format === 'rfc3339-date-time') values.push(...BAD_MOMENTS.map((at): [string, string] => [encodeURIComponent(at), DATE_TIME_MESSAGE]));
        for (const [value, message] of values) {
          const res = await env.t.app.inject({ method: route.method as 'GET', url: `${url}?${encodeURIComponent(name)}=${value}`, headers });
          expectRefused(`${what}=${value}`, res, reportedName(name), message);
        }
      }
    }
    expect(failures).toEqual([]);
    expect(checked).toBeGreaterThan(100);
    expect(await rowCounts()).toEqual(before);
  });
});
