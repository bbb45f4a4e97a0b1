// A segment's filter with a day that does not exist: refused when saved (nothing stored), and
// repaired by migration 0016 where one was stored before the contract checked days, so the
// owner's lists load again.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CRM_API, type ContactList } from '../../../contract/crm';
import { addPerson, call, connectFunnel, ok, useFunnelsTestEnv } from '../../test/funnels-api';
import { expectJsonError, signedInUser } from '../../test/helpers';

const env = useFunnelsTestEnv();
const REPAIR_SQL = readFileSync(new URL('../../db/migrations/0016_repair_list_filter_dates.sql', import.meta.url), 'utf8');
const IMPOSSIBLE_DAYS = ['2024-02-30', '2023-02-29', '2024-13-45', '0000-01-01'];

describe('a segment filtered by a day that does not exist', () => {
  it('is refused when saved or changed, and nothing is stored', async () => {
    const { key } = await signedInUser(env.t);
    const good = ok<ContactList>(await call(env, key, 'POST', CRM_API.lists, { name: 'March', kind: 'segment', filter: { joined_from: '2024-03-01' } }), 201);
    for (const day of IMPOSSIBLE_DAYS) {
      for (const field of ['joined_from', 'joined_to']) {
        const created = await call(env, key, 'POST', CRM_API.lists, { name: 'Bad', kind: 'segment', filter: { [field]: day } });
        expect(expectJsonError(created, 400)).toHaveProperty('filter');
        const changed = await call(env, key, 'PATCH', CRM_API.list(good.id), { filter: { [field]: day } });
        expect(expectJsonError(changed, 400)).toHaveProperty('filter');
      }
    }
    const search = await call(env, key, 'POST', CRM_API.lists, { name: 'Nul', kind: 'segment', filter: { search: 'a\u0000b' } });
    expect(expectJsonError(search, 400)).toMatchObject({ filter: ['Null characters are not allowed.'] });
    const lists = ok<ContactList[]>(await call(env, key, 'GET', CRM_API.lists));
    expect(lists.map((l) => [l.name, l.filter])).toEqual([['March', { joined_from: '2024-03-01' }]]);
  });

  it('stored before the check, is repaired by migration 0016: the bad bound goes, the rest stays, the lists load', async () => {
    const account = await signedInUser(env.t);
    const funnel = await connectFunnel(env, account.key);
    await addPerson(env, funnel.id, { firstName: 'Early', joinedAt: new Date('2024-02-20T10:00:00Z') });
    await addPerson(env, funnel.id, { firstName: 'Late', joinedAt: new Date('2024-03-20T10:00:00Z') });
    const insert = (name: string, filter: Record<string, unknown>) =>
      env.t.db.query(`insert into contact_lists (owner_id, name, kind, filter) values ($1, $2, 'segment', $3::jsonb)`, [account.id, name, JSON.stringify(filter)]);
    await insert('a broken start', { joined_from: '2024-02-30', search: 'a' });
    await insert('both broken', { joined_from: '0000-01-01', joined_to: '2023-02-29' });
    await insert('broken end, good start', { joined_from: '2024-03-01', joined_to: '2024-13-45' });
    await insert('a leap day', { joined_to: '2024-02-29' });
    await env.t.db.query(REPAIR_SQL);
    const lists = ok<ContactList[]>(await call(env, account.key, 'GET', CRM_API.lists));
    const byName = Object.fromEntries(lists.map((l) => [l.name, [l.filter, l.count]]));
    expect(byName).toEqual({
      'a broken start': [{ search: 'a' }, 2],
      'both broken': [{}, 2],
      'broken end, good start': [{ joined_from: '2024-03-01' }, 1],
      'a leap day': [{ joined_to: '2024-02-29' }, 1],
    });
    // Running it again changes nothing.
    await env.t.db.query(REPAIR_SQL);
    expect(ok<ContactList[]>(await call(env, account.key, 'GET', CRM_API.lists))).toEqual(lists);
  });
});
