// Tags and people: tag CRUD with its title rule, the people list with filters and pages, a
// person's tags and history, and ownership of both.
import { describe, expect, it } from 'vitest';
import { FUNNELS_API, TAGS_MAX, type Person, type PersonDetail, type Tag } from '../../../contract/funnels';
import { personEvents, personTags, tags } from '../../db/schema';
import { FUNNEL_ERRORS } from '../../funnels/errors';
import { COMMON_ERRORS } from '../../domain-error';
import { PERSON_HISTORY_LIMIT } from '../../funnels/people';
import { expectJsonError } from '../../test/helpers';
import { addPerson, addStage, addTag, call, connectFunnel, NOT_FOUND, ok, user, useFunnelsTestEnv } from '../../test/funnels-api';
import { detailError, fieldsError, SCHEMA } from './expected-errors';

const env = useFunnelsTestEnv();

describe('tags', () => {
  it('create, list with people counts, patch and delete', async () => {
    const key = await user(env);
    const funnel = await connectFunnel(env, key);
    const vip = ok<Tag>(await call(env, key, 'POST', FUNNELS_API.tags(funnel.id), { title: ' VIP ', color: '#ff3b30' }), 201);
    expect(vip).toEqual({ id: vip.id, funnel_id: funnel.id, title: 'VIP', color: '#ff3b30', people_count: 0 });
    const lead = await addTag(env, key, funnel.id, 'Lead');
    const person = await addPerson(env, funnel.id);
    await env.t.db.orm.insert(personTags).values({ personId: person.id, tagId: vip.id });
    expect(ok<Tag[]>(await call(env, key, 'GET', FUNNELS_API.tags(funnel.id))).map((t) => [t.title, t.people_count])).toEqual([
      ['Lead', 0],
      ['VIP', 1],
    ]);
    expect(ok<Tag>(await call(env, key, 'PATCH', FUNNELS_API.tag(lead.id), { title: 'Warm lead', color: '#34c759' }))).toMatchObject({
      title: 'Warm lead',
      color: '#34c759',
    });
    expect(ok<Tag>(await call(env, key, 'GET', FUNNELS_API.tag(vip.id))).people_count).toBe(1);
    expect((await call(env, key, 'DELETE', FUNNELS_API.tag(vip.id))).statusCode).toBe(204);
    expect(expectJsonError(await call(env, key, 'GET', FUNNELS_API.tag(vip.id)), 404)).toEqual(NOT_FOUND);
    expect(ok<PersonDetail>(await call(env, key, 'GET', FUNNELS_API.person(person.id))).tag_ids).toEqual([]);
  });

  it('refuses a duplicate title (per funnel), a blank or long title and a bad colour', async () => {
    const key = await user(env);
    const funnel = await connectFunnel(env, key);
    const other = await connectFunnel(env, key);
    await addTag(env, key, funnel.id, 'VIP');
    const lead = await addTag(env, key, funnel.id, 'Lead');
    const post = (body: unknown) => call(env, key, 'POST', FUNNELS_API.tags(funnel.id), body);
    expect(expectJsonError(await post({ title: 'VIP' }), 400)).toEqual(fieldsError({ title: [{ code: 'tag_title_taken', text: 'A tag with this title already exists.' }] }));
    expect(expectJsonError(await post({ title: ' VIP  ' }), 400)).toEqual(fieldsError({ title: [{ code: 'tag_title_taken', text: 'A tag with this title already exists.' }] }));
    // …without regard to case, Russian too; the database keeps it so even for two requests at once.
    expect(expectJsonError(await post({ title: 'vip' }), 400)).toEqual(fieldsError({ title: [FUNNEL_ERRORS.tagTitleTaken] }));
    await addTag(env, key, funnel.id, 'Клиент');
    expect(expectJsonError(await post({ title: 'КЛИЕНТ' }), 400)).toEqual(fieldsError({ title: [FUNNEL_ERRORS.tagTitleTaken] }));
    await expect(env.t.db.orm.insert(tags).values({ funnelId: funnel.id, title: 'Vip' })).rejects.toThrow();
    // A tag may be renamed to its own title in another case.
    expect(ok<{ title: string }>(await call(env, key, 'PATCH', FUNNELS_API.tag(lead.id), { title: 'lead ' })).title).toBe('lead');
    expect(expectJsonError(await call(env, key, 'PATCH', FUNNELS_API.tag(lead.id), { title: 'VIP' }), 400)).toEqual(fieldsError({ title: [{ code: 'tag_title_taken', text: 'A tag with this title already exists.' }] }));
    // Same title in another funnel is fine; renaming a tag to its own title too.
    ok(await call(env, key, 'POST', FUNNELS_API.tags(other.id), { title: 'VIP' }), 201);
    ok(await call(env, key, 'PATCH', FUNNELS_API.tag(lead.id), { title: 'Lead' }));
    expect(expectJsonError(await post({}), 400)).toEqual(fieldsError({ title: [SCHEMA.required] }));
    expect(expectJsonError(await post({ title: ' ' }), 400)).toEqual(fieldsError({ title: [SCHEMA.blank] }));
    expect(expectJsonError(await post({ title: 't'.repeat(65), color: '#12345' }), 400)).toEqual(fieldsError({ title: [SCHEMA.tooLong(64)], color: [SCHEMA.invalid('Enter a valid colour: #rrggbb.')] }));
  });

  it(`stops at ${TAGS_MAX} tags`, async () => {
    const key = await user(env);
    const funnel = await connectFunnel(env, key);
    await env.t.db.orm.insert(tags).values(Array.from({ length: TAGS_MAX }, (_, i) => ({ funnelId: funnel.id, title: `T${i}` })));
    expect(expectJsonError(await call(env, key, 'POST', FUNNELS_API.tags(funnel.id), { title: 'more' }), 400)).toEqual(detailError(FUNNEL_ERRORS.tooManyTags));
  });
});

describe('people', () => {
  it('lists newest first, filtered by stage and tag, in pages with a count', async () => {
    const key = await user(env);
    const funnel = await connectFunnel(env, key);
    const [s1, s2] = [await addStage(env, key, funnel.id), await addStage(env, key, funnel.id)];
    const vip = await addTag(env, key, funnel.id, 'VIP');
    const base = Date.now();
    const created = [];
    for (let i = 0; i < 5; i++) {
      created.push(await addPerson(env, funnel.id, { stageId: i < 3 ? s1.id : s2.id, joinedAt: new Date(base + i * 1000), firstName: `P${i}` }));
    }
    await env.t.db.orm.insert(personTags).values([created[0], created[4]].map((p) => ({ personId: p.id, tagId: vip.id })));
    const get = async (query = '') => ok<{ count: number; results: Person[] }>(await call(env, key, 'GET', `${FUNNELS_API.people(funnel.id)}${query}`));
    const all = await get();
    expect(all.count).toBe(5);
    expect(all.results.map((p) => p.first_name)).toEqual(['P4', 'P3', 'P2', 'P1', 'P0']);
    expect(all.results[0]).toMatchObject({ funnel_id: funnel.id, stage_id: s2.id, tag_ids: [vip.id], blocked: false, username: null });
    expect((await get(`?stage=${s1.id}`)).results.map((p) => p.first_name)).toEqual(['P2', 'P1', 'P0']);
    expect((await get(`?tag=${vip.id}`)).results.map((p) => p.first_name)).toEqual(['P4', 'P0']);
    expect((await get(`?tag=${vip.id}&stage=${s1.id}`)).results.map((p) => p.first_name)).toEqual(['P0']);
    const page = await get('?limit=2&offset=2');
    expect(page.count).toBe(5);
    expect(page.results.map((p) => p.first_name)).toEqual(['P2', 'P1']);
    expect(expectJsonError(await call(env, key, 'GET', `${FUNNELS_API.people(funnel.id)}?stage=abc`), 400)).toEqual(
      fieldsError({ stage: [SCHEMA.invalid('A stage id or "none" is required.')] }),
    );
    for (const bad of ['?tag=-1', '?limit=x', '?offset=1.5']) {
      const field = bad.slice(1).split('=')[0];
      expect(expectJsonError(await call(env, key, 'GET', `${FUNNELS_API.people(funnel.id)}${bad}`), 400)).toEqual(fieldsError({ [field]: [SCHEMA.notAnInteger] }));
    }
  });

  it('one person with tag ids and history, newest first and limited', async () => {
    const key = await user(env);
    const funnel = await connectFunnel(env, key);
    const stage = await addStage(env, key, funnel.id);
    const person = await addPerson(env, funnel.id, { stageId: stage.id, username: 'ann' });
    const start = Date.now() - 1_000_000;
    await env.t.db.orm.insert(personEvents).values(
      Array.from({ length: PERSON_HISTORY_LIMIT + 5 }, (_, i) => ({
        personId: person.id,
        funnelId: funnel.id,
        direction: (i % 2 === 0 ? 'in' : 'out') as 'in' | 'out',
        kind: (i % 2 === 0 ? 'text' : 'stage_message') as 'text' | 'stage_message',
        text: `event ${i}`,
        stageId: stage.id,
        createdAt: new Date(start + i * 1000),
      })),
    );
    const detail = ok<PersonDetail>(await call(env, key, 'GET', FUNNELS_API.person(person.id)));
    expect(detail).toMatchObject({ id: person.id, username: 'ann', stage_id: stage.id, tag_ids: [] });
    expect(detail.history).toHaveLength(PERSON_HISTORY_LIMIT);
    expect(detail.history[0]).toMatchObject({ direction: 'in', kind: 'text', text: `event ${PERSON_HISTORY_LIMIT + 4}`, stage_id: stage.id });
    expect(detail.history[1]).toMatchObject({ direction: 'out', kind: 'stage_message' });
    expect(detail.history.at(-1)?.text).toBe('event 5');
  });

  it('tags and untags a person by hand; only tags of the same funnel', async () => {
    const key = await user(env);
    const funnel = await connectFunnel(env, key);
    const other = await connectFunnel(env, key);
    const vip = await addTag(env, key, funnel.id, 'VIP');
    const foreign = await addTag(env, key, other.id, 'VIP');
    const person = await addPerson(env, funnel.id);
    const tagged = ok<PersonDetail>(await call(env, key, 'POST', FUNNELS_API.personTags(person.id), { tag_id: vip.id }), 201);
    expect(tagged.tag_ids).toEqual([vip.id]);
    // Twice is harmless.
    expect(ok<PersonDetail>(await call(env, key, 'POST', FUNNELS_API.personTags(person.id), { tag_id: vip.id }), 201).tag_ids).toEqual([vip.id]);
    const [row] = await env.t.db.orm.select().from(personTags);
    expect(row.source).toBe('manual');
    expect(expectJsonError(await call(env, key, 'POST', FUNNELS_API.personTags(person.id), { tag_id: foreign.id }), 400)).toEqual(fieldsError({ tag_id: [COMMON_ERRORS.doesNotExist(foreign.id)] }));
    expect(expectJsonError(await call(env, key, 'POST', FUNNELS_API.personTags(person.id), {}), 400)).toEqual(fieldsError({ tag_id: [SCHEMA.required] }));
    expect((await call(env, key, 'DELETE', FUNNELS_API.personTag(person.id, vip.id))).statusCode).toBe(204);
    expect(expectJsonError(await call(env, key, 'DELETE', FUNNELS_API.personTag(person.id, vip.id)), 404)).toEqual(NOT_FOUND);
    expect(ok<PersonDetail>(await call(env, key, 'GET', FUNNELS_API.person(person.id))).tag_ids).toEqual([]);
  });
});

describe('ownership', () => {
  it("another user's tags and people are 404 on every route", async () => {
    const [owner, stranger] = [await user(env), await user(env)];
    const funnel = await connectFunnel(env, owner);
    const tag = await addTag(env, owner, funnel.id, 'VIP');
    const person = await addPerson(env, funnel.id);
    await env.t.db.orm.insert(personTags).values({ personId: person.id, tagId: tag.id });
    const mine = await connectFunnel(env, stranger);
    const myTag = await addTag(env, stranger, mine.id, 'Mine');
    const attempts: Array<[Parameters<typeof call>[2], string, unknown?]> = [
      ['GET', FUNNELS_API.tag(tag.id)],
      ['PATCH', FUNNELS_API.tag(tag.id), { title: 'Stolen' }],
      ['DELETE', FUNNELS_API.tag(tag.id)],
      ['GET', FUNNELS_API.person(person.id)],
      ['POST', FUNNELS_API.personTags(person.id), { tag_id: myTag.id }],
      ['DELETE', FUNNELS_API.personTag(person.id, tag.id)],
    ];
    for (const [method, url, body] of attempts) {
      expect(expectJsonError(await call(env, stranger, method, url, body), 404), `${method} ${url}`).toEqual(NOT_FOUND);
    }
    expect(ok<Tag>(await call(env, owner, 'GET', FUNNELS_API.tag(tag.id)))).toMatchObject({ title: 'VIP', people_count: 1 });
    // Someone else's tag cannot be put on one's own person either.
    const myPerson = await addPerson(env, mine.id);
    expect(expectJsonError(await call(env, stranger, 'POST', FUNNELS_API.personTags(myPerson.id), { tag_id: tag.id }), 400)).toEqual(fieldsError({ tag_id: [COMMON_ERRORS.doesNotExist(tag.id)] }));
    // Filters naming another user's stage or tag find nobody.
    expect(ok<{ count: number }>(await call(env, stranger, 'GET', `${FUNNELS_API.people(mine.id)}?tag=${tag.id}`)).count).toBe(0);
  });
});
