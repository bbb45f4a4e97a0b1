// Contacts through the API: everyone of all the user's bots in one list, each filter and the
// search, tagging many at once (only the tag's funnel's people change), the CSV export read back
// with a real CSV parser (a Russian name and a comma survive, the BOM is there), and ownership:
// another user's people never show, whatever the filter.
import { parse } from 'csv-parse/sync';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { API as AUTH_API } from '../../../contract/auth';
import { CONTACTS_API, type BulkTagResult, type ContactsPage } from '../../../contract/contacts';
import { FUNNELS_API } from '../../../contract/funnels';
import { people } from '../../db/schema';
import { addPerson, addStage, addTag, call, connectFunnel, ok, user, useFunnelsTestEnv } from '../../test/funnels-api';
import { expectJsonError } from '../../test/helpers';

const env = useFunnelsTestEnv();
const names = (page: ContactsPage) => page.results.map((c) => c.first_name).sort();

async function world() {
  const key = await user(env);
  const shop = await connectFunnel(env, key, 'Shop');
  const school = await connectFunnel(env, key, 'School');
  const stage = await addStage(env, key, shop.id, { title: 'Welcome' });
  const vip = await addTag(env, key, shop.id, 'vip');
  const ann = await addPerson(env, shop.id, { firstName: 'Анна', lastName: 'Иванова, мл.', username: 'anna_i', stageId: stage.id, joinedAt: new Date('2026-03-01T10:00:00Z') });
  const bob = await addPerson(env, shop.id, { firstName: 'Bob', lastName: 'Stone', blocked: true, joinedAt: new Date('2026-03-05T10:00:00Z') });
  const cid = await addPerson(env, school.id, { firstName: 'Cid', lastName: '=cmd()', username: 'cid', joinedAt: new Date('2026-03-10T10:00:00Z') });
  const stranger = await user(env);
  const theirs = await connectFunnel(env, stranger, 'Theirs');
  const theirTag = await addTag(env, stranger, theirs.id, 'vip');
  const dan = await addPerson(env, theirs.id, { firstName: 'Dan' });
  return { key, shop, school, stage, vip, ann, bob, cid, stranger, theirs, theirTag, dan };
}

describe('contacts', () => {
  it('lists the people of all the user\'s bots, newest first, with each filter and the search', async () => {
    const w = await world();
    const all = ok<ContactsPage>(await call(env, w.key, 'GET', CONTACTS_API.contacts));
    expect(all.count).toBe(3);
    expect(all.results.map((c) => c.first_name)).toEqual(['Cid', 'Bob', 'Анна']);
    expect(all.results[2]).toMatchObject({ funnel_name: 'Shop', stage_title: 'Welcome', username: 'anna_i', blocked: false, tags: [] });

    const q = async (query: string) => names(ok<ContactsPage>(await call(env, w.key, 'GET', `${CONTACTS_API.contacts}?${query}`)));
    expect(await q(`funnel=${w.school.id}`)).toEqual(['Cid']);
    expect(await q(`stage=${w.stage.id}`)).toEqual(['Анна']);
    expect(await q('stage=none')).toEqual(['Bob', 'Cid']);
    expect(await q('blocked=true')).toEqual(['Bob']);
    expect(await q('joined_from=2026-03-05&joined_to=2026-03-09')).toEqual(['Bob']);
    expect(await q(`search=${encodeURIComponent('аННа')}`)).toEqual(['Анна']);
    expect(await q('search=%40cid')).toEqual(['Cid']);
    expect(await q('search=%25')).toEqual([]); // LIKE's characters are literal
    // Someone else's funnel or tag finds nobody, never their people.
    expect(await q(`funnel=${w.theirs.id}`)).toEqual([]);
    expect(await q(`tag=${w.theirTag.id}`)).toEqual([]);
    const page = ok<ContactsPage>(await call(env, w.key, 'GET', `${CONTACTS_API.contacts}?limit=1&offset=1`));
    expect(page).toMatchObject({ count: 3, results: [{ first_name: 'Bob' }] });

    expect(expectJsonError(await call(env, w.key, 'GET', `${CONTACTS_API.contacts}?joined_from=March`), 400)).toMatchObject({ joined_from: ['Enter a valid date: YYYY-MM-DD.'] });
    expect(expectJsonError(await call(env, w.key, 'GET', `${CONTACTS_API.contacts}?blocked=maybe`), 400)).toHaveProperty('blocked');
  });

  it('tags and untags many at once: only the tag\'s funnel\'s people of this user change', async () => {
    const w = await world();
    const ids = [w.ann.id, w.bob.id, w.cid.id, w.dan.id];
    expect(ok<BulkTagResult>(await call(env, w.key, 'POST', CONTACTS_API.tags, { person_ids: ids, tag_id: w.vip.id, action: 'add' }))).toEqual({ changed: 2, unchanged: 2 });
    expect(names(ok<ContactsPage>(await call(env, w.key, 'GET', `${CONTACTS_API.contacts}?tag=${w.vip.id}`)))).toEqual(['Bob', 'Анна']);
    expect(ok<BulkTagResult>(await call(env, w.key, 'POST', CONTACTS_API.tags, { person_ids: ids, tag_id: w.vip.id, action: 'add' }))).toEqual({ changed: 0, unchanged: 4 });
    expect(ok<BulkTagResult>(await call(env, w.key, 'POST', CONTACTS_API.tags, { person_ids: [w.bob.id], tag_id: w.vip.id, action: 'remove' }))).toEqual({ changed: 1, unchanged: 0 });
    // Someone else's tag is refused; their person cannot be tagged with it by this user either.
    expect(expectJsonError(await call(env, w.key, 'POST', CONTACTS_API.tags, { person_ids: [w.dan.id], tag_id: w.theirTag.id, action: 'add' }), 400)).toMatchObject({
      tag_id: [`Invalid pk "${w.theirTag.id}" - object does not exist.`],
    });
    expect(expectJsonError(await call(env, w.key, 'POST', CONTACTS_API.tags, { person_ids: [], tag_id: w.vip.id, action: 'add' }), 400)).toHaveProperty('person_ids');
  });

  it('exports the filtered list as CSV with a BOM; a Russian name, a comma and a formula survive a CSV parser', async () => {
    const w = await world();
    await env.t.db.orm.update(people).set({ lastName: 'Иванова, мл.' }).where(eq(people.id, w.ann.id));
    const res = await call(env, w.key, 'GET', `${CONTACTS_API.export}?funnel=${w.shop.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="contacts-\d{4}-\d{2}-\d{2}\.csv"$/);
    expect(res.rawPayload.subarray(0, 3).equals(Buffer.from([0xef, 0xbb, 0xbf]))).toBe(true);
    const rows = parse(res.rawPayload, { bom: true, columns: true }) as Array<Record<string, string>>;
    expect(rows.map((r) => [r['First name'], r['Last name'], r.Funnel, r.Stage, r['Blocked the bot']])).toEqual([
      ['Bob', 'Stone', 'Shop', '', 'yes'],
      ['Анна', 'Иванова, мл.', 'Shop', 'Welcome', 'no'],
    ]);
    const school = parse((await call(env, w.key, 'GET', `${CONTACTS_API.export}?funnel=${w.school.id}`)).rawPayload, { bom: true, columns: true }) as Array<Record<string, string>>;
    expect(school[0]['Last name']).toBe("'=cmd()"); // never a formula in a spreadsheet
    // The bot is its username as it is: nothing a spreadsheet would run, so no guard in front.
    expect(w.school.bot_username).toBeTruthy();
    expect(school[0].Bot).toBe(w.school.bot_username);
    // Another user's export has only their own people.
    const theirs = parse((await call(env, w.stranger, 'GET', CONTACTS_API.export)).rawPayload, { bom: true, columns: true }) as Array<Record<string, string>>;
    expect(theirs.map((r) => r['First name'])).toEqual(['Dan']);
  });

  it('writes the CSV for its reader: headers in their language, times in their zone as a spreadsheet date, the bot bare, typed formulas guarded', async () => {
    const w = await world();
    const read = async (key: string, query: string): Promise<string[][]> => {
      const res = await call(env, key, 'GET', `${CONTACTS_API.export}?${query}`);
      expect(res.statusCode, res.body).toBe(200);
      return parse(res.rawPayload, { bom: true }) as string[][];
    };
    const ru = await read(w.key, `funnel=${w.school.id}&lang=ru&tz=Europe%2FMoscow`);
    expect(ru[0]).toEqual(['ID', 'Воронка', 'Бот', 'Имя', 'Фамилия', 'Имя пользователя', 'Telegram ID', 'Этап', 'Теги', 'Заблокировал бота', 'В воронке с', 'Последняя активность', 'Источник']);
    // Cid joined at 10:00 UTC: 13:00 in Moscow, written the way a spreadsheet reads a date and time.
    const [cid] = ru.slice(1);
    expect(cid[10]).toBe('2026-03-10 13:00:00');
    expect(cid[11]).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(cid[9]).toBe('нет');
    // The bot's username as it is, no apostrophe or "@" in front; a last name typed as a formula keeps its guard.
    expect(cid[2]).toBe(w.school.bot_username);
    expect(cid[2]).toMatch(/^[A-Za-z]\w+$/);
    expect(cid[4]).toBe("'=cmd()");

    const en = await read(w.key, `funnel=${w.school.id}&lang=en&tz=America%2FNew_York`);
    expect(en[0]).toEqual(['ID', 'Funnel', 'Bot', 'First name', 'Last name', 'Username', 'Telegram ID', 'Stage', 'Tags', 'Blocked the bot', 'Joined', 'Last seen', 'Source']);
    expect(en[1][10]).toBe('2026-03-10 06:00:00'); // New York, after its clocks went forward on 8 March
    expect(en[1][9]).toBe('no');

    // Without them: the account's language and UTC.
    expect(ok(await call(env, w.key, 'PATCH', AUTH_API.me, { language: 'ru' })).language).toBe('ru');
    const byAccount = await read(w.key, `funnel=${w.school.id}`);
    expect(byAccount[0][1]).toBe('Воронка');
    expect(byAccount[1][10]).toBe('2026-03-10 10:00:00');

    // An unknown zone or language is refused, naming the field, before the first byte.
    expect(expectJsonError(await call(env, w.key, 'GET', `${CONTACTS_API.export}?tz=Mars%2FOlympus`), 400)).toMatchObject({ tz: ['Unknown time zone.'] });
    expect(expectJsonError(await call(env, w.key, 'GET', `${CONTACTS_API.export}?lang=de`), 400)).toHaveProperty('lang');
  });

  it('refuses a day that does not exist and a NUL in the search with a 400 naming the field, the CSV export before its first byte', async () => {
    const w = await world();
    for (const day of ['2024-02-30', '2023-02-29', '2024-13-45', '0000-01-01']) {
      for (const field of ['joined_from', 'joined_to']) {
        expect(expectJsonError(await call(env, w.key, 'GET', `${CONTACTS_API.contacts}?${field}=${day}`), 400)).toMatchObject({ [field]: ['Enter a valid date: YYYY-MM-DD.'] });
        const csv = await call(env, w.key, 'GET', `${CONTACTS_API.export}?${field}=${day}`);
        expect(csv.headers['content-type']).toMatch(/^application\/json/);
        expect(expectJsonError(csv, 400)).toMatchObject({ [field]: ['Enter a valid date: YYYY-MM-DD.'] });
      }
    }
    expect(expectJsonError(await call(env, w.key, 'GET', `${CONTACTS_API.contacts}?search=a%00b`), 400)).toMatchObject({ search: ['Null characters are not allowed.'] });
    expect(expectJsonError(await call(env, w.key, 'GET', `${CONTACTS_API.export}?search=a%00b`), 400)).toMatchObject({ search: ['Null characters are not allowed.'] });
    expect(expectJsonError(await call(env, w.key, 'GET', `${FUNNELS_API.people(w.shop.id)}?search=a%00b`), 400)).toMatchObject({ search: ['Null characters are not allowed.'] });
    // A leap day is a day: found as before.
    expect(ok<ContactsPage>(await call(env, w.key, 'GET', `${CONTACTS_API.contacts}?joined_from=2024-02-29`)).count).toBe(3);
  });

  it('streams a long export in pages without losing or repeating anyone', async () => {
    const key = await user(env);
    const funnel = await connectFunnel(env, key, 'Big');
    const base = Date.parse('2026-01-01T00:00:00Z');
    await env.t.db.orm.insert(people).values(
      Array.from({ length: 2500 }, (_, i) => ({ funnelId: funnel.id, telegramId: 90_000_000 + i, firstName: `P${i}`, joinedAt: new Date(base + Math.floor(i / 3) * 1000) })),
    );
    const rows = parse((await call(env, key, 'GET', CONTACTS_API.export)).rawPayload, { bom: true, columns: true }) as Array<Record<string, string>>;
    expect(rows).toHaveLength(2500);
    expect(new Set(rows.map((r) => r.ID)).size).toBe(2500);
  });

  it('loses nobody at a page\'s edge when people joined within the same millisecond', async () => {
    const key = await user(env);
    const funnel = await connectFunnel(env, key, 'Busy');
    // 2002 people three microseconds apart: the first page ends inside a millisecond that still has people after it.
    await env.t.db.query(
      `insert into people (funnel_id, telegram_id, first_name, joined_at)
       select $1::int, 91000000 + i, 'Q' || i, timestamptz '2026-01-01 00:00:00+00' + make_interval(secs => i * 0.000003)
         from generate_series(0, 2001) as i`,
      [funnel.id],
    );
    const rows = parse((await call(env, key, 'GET', CONTACTS_API.export)).rawPayload, { bom: true, columns: true }) as Array<Record<string, string>>;
    expect(rows).toHaveLength(2002);
    expect(new Set(rows.map((r) => r.ID)).size).toBe(2002);
  });
});
