// The contacts list's query and a saved segment's filter are one shape (contract ContactsFilter):
// a filter as the contacts screen sends it, saved as a segment, comes back as it was and finds the
// same people; a value one of them refuses, the other refuses with the same words.
import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { CONTACTS_API, type ContactsFilter, type ContactsPage } from '../../../contract/contacts';
import { CRM_API, type ContactList, type Folder } from '../../../contract/crm';
import { ContactsFilterSchema, ContactsQuerySchema } from '../../../contract/schemas/contacts';
import { ContactListSchema, ListBodySchema, ListPatchSchema } from '../../../contract/schemas/crm';
import { addPerson, addStage, addTag, call, connectFunnel, ok, user, useFunnelsTestEnv } from '../../test/funnels-api';
import { expectJsonError } from '../../test/helpers';

const env = useFunnelsTestEnv();
const names = (page: ContactsPage) => page.results.map((c) => c.first_name).sort();

/** The query as the app's client (ky) writes a filter: every value as text. */
const queryOf = (filter: Record<string, unknown>) => new URLSearchParams(Object.entries(filter).map(([key, value]): [string, string] => [key, String(value)])).toString();

describe('one contacts filter', () => {
  it('is the same schema for the contacts query, a new or changed segment and a list as answered', () => {
    for (const [key, schema] of Object.entries(ContactsFilterSchema.properties)) {
      expect(ContactsQuerySchema.properties[key as keyof typeof ContactsQuerySchema.properties]).toBe(schema);
    }
    expect(ListBodySchema.properties.filter).toStrictEqual(Type.Optional(ContactsFilterSchema));
    expect(ListPatchSchema.properties.filter).toStrictEqual(Type.Optional(ContactsFilterSchema));
    expect(ContactListSchema.properties.filter).toMatchObject({ properties: ContactsFilterSchema.properties, additionalProperties: false });
  });

  it('finds the same people in the contacts list and in the segment saved from it, and refuses the same values with the same words', async () => {
    const key = await user(env);
    const shop = await connectFunnel(env, key, 'Shop');
    const school = await connectFunnel(env, key, 'School');
    const folder = ok<Folder>(await call(env, key, 'POST', CRM_API.folders, { name: 'Clients' }), 201);
    ok(await call(env, key, 'POST', CRM_API.funnels(folder.id), { funnel_id: school.id }));
    const welcome = await addStage(env, key, shop.id, { title: 'Welcome' });
    const vip = await addTag(env, key, shop.id, 'vip');
    const ann = await addPerson(env, shop.id, { firstName: 'Ann', username: 'anna_i', stageId: welcome.id, joinedAt: new Date('2026-03-01T10:00:00Z') });
    await addPerson(env, shop.id, { firstName: 'Bob', blocked: true, joinedAt: new Date('2026-03-05T10:00:00Z') });
    await addPerson(env, school.id, { firstName: 'Cid', joinedAt: new Date('2026-03-10T10:00:00Z') });
    ok(await call(env, key, 'POST', CONTACTS_API.tags, { person_ids: [ann.id], tag_id: vip.id, action: 'add' }));

    const cases: Array<[ContactsFilter, string[]]> = [
      [{}, ['Ann', 'Bob', 'Cid']],
      [{ search: 'ANN' }, ['Ann']],
      [{ funnel: shop.id }, ['Ann', 'Bob']],
      [{ folder: folder.id }, ['Cid']],
      [{ stage: String(welcome.id) }, ['Ann']],
      [{ stage: 'none' }, ['Bob', 'Cid']],
      [{ tag: vip.id }, ['Ann']],
      [{ blocked: true }, ['Bob']],
      [{ blocked: false }, ['Ann', 'Cid']],
      [{ joined_from: '2026-03-05', joined_to: '2026-03-09' }, ['Bob']],
      [{ funnel: shop.id, blocked: false, search: 'an' }, ['Ann']],
    ];
    for (const [filter, expected] of cases) {
      const listed = ok<ContactsPage>(await call(env, key, 'GET', `${CONTACTS_API.contacts}?${queryOf(filter)}`));
      expect(names(listed), JSON.stringify(filter)).toEqual(expected);
      const segment = ok<ContactList>(await call(env, key, 'POST', CRM_API.lists, { name: JSON.stringify(filter), kind: 'segment', filter }), 201);
      expect(segment).toMatchObject({ filter, count: expected.length });
      expect(ok<ContactList>(await call(env, key, 'GET', CRM_API.list(segment.id))).filter).toEqual(filter);
      expect(names(ok<ContactsPage>(await call(env, key, 'GET', `${CONTACTS_API.contacts}?list=${segment.id}`))), JSON.stringify(filter)).toEqual(expected);
    }

    // [field, the query's text, the same value in a segment's JSON]
    const refused: Array<[keyof ContactsFilter, string, unknown]> = [
      ['funnel', '0', 0],
      ['funnel', '2147483648', 2147483648],
      ['funnel', 'shop', 'shop'],
      ['tag', '0', 0],
      ['folder', '1.5', '1.5'],
      ['stage', 'first', 'first'],
      ['blocked', 'maybe', 'maybe'],
      ['joined_from', '2026-02-30', '2026-02-30'],
      ['search', 'a\u0000b', 'a\u0000b'],
    ];
    for (const [field, text, value] of refused) {
      const query = expectJsonError(await call(env, key, 'GET', `${CONTACTS_API.contacts}?${queryOf({ [field]: text })}`), 400);
      const segment = expectJsonError(await call(env, key, 'POST', CRM_API.lists, { name: 'Bad', kind: 'segment', filter: { [field]: value } }), 400);
      expect(query[field], `${field}=${text}`).toEqual(segment.filter);
    }
    expect(ok<ContactList[]>(await call(env, key, 'GET', CRM_API.lists))).toHaveLength(cases.length);
  });
});
