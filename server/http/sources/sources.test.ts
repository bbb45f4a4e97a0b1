// Traffic sources through the API and the bot: the owner's sources and their links, a person's
// first source recorded by "/start src_<code>" through the fake Bot API (kept, never replaced;
// an unknown or archived code records nothing), the results by source per period, source as a
// filter of people, contacts, the CSV and mailing audiences, and ownership: another user's
// funnel or source is 404 and no write touches their rows.
import { parse } from 'csv-parse/sync';
import { and, eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { CONTACTS_API, type ContactsPage } from '../../../contract/contacts';
import { FUNNELS_API, type PeoplePage, type PersonDetail } from '../../../contract/funnels';
import { MAILINGS_API } from '../../../contract/mailings';
import { SOURCE_START_PREFIX, SOURCES_API, type FunnelSource, type SourceStats } from '../../../contract/sources';
import type { FunnelRuntime } from '../../bots/runtime/runtime';
import { funnelSources, people } from '../../db/schema';
import { eventually } from '../../test/eventually';
import { testRuntime } from '../../test/funnel-runtime';
import { addPerson, addRunnableStage, call, connectFunnel, NOT_FOUND, ok, user, useFunnelsTestEnv } from '../../test/funnels-api';
import { expectJsonError } from '../../test/helpers';

const env = useFunnelsTestEnv();
const runtimes: FunnelRuntime[] = [];
afterEach(async () => {
  await Promise.all(runtimes.splice(0).map((runtime) => runtime.stop()));
});

async function addSource(key: string, funnelId: number, name: string): Promise<FunnelSource> {
  return ok<FunnelSource>(await call(env, key, 'POST', SOURCES_API.sources(funnelId), { name }), 201);
}

async function sourceRow(id: number) {
  const [row] = await env.t.db.orm.select().from(funnelSources).where(eq(funnelSources.id, id));
  return row;
}

describe('sources', () => {
  it('the owner creates, lists, renames, archives and deletes sources; each has its start link', async () => {
    const key = await user(env);
    const funnel = await connectFunnel(env, key, 'Shop');
    const insta = await addSource(key, funnel.id, '  Instagram ad ');
    expect(insta).toMatchObject({ funnel_id: funnel.id, name: 'Instagram ad', people_count: 0, archived: false });
    expect(insta.code).toMatch(/^[A-Za-z0-9_-]{10}$/);
    expect(insta.link).toBe(`https://t.me/${funnel.bot_username}?start=${SOURCE_START_PREFIX}${insta.code}`);
    expect(insta.link!.length - insta.link!.indexOf('=') - 1).toBeLessThanOrEqual(64);
    const blog = await addSource(key, funnel.id, 'Blog post');
    expect(blog.code).not.toBe(insta.code);

    const renamed = ok<FunnelSource>(await call(env, key, 'PATCH', SOURCES_API.source(funnel.id, blog.id), { name: 'Blog' }));
    expect(renamed).toMatchObject({ name: 'Blog', code: blog.code, archived: false });
    const archived = ok<FunnelSource>(await call(env, key, 'PATCH', SOURCES_API.source(funnel.id, blog.id), { archived: true }));
    expect(archived.archived).toBe(true);
    // Archived ones go last.
    expect(ok<FunnelSource[]>(await call(env, key, 'GET', SOURCES_API.sources(funnel.id))).map((s) => [s.name, s.archived])).toEqual([
      ['Instagram ad', false],
      ['Blog', true],
    ]);

    expect(expectJsonError(await call(env, key, 'POST', SOURCES_API.sources(funnel.id), { name: '   ' }), 400)).toMatchObject({ name: ['This field may not be blank.'] });
    expect(expectJsonError(await call(env, key, 'POST', SOURCES_API.sources(funnel.id), { name: 'x'.repeat(65) }), 400)).toHaveProperty('name');

    expect((await call(env, key, 'DELETE', SOURCES_API.source(funnel.id, blog.id))).statusCode).toBe(204);
    expect(await sourceRow(blog.id)).toBeUndefined();
    expect(ok<FunnelSource[]>(await call(env, key, 'GET', SOURCES_API.sources(funnel.id))).map((s) => s.id)).toEqual([insta.id]);
  });

  it("another user's funnel or source is 404, and their rows stay as they were", async () => {
    const key = await user(env);
    const funnel = await connectFunnel(env, key, 'Mine');
    const mine = await addSource(key, funnel.id, 'Mine');
    const other = await connectFunnel(env, key, 'Also mine');
    const stranger = await user(env);
    const theirs = await connectFunnel(env, stranger, 'Theirs');
    const theirSource = await addSource(stranger, theirs.id, 'Their ad');

    const notFound = async (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown) =>
      expect(expectJsonError(await call(env, key, method, url, body), 404)).toEqual(NOT_FOUND);
    await notFound('GET', SOURCES_API.sources(theirs.id));
    await notFound('POST', SOURCES_API.sources(theirs.id), { name: 'Sneaky' });
    await notFound('GET', `${SOURCES_API.stats(theirs.id)}?period=all`);
    await notFound('PATCH', SOURCES_API.source(theirs.id, theirSource.id), { name: 'Taken', archived: true });
    await notFound('DELETE', SOURCES_API.source(theirs.id, theirSource.id));
    // Their source under my funnel's path, and my source under another of my funnels: not found either.
    await notFound('PATCH', SOURCES_API.source(funnel.id, theirSource.id), { name: 'Taken' });
    await notFound('DELETE', SOURCES_API.source(funnel.id, theirSource.id));
    await notFound('PATCH', SOURCES_API.source(other.id, mine.id), { name: 'Moved' });
    await notFound('DELETE', SOURCES_API.source(other.id, mine.id));
    await notFound('PATCH', SOURCES_API.source(funnel.id, 999_999), { name: 'None' });

    expect(await sourceRow(theirSource.id)).toMatchObject({ name: 'Their ad', archivedAt: null, funnelId: theirs.id });
    expect(await sourceRow(mine.id)).toMatchObject({ name: 'Mine', funnelId: funnel.id });
    expect(ok<FunnelSource[]>(await call(env, stranger, 'GET', SOURCES_API.sources(theirs.id))).map((s) => s.name)).toEqual(['Their ad']);
  });

  it('/start src_<code> through the bot records the first source, keeps it, and ignores unknown and archived codes', async () => {
    const key = await user(env);
    const funnel = await connectFunnel(env, key, 'Bot shop');
    await addRunnableStage(env, key, funnel.id, { title: 'Welcome' });
    const insta = await addSource(key, funnel.id, 'Instagram');
    const blog = await addSource(key, funnel.id, 'Blog');
    const old = await addSource(key, funnel.id, 'Old ad');
    ok(await call(env, key, 'PATCH', SOURCES_API.source(funnel.id, old.id), { archived: true }));
    ok(await call(env, key, 'POST', FUNNELS_API.run(funnel.id)));
    const runtime = testRuntime(env.t.db, env.fake.url, { tokenOf: () => funnel.token });
    runtimes.push(runtime);
    await runtime.start();

    const person = (telegramId: number) =>
      eventually(
        async () => (await env.t.db.orm.select().from(people).where(and(eq(people.funnelId, funnel.id), eq(people.telegramId, telegramId))))[0],
        (row) => row !== undefined,
        `person ${telegramId}`,
      );
    const startWith = async (from: { id: number; first_name: string }, text: string) => {
      const before = env.fake.botMessages(funnel.token, from.id).length;
      env.fake.sendUserMessage(funnel.token, { from, text });
      // The reply is written in the /start's own statement: once it arrives, the start is recorded.
      await env.fake.waitForBotMessage(funnel.token, from.id, { predicate: () => env.fake.botMessages(funnel.token, from.id).length > before });
    };
    const ann = { id: 7101, first_name: 'Ann' };
    const bob = { id: 7102, first_name: 'Bob' };
    const cid = { id: 7103, first_name: 'Cid' };
    const dan = { id: 7104, first_name: 'Dan' };
    await startWith(ann, `/start ${SOURCE_START_PREFIX}${insta.code}`);
    await startWith(bob, `/start ${SOURCE_START_PREFIX}nosuchcode`);
    await startWith(cid, `/start ${SOURCE_START_PREFIX}${old.code}`);
    await startWith(dan, '/start');
    expect((await person(ann.id)).sourceId).toBe(insta.id);
    expect((await person(bob.id)).sourceId).toBeNull();
    expect((await person(cid.id)).sourceId).toBeNull();
    expect((await person(dan.id)).sourceId).toBeNull();

    // A later link keeps the first source; one who came by none gets the first one they use.
    await startWith(ann, `/start ${SOURCE_START_PREFIX}${blog.code}`);
    await startWith(dan, `/start ${SOURCE_START_PREFIX}${blog.code}`);
    expect((await person(ann.id)).sourceId).toBe(insta.id);
    expect((await person(dan.id)).sourceId).toBe(blog.id);

    // The owner sees it on the person and in the source's count.
    const annDetail = ok<PersonDetail>(await call(env, key, 'GET', FUNNELS_API.person((await person(ann.id)).id)));
    expect(annDetail.source_id).toBe(insta.id);
    expect(annDetail.history.filter((e) => e.kind === 'command').map((e) => e.text)).toContain(`/start ${SOURCE_START_PREFIX}${insta.code}`);
    const counts = ok<FunnelSource[]>(await call(env, key, 'GET', SOURCES_API.sources(funnel.id)));
    expect(Object.fromEntries(counts.map((s) => [s.name, s.people_count]))).toEqual({ Instagram: 1, Blog: 1, 'Old ad': 0 });
  });

  it('results by source: people who joined in the period by each source, how far they got, and "no source"', async () => {
    const key = await user(env);
    const funnel = await connectFunnel(env, key, 'Stats');
    const first = await addRunnableStage(env, key, funnel.id, { title: 'One' });
    const second = await addRunnableStage(env, key, funnel.id, { title: 'Two' });
    const insta = await addSource(key, funnel.id, 'Instagram');
    const blog = await addSource(key, funnel.id, 'Blog');
    const now = env.t.clock.now();
    const longAgo = new Date(now.getTime() - 60 * 86_400_000);
    const tenDaysAgo = new Date(now.getTime() - 10 * 86_400_000);
    const reach = async (personId: number, stageIds: number[]) => {
      for (const stageId of stageIds) {
        await env.t.db.query('insert into stage_reaches (person_id, stage_id, funnel_id) values ($1, $2, $3)', [personId, stageId, funnel.id]);
      }
    };
    const a = await addPerson(env, funnel.id, { sourceId: insta.id, joinedAt: now, stageId: second.id });
    await reach(a.id, [first.id, second.id]);
    const b = await addPerson(env, funnel.id, { sourceId: insta.id, joinedAt: tenDaysAgo, stageId: first.id });
    await reach(b.id, [first.id]);
    const c = await addPerson(env, funnel.id, { sourceId: blog.id, joinedAt: longAgo, stageId: first.id });
    await reach(c.id, [first.id]);
    const d = await addPerson(env, funnel.id, { joinedAt: now, stageId: first.id });
    await reach(d.id, [first.id]);

    const stats = async (period: string) => ok<SourceStats>(await call(env, key, 'GET', `${SOURCES_API.stats(funnel.id)}?period=${period}&tz=UTC`));
    const table = (s: SourceStats) => s.sources.map((row) => [row.id, row.people, row.reached.map((r) => r.count), row.paid, row.revenue]);
    const today = await stats('today');
    expect(today.sources.map((s) => s.name)).toEqual(['Instagram', 'Blog', '']);
    expect(today.sources[0]).toMatchObject({ code: insta.code, link: insta.link });
    expect(today.sources[0].reached.map((r) => r.stage_id)).toEqual([first.id, second.id]);
    expect(table(today)).toEqual([
      [insta.id, 1, [1, 1], 0, 0],
      [blog.id, 0, [0, 0], 0, 0],
      [null, 1, [1, 0], 0, 0],
    ]);
    expect(table(await stats('7d'))).toEqual(table(today));
    expect(table(await stats('30d'))).toEqual([
      [insta.id, 2, [2, 1], 0, 0],
      [blog.id, 0, [0, 0], 0, 0],
      [null, 1, [1, 0], 0, 0],
    ]);
    expect(table(await stats('all'))).toEqual([
      [insta.id, 2, [2, 1], 0, 0],
      [blog.id, 1, [1, 0], 0, 0],
      [null, 1, [1, 0], 0, 0],
    ]);
    expect(expectJsonError(await call(env, key, 'GET', `${SOURCES_API.stats(funnel.id)}?period=year`), 400)).toHaveProperty('period');
  });

  it('source filters the funnel\'s people, contacts, the CSV (with its Source column) and mailing audiences', async () => {
    const key = await user(env);
    const funnel = await connectFunnel(env, key, 'Filters');
    const insta = await addSource(key, funnel.id, 'Instagram, paid');
    const blog = await addSource(key, funnel.id, 'Blog');
    await addPerson(env, funnel.id, { firstName: 'Ann', sourceId: insta.id });
    await addPerson(env, funnel.id, { firstName: 'Bob', sourceId: blog.id });
    await addPerson(env, funnel.id, { firstName: 'Cid' });
    const stranger = await user(env);
    const theirs = await connectFunnel(env, stranger, 'Theirs');
    const theirSource = await addSource(stranger, theirs.id, 'Their ad');
    await addPerson(env, theirs.id, { firstName: 'Dan', sourceId: theirSource.id });

    const peopleNames = async (query: string) =>
      ok<PeoplePage>(await call(env, key, 'GET', `${FUNNELS_API.people(funnel.id)}?${query}`)).results.map((p) => p.first_name).sort();
    expect(await peopleNames(`source=${insta.id}`)).toEqual(['Ann']);
    expect(await peopleNames('source=none')).toEqual(['Cid']);
    expect(ok<PeoplePage>(await call(env, key, 'GET', `${FUNNELS_API.people(funnel.id)}?source=${blog.id}`)).results[0].source_id).toBe(blog.id);
    expect(expectJsonError(await call(env, key, 'GET', `${FUNNELS_API.people(funnel.id)}?source=instagram`), 400)).toHaveProperty('source');

    const contactNames = async (query: string) =>
      ok<ContactsPage>(await call(env, key, 'GET', `${CONTACTS_API.contacts}?${query}`)).results.map((p) => p.first_name).sort();
    expect(await contactNames(`source=${blog.id}`)).toEqual(['Bob']);
    expect(await contactNames('source=none')).toEqual(['Cid']);
    expect(await contactNames(`source=${theirSource.id}`)).toEqual([]);
    const contact = ok<ContactsPage>(await call(env, key, 'GET', `${CONTACTS_API.contacts}?source=${insta.id}`)).results[0];
    expect(contact).toMatchObject({ source_id: insta.id, source_name: 'Instagram, paid' });

    const csv = await call(env, key, 'GET', `${CONTACTS_API.export}?funnel=${funnel.id}&lang=en&tz=UTC`);
    expect(csv.statusCode, csv.body).toBe(200);
    const rows = parse(csv.body.replace(/^\uFEFF/, ''), { columns: true }) as Array<Record<string, string>>;
    expect(Object.fromEntries(rows.map((r) => [r['First name'], r.Source]))).toEqual({ Ann: 'Instagram, paid', Bob: 'Blog', Cid: '' });
    const onlyBlog = await call(env, key, 'GET', `${CONTACTS_API.export}?source=${blog.id}&lang=ru&tz=UTC`);
    const ruRows = parse(onlyBlog.body.replace(/^\uFEFF/, ''), { columns: true }) as Array<Record<string, string>>;
    expect(ruRows.map((r) => [r['Имя'], r['Источник']])).toEqual([['Bob', 'Blog']]);

    const everyone = { stages_in: [], stages_out: [], tags_in: [], tags_out: [] };
    const count = async (audience: object) => ok<{ count: number }>(await call(env, key, 'POST', MAILINGS_API.audience(funnel.id), audience)).count;
    expect(await count(everyone)).toBe(3);
    expect(await count({ ...everyone, sources_in: [insta.id] })).toBe(1);
    expect(await count({ ...everyone, sources_in: [insta.id, blog.id] })).toBe(2);
    // Another funnel's source is not one of this funnel's.
    expect(expectJsonError(await call(env, key, 'POST', MAILINGS_API.audience(funnel.id), { ...everyone, sources_in: [theirSource.id] }), 400)).toHaveProperty('audience');
  });
});
