// Fields as filters and columns (issue 24): "field X is set" and "field X equals a value" (any
// case) in a funnel's people list, contacts, a saved segment and a mailing audience (its count and
// the recipients a send makes), the field values on contacts and people rows, one CSV column per
// field of the funnels exported, and ownership: another user's field, or another funnel's field
// in a funnel's list or audience, is a field error and never finds their people.
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { CONTACTS_API, type ContactsPage } from '../../../contract/contacts';
import { CRM_API, type ContactList } from '../../../contract/crm';
import { FIELDS_API, type FunnelField } from '../../../contract/fields';
import { FUNNELS_API, type PeoplePage } from '../../../contract/funnels';
import { MAILINGS_API, type Mailing, type RecipientsPage } from '../../../contract/mailings';
import { addPerson, call, connectFunnel, ok, user, useFunnelsTestEnv } from '../../test/funnels-api';
import { expectJsonError } from '../../test/helpers';

const env = useFunnelsTestEnv();

async function addField(key: string, funnelId: number, body: { title: string; kind: string; options?: string[] }): Promise<FunnelField> {
  return ok<FunnelField>(await call(env, key, 'POST', FIELDS_API.fields(funnelId), body), 201);
}

async function setValue(key: string, personId: number, fieldId: number, value: string): Promise<void> {
  ok(await call(env, key, 'PUT', FIELDS_API.personField(personId, fieldId), { value }));
}

/** Ann (e-mail, city Moscow), Bob (city "moscow"), Cid (nothing) in Shop; Eve (e-mail) in School; Dan in another user's funnel. */
async function world() {
  const key = await user(env);
  const shop = await connectFunnel(env, key, 'Shop');
  const school = await connectFunnel(env, key, 'School');
  const email = await addField(key, shop.id, { title: 'E-mail', kind: 'email' });
  const city = await addField(key, shop.id, { title: 'City', kind: 'text' });
  const schoolEmail = await addField(key, school.id, { title: 'E-mail', kind: 'email' });
  const ann = await addPerson(env, shop.id, { firstName: 'Ann', joinedAt: new Date('2026-03-01T10:00:00Z') });
  const bob = await addPerson(env, shop.id, { firstName: 'Bob', joinedAt: new Date('2026-03-02T10:00:00Z') });
  await addPerson(env, shop.id, { firstName: 'Cid', joinedAt: new Date('2026-03-03T10:00:00Z') });
  const eve = await addPerson(env, school.id, { firstName: 'Eve', joinedAt: new Date('2026-03-04T10:00:00Z') });
  await setValue(key, ann.id, email.id, 'ann@example.com');
  await setValue(key, ann.id, city.id, 'Moscow');
  await setValue(key, bob.id, city.id, 'moscow');
  await setValue(key, eve.id, schoolEmail.id, 'eve@example.com');
  const stranger = await user(env);
  const theirs = await connectFunnel(env, stranger, 'Theirs');
  const theirField = await addField(stranger, theirs.id, { title: 'E-mail', kind: 'email' });
  const dan = await addPerson(env, theirs.id, { firstName: 'Dan' });
  await setValue(stranger, dan.id, theirField.id, 'dan@example.com');
  return { key, shop, school, email, city, schoolEmail, theirField };
}

const names = (rows: Array<{ first_name: string }>) => rows.map((r) => r.first_name).sort();

describe('fields as filters', () => {
  it('filters a funnel\'s people by a field set or equal to a value in any case, and shows their values', async () => {
    const w = await world();
    const list = async (query: string) => ok<PeoplePage>(await call(env, w.key, 'GET', `${FUNNELS_API.people(w.shop.id)}?${query}`));
    expect(names((await list(`field=${w.email.id}`)).results)).toEqual(['Ann']);
    expect(names((await list(`field=${w.city.id}`)).results)).toEqual(['Ann', 'Bob']);
    expect(names((await list(`field=${w.city.id}&field_value=MOSCOW`)).results)).toEqual(['Ann', 'Bob']);
    expect(names((await list(`field=${w.email.id}&field_value=${encodeURIComponent('Ann@Example.com')}`)).results)).toEqual(['Ann']);
    expect((await list(`field=${w.city.id}&field_value=Paris`)).count).toBe(0);
    const ann = (await list(`field=${w.email.id}`)).results[0];
    expect(ann.field_values).toEqual([
      { field_id: w.email.id, value: 'ann@example.com' },
      { field_id: w.city.id, value: 'Moscow' },
    ]);
    // Another funnel's field (the user's own or someone else's) is not one of this funnel's.
    expect(expectJsonError(await call(env, w.key, 'GET', `${FUNNELS_API.people(w.shop.id)}?field=${w.schoolEmail.id}`), 400)).toMatchObject({
      field: [`Invalid pk "${w.schoolEmail.id}" - object does not exist.`],
    });
    expect(expectJsonError(await call(env, w.key, 'GET', `${FUNNELS_API.people(w.shop.id)}?field=${w.theirField.id}`), 400)).toHaveProperty('field');
    expect(expectJsonError(await call(env, w.key, 'GET', `${FUNNELS_API.people(w.shop.id)}?field_value=x`), 400)).toHaveProperty('field');
  });

  it('filters contacts of all bots and a saved segment by a field; another user\'s field is refused', async () => {
    const w = await world();
    const contacts = async (query: string) => ok<ContactsPage>(await call(env, w.key, 'GET', `${CONTACTS_API.contacts}?${query}`));
    expect(names((await contacts(`field=${w.schoolEmail.id}`)).results)).toEqual(['Eve']);
    expect(names((await contacts(`field=${w.city.id}&field_value=moscow`)).results)).toEqual(['Ann', 'Bob']);
    const ann = (await contacts(`field=${w.email.id}`)).results[0];
    expect(ann.fields).toEqual([
      { field_id: w.email.id, title: 'E-mail', value: 'ann@example.com' },
      { field_id: w.city.id, title: 'City', value: 'Moscow' },
    ]);
    expect(expectJsonError(await call(env, w.key, 'GET', `${CONTACTS_API.contacts}?field=${w.theirField.id}`), 400)).toMatchObject({
      field: [`Invalid pk "${w.theirField.id}" - object does not exist.`],
    });
    expect(expectJsonError(await call(env, w.key, 'GET', `${CONTACTS_API.contacts}?field_value=x`), 400)).toHaveProperty('field');

    const segment = ok<ContactList>(
      await call(env, w.key, 'POST', CRM_API.lists, { name: 'Muscovites', kind: 'segment', filter: { field: w.city.id, field_value: 'MOSCOW' } }),
      201,
    );
    expect(segment.count).toBe(2);
    expect(names((await contacts(`list=${segment.id}`)).results)).toEqual(['Ann', 'Bob']);
    expect(
      expectJsonError(await call(env, w.key, 'POST', CRM_API.lists, { name: 'Theirs', kind: 'segment', filter: { field: w.theirField.id } }), 400),
    ).toHaveProperty('filter');
  });

  it('narrows a mailing audience by fields: the count and the recipients of the send agree', async () => {
    const w = await world();
    const everyone = { stages_in: [], stages_out: [], tags_in: [], tags_out: [] };
    const count = async (audience: object) => ok<{ count: number }>(await call(env, w.key, 'POST', MAILINGS_API.audience(w.shop.id), audience)).count;
    expect(await count(everyone)).toBe(3);
    expect(await count({ ...everyone, fields: [{ field_id: w.city.id }] })).toBe(2);
    expect(await count({ ...everyone, fields: [{ field_id: w.city.id, value: 'MOSCOW' }, { field_id: w.email.id }] })).toBe(1);
    expect(expectJsonError(await call(env, w.key, 'POST', MAILINGS_API.audience(w.shop.id), { ...everyone, fields: [{ field_id: w.schoolEmail.id }] }), 400)).toHaveProperty(
      'audience',
    );
    expect(expectJsonError(await call(env, w.key, 'POST', MAILINGS_API.audience(w.shop.id), { ...everyone, fields: [{ field_id: w.theirField.id }] }), 400)).toHaveProperty(
      'audience',
    );

    const audience = { ...everyone, fields: [{ field_id: w.city.id, value: 'moscow' }] };
    const mailing = ok<Mailing>(await call(env, w.key, 'POST', MAILINGS_API.mailings(w.shop.id), { title: 'Moscow', message: { text: 'Hi' }, audience }), 201);
    expect(mailing.audience.fields).toEqual([{ field_id: w.city.id, value: 'moscow' }]);
    ok(await call(env, w.key, 'POST', MAILINGS_API.send(mailing.id), {}));
    const recipients = ok<RecipientsPage>(await call(env, w.key, 'GET', MAILINGS_API.recipients(mailing.id)));
    expect(recipients.count).toBe(2);
    expect(recipients.results.map((r) => r.first_name).sort()).toEqual(['Ann', 'Bob']);
  });

  it('exports one CSV column per field of the funnels exported, titled by the field, after the fixed columns', async () => {
    const w = await world();
    const read = async (query: string) => {
      const csv = await call(env, w.key, 'GET', `${CONTACTS_API.export}?${query}&lang=en&tz=UTC`);
      expect(csv.statusCode, csv.body).toBe(200);
      return parse(csv.body.replace(/^\uFEFF/, '')) as string[][];
    };
    const shop = await read(`funnel=${w.shop.id}`);
    expect(shop[0].slice(-3)).toEqual(['Source', 'E-mail', 'City']);
    const byName = Object.fromEntries(shop.slice(1).map((row) => [row[3], row.slice(-2)]));
    expect(byName).toEqual({ Ann: ['ann@example.com', 'Moscow'], Bob: ['', 'moscow'], Cid: ['', ''] });
    // Both funnels: each funnel's "E-mail" says whose; another user's field never shows.
    const all = await read('search=');
    expect(all[0].slice(-4)).toEqual(['Source', 'E-mail (Shop)', 'City', 'E-mail (School)']);
    const eve = all.find((row) => row[3] === 'Eve');
    expect(eve?.slice(-3)).toEqual(['', '', 'eve@example.com']);
    const filtered = await read(`field=${w.city.id}&field_value=MOSCOW`);
    expect(filtered.slice(1).map((row) => row[3]).sort()).toEqual(['Ann', 'Bob']);
  });
});
