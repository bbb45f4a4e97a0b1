// An empty PATCH on every PATCH route (read from the route table): `{}` or no body changes nothing
// and answers 200 with the object as it is (DRF's partial update with no fields), or a 400 naming
// a field the route needs; a body of whitespace is not JSON: 400. Never a 500 ("No values to set").
import { describe, expect, it } from 'vitest';
import { API } from '../../contract/auth';
import { BILLING_API, BILLING_PATHS, type AdminPlan } from '../../contract/billing';
import { CRM_API, CRM_PATHS, type ContactList, type FolderSummary } from '../../contract/crm';
import { FUNNELS_API, FUNNELS_PATHS } from '../../contract/funnels';
import { LETTERS_API, LETTERS_PATHS, type Series } from '../../contract/letters';
import { MAILINGS_API, MAILINGS_PATHS, type Mailing } from '../../contract/mailings';
import { SOURCES_API, SOURCES_PATHS } from '../../contract/sources';
import { FIELDS_API, FIELDS_PATHS } from '../../contract/fields';
import { TEMPLATES_API, TEMPLATES_PATHS, type Template } from '../../contract/templates';
import { WEBHOOKS_API, WEBHOOKS_PATHS } from '../../contract/webhooks';
import { addPerson, addRunnableStage, addTag, call, connectFunnel, ok, useFunnelsTestEnv } from '../test/funnels-api';
import { signedInUser } from '../test/helpers';
import { apiRoutes } from './errors';

const env = useFunnelsTestEnv();

/** One object of each kind a PATCH route changes, owned by an admin (templates are admins'). */
async function objects() {
  const account = await signedInUser(env.t);
  await env.t.db.query(`update users set role = 'admin' where id = $1`, [account.id]);
  env.t.app.sessions.forgetUser(account.id);
  const key = account.key;
  const funnel = await connectFunnel(env, key, 'Shop');
  const stage = await addRunnableStage(env, key, funnel.id, { title: 'Welcome' });
  const tag = await addTag(env, key, funnel.id, 'vip');
  const person = await addPerson(env, funnel.id, { stageId: stage.id });
  const series = ok<Series>(await call(env, key, 'POST', LETTERS_API.series(funnel.id), { name: 'Warm-up' }), 201);
  const letter = ok<{ id: number }>(await call(env, key, 'POST', LETTERS_API.letters(series.id), { name: 'Day 1', message: { text: 'Hi' } }), 201);
  const mailing = ok<Mailing>(await call(env, key, 'POST', MAILINGS_API.mailings(funnel.id), { title: 'Sale', message: { text: 'Hello' } }), 201);
  const folder = ok<FolderSummary>(await call(env, key, 'POST', CRM_API.folders, { name: 'Client' }), 201);
  const list = ok<ContactList>(await call(env, key, 'POST', CRM_API.lists, { name: 'Vip', kind: 'segment', filter: { search: 'a' } }), 201);
  const template = ok<Template>(await call(env, key, 'POST', TEMPLATES_API.templates, { funnel_id: funnel.id, name: 'Course' }), 201);
  const keyword = ok<{ id: number }>(await call(env, key, 'POST', FUNNELS_API.keywords(funnel.id), { phrase: 'price', stage_id: stage.id }), 201);
  const source = ok<{ id: number }>(await call(env, key, 'POST', SOURCES_API.sources(funnel.id), { name: 'Blog' }), 201);
  const webhook = ok<{ id: number }>(await call(env, key, 'POST', WEBHOOKS_API.webhooks(funnel.id), { url: 'https://hooks.example.com/x', events: ['tag.added'] }), 201);
  const field = ok<{ id: number }>(await call(env, key, 'POST', FIELDS_API.fields(funnel.id), { title: 'City', kind: 'text' }), 201);
  const plan = ok<AdminPlan>(await call(env, key, 'POST', BILLING_API.adminPlans, { title: 'Free', is_free: true, limits: { running_funnels: 1, people: 500, mailings: false, letters: false } }), 201);
  /** Each PATCH route's object, by the route's path template. A new PATCH route needs its line here. */
  const urls: Record<string, string> = {
    [API.me]: API.me,
    [FUNNELS_PATHS.funnel]: FUNNELS_API.funnel(funnel.id),
    [FUNNELS_PATHS.stage]: FUNNELS_API.stage(stage.id),
    [FUNNELS_PATHS.tag]: FUNNELS_API.tag(tag.id),
    [FUNNELS_PATHS.person]: FUNNELS_API.person(person.id),
    [FUNNELS_PATHS.keyword]: FUNNELS_API.keyword(funnel.id, keyword.id),
    [SOURCES_PATHS.source]: SOURCES_API.source(funnel.id, source.id),
    [WEBHOOKS_PATHS.webhook]: WEBHOOKS_API.webhook(funnel.id, webhook.id),
    [FIELDS_PATHS.field]: FIELDS_API.field(funnel.id, field.id),
    [LETTERS_PATHS.oneSeries]: LETTERS_API.oneSeries(series.id),
    [LETTERS_PATHS.letter]: LETTERS_API.letter(letter.id),
    [MAILINGS_PATHS.mailing]: MAILINGS_API.mailing(mailing.id),
    [CRM_PATHS.folder]: CRM_API.folder(folder.id),
    [CRM_PATHS.list]: CRM_API.list(list.id),
    [TEMPLATES_PATHS.template]: TEMPLATES_API.template(template.id),
    [BILLING_PATHS.adminPlan]: BILLING_API.adminPlan(plan.id),
  };
  return { key, urls };
}

const patchRoutes = () => apiRoutes(env.t.app).filter((route) => route.method === 'PATCH');

describe('an empty PATCH', () => {
  it('changes nothing and answers 200 with the object, or 400 naming a needed field, on every PATCH route', async () => {
    const { key, urls } = await objects();
    expect(patchRoutes().length).toBeGreaterThanOrEqual(10);
    const problems: string[] = [];
    for (const route of patchRoutes()) {
      const url = urls[route.url];
      if (!url) {
        problems.push(`${route.url}: no object for it in this test`);
        continue;
      }
      const before = await call(env, key, 'GET', url);
      for (const [what, payload] of [
        ['{}', '{}'],
        ['no body', ''],
      ] as const) {
        const res = await env.t.app.inject({ method: 'PATCH', url, headers: { authorization: `Token ${key}`, 'content-type': 'application/json' }, payload });
        if (res.statusCode === 400) {
          // Only a field the route needs may be named.
          const body = res.json() as Record<string, unknown>;
          const fields = Object.keys(body).filter((k) => k !== 'codes');
          if (fields.length === 0 || fields.some((field) => !Array.isArray(body[field]) || !(body[field] as string[]).includes('This field is required.'))) {
            problems.push(`PATCH ${route.url} with ${what}: 400 ${res.body}`);
          }
        } else if (res.statusCode !== 200) {
          problems.push(`PATCH ${route.url} with ${what}: ${res.statusCode} ${res.body.slice(0, 200)}`);
        } else if (before.statusCode === 200) {
          // The object as it was: the same as a GET of it (but for its time of change).
          const strip = (text: string) => JSON.stringify(JSON.parse(text), (key, value) => (key === 'updated_at' ? undefined : value));
          if (strip(res.body) !== strip(before.body)) problems.push(`PATCH ${route.url} with ${what} changed it: ${before.body} -> ${res.body}`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it('with a body of whitespace is not JSON: 400 on every PATCH route', async () => {
    const { key, urls } = await objects();
    const problems: string[] = [];
    for (const route of patchRoutes()) {
      for (const payload of [' ', '\n\t ']) {
        const res = await env.t.app.inject({ method: 'PATCH', url: urls[route.url], headers: { authorization: `Token ${key}`, 'content-type': 'application/json' }, payload });
        if (res.statusCode !== 400 || !String((res.json() as { detail?: unknown }).detail).startsWith('JSON parse error')) {
          problems.push(`PATCH ${route.url} with ${JSON.stringify(payload)}: ${res.statusCode} ${res.body.slice(0, 200)}`);
        }
      }
    }
    expect(problems).toEqual([]);
  });
});
