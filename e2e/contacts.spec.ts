// Contacts end to end, in Chromium against the real server and the fake Bot API: subscribers of
// two bots in one list, a search and a funnel filter, two people picked and tagged at once, and the
// filtered list downloaded as CSV and read back with a CSV parser (a Russian name with a comma).
import { readFileSync } from 'node:fs';
import { expect, test } from './support/test';
import { parse } from 'csv-parse/sync';
import { FUNNELS_API } from '../contract/funnels';
import { API } from '../contract/auth';
import { CONTACTS_API, type ContactsPage } from '../contract/contacts';
import { ROUTES } from '../contract/routes';
import { FAKE, fakeBot, signIn } from './support/builder';

test('contacts of all bots: search, filter, tag two at once, download the CSV', async ({ page, request }) => {
  test.setTimeout(120_000);
  const key = await signIn(page, request, 'contacts');
  const headers = { Authorization: `Token ${key}` };
  const made: Array<{ id: number; token: string; username: string }> = [];
  for (const name of ['Coffee', 'Books']) {
    const bot = await fakeBot(request, `e2e_ct_${name.slice(0, 2).toLowerCase()}`);
    const funnel = (await (await request.post(FUNNELS_API.funnels, { headers, data: { bot_token: bot.token, name } })).json()) as { id: number };
    const stage = (await (await request.post(FUNNELS_API.stages(funnel.id), { headers, data: { title: 'Hello' } })).json()) as { id: number };
    await request.put(FUNNELS_API.stageMessage(stage.id), { headers, data: { text: 'Hi!', media_id: null, buttons: [], next_button: null } });
    expect((await request.post(FUNNELS_API.run(funnel.id), { headers })).ok()).toBe(true);
    made.push({ id: funnel.id, token: bot.token, username: bot.username });
  }
  await request.post(FUNNELS_API.tags(made[0].id), { headers, data: { title: 'regular' } });
  const base = 8_000_000 + Math.floor(Math.random() * 1_000_000);
  const subscribers = [
    { bot: 0, from: { id: base + 1, first_name: 'Анна', last_name: 'Иванова, мл.', username: 'anna_iv' } },
    { bot: 0, from: { id: base + 2, first_name: 'Boris', last_name: 'Stone' } },
    { bot: 1, from: { id: base + 3, first_name: 'Clara', last_name: 'Reads' } },
  ];
  for (const s of subscribers) {
    const sent = await request.post(`${FAKE}/control/bots/${made[s.bot].token}/messages`, { data: { from: s.from, text: '/start' } });
    expect(sent.ok(), await sent.text()).toBe(true);
  }
  await expect.poll(async () => ((await (await request.get(CONTACTS_API.contacts, { headers })).json()) as { count: number }).count, { timeout: 15_000 }).toBe(3);

  await page.goto('/content/panel/');
  await page.getByRole('link', { name: /Contacts/ }).click();
  await expect(page.getByRole('heading', { name: 'Contacts' })).toBeVisible();
  await expect(page.getByTestId('contact-row')).toHaveCount(3);

  await page.getByTestId('contacts-search').fill('иван');
  await expect(page.getByTestId('contact-row')).toHaveCount(1);
  await expect(page.getByTestId('contact-row')).toContainText('Анна Иванова, мл.');
  await page.getByTestId('contacts-search').fill('');
  await expect(page.getByTestId('contact-row')).toHaveCount(3);

  // A funnel chosen: its people only, and they can be picked and tagged together.
  await page.getByTestId('contacts-funnel').selectOption({ label: 'Coffee' });
  await expect(page.getByTestId('contact-row')).toHaveCount(2);
  await page.getByRole('checkbox', { name: 'Pick Анна Иванова, мл.' }).check();
  await page.getByRole('checkbox', { name: 'Pick Boris Stone' }).check();
  await expect(page.getByTestId('contacts-bulk')).toContainText('2 picked');
  await page.getByTestId('bulk-tag').selectOption({ label: 'regular' });
  await page.getByTestId('bulk-add').click();
  await expect(page.getByText('Tagged 2 people')).toBeVisible();
  await expect(page.getByTestId('contact-row').filter({ hasText: 'regular' })).toHaveCount(2);

  // The CSV of this filter, read back.
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('contacts-csv').click()]);
  expect(download.suggestedFilename()).toMatch(/^contacts-\d{4}-\d{2}-\d{2}\.csv$/);
  const file = readFileSync((await download.path())!);
  expect(file.subarray(0, 3).equals(Buffer.from([0xef, 0xbb, 0xbf]))).toBe(true);
  const rows = parse(file, { bom: true, columns: true }) as Array<Record<string, string>>;
  expect(rows.map((r) => [r['First name'], r['Last name'], r.Funnel, r.Tags]).sort()).toEqual([
    ['Boris', 'Stone', 'Coffee', 'regular'],
    ['Анна', 'Иванова, мл.', 'Coffee', 'regular'],
  ]);
  // The bot is its username as it is (no '@', so no formula guard in front of it).
  expect(rows.map((r) => r.Bot)).toEqual([made[0].username, made[0].username]);
});

test.describe('in Russian, on a Moscow clock', () => {
  test.use({ locale: 'ru-RU', timezoneId: 'Europe/Moscow' });

  test('the CSV has Russian headers and Moscow times a spreadsheet reads as dates', async ({ page, request }) => {
    test.setTimeout(120_000);
    const key = await signIn(page, request, 'contacts_ru');
    const headers = { Authorization: `Token ${key}` };
    // The account says English: the file follows the app the person is looking at.
    expect((await request.patch(API.me, { headers, data: { language: 'en' } })).ok()).toBe(true);
    const bot = await fakeBot(request, 'e2e_ct_ru');
    const funnel = (await (await request.post(FUNNELS_API.funnels, { headers, data: { bot_token: bot.token, name: 'Кофе' } })).json()) as { id: number };
    const stage = (await (await request.post(FUNNELS_API.stages(funnel.id), { headers, data: { title: 'Привет' } })).json()) as { id: number };
    await request.put(FUNNELS_API.stageMessage(stage.id), { headers, data: { text: 'Hi!', media_id: null, buttons: [], next_button: null } });
    expect((await request.post(FUNNELS_API.run(funnel.id), { headers })).ok()).toBe(true);
    const from = { id: 9_000_000 + Math.floor(Math.random() * 1_000_000), first_name: 'Вера', last_name: 'Петрова' };
    const sent = await request.post(`${FAKE}/control/bots/${bot.token}/messages`, { data: { from, text: '/start' } });
    expect(sent.ok(), await sent.text()).toBe(true);
    await expect.poll(async () => ((await (await request.get(CONTACTS_API.contacts, { headers })).json()) as ContactsPage).count, { timeout: 15_000 }).toBe(1);
    const [contact] = ((await (await request.get(CONTACTS_API.contacts, { headers })).json()) as ContactsPage).results;

    await page.goto(ROUTES.contacts);
    await expect(page.getByRole('heading', { name: 'Контакты' })).toBeVisible();
    await expect(page.getByTestId('contact-row')).toHaveCount(1);
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('contacts-csv').click()]);
    const [header, row] = parse(readFileSync((await download.path())!), { bom: true }) as string[][];
    expect(header).toEqual(['ID', 'Воронка', 'Бот', 'Имя', 'Фамилия', 'Имя пользователя', 'Telegram ID', 'Этап', 'Теги', 'Заблокировал бота', 'В воронке с', 'Последняя активность', 'Источник']);
    expect(row.slice(1, 5)).toEqual(['Кофе', bot.username, 'Вера', 'Петрова']);
    // Moscow is UTC+3 all year: the moment they pressed Start, on that clock, as "YYYY-MM-DD HH:MM:SS".
    const moscow = new Date(Date.parse(contact.joined_at) + 3 * 60 * 60 * 1000).toISOString();
    expect(row[10]).toBe(`${moscow.slice(0, 10)} ${moscow.slice(11, 19)}`);
    expect(row[9]).toBe('нет');
  });
});
