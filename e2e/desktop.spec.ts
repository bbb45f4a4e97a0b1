// The desktop layout (issue 22): on a window wider than 1024 px, the contacts, a funnel's people,
// a mailing's recipients and the CRM (folders as a grid, lists and a list's people as tables) are
// tables with columns in a wider column; at phone width the same screens keep their cards. In
// English and in Russian; screenshots of each screen at both widths in the light, dark and
// Telegram themes land in .tmp/desktop-screens/ (to look at, not compared).
import { expect, test, type APIRequestContext, type Page } from './support/test';
import { API } from '../contract/auth';
import { AUTH_COOKIE } from '../contract/constants';
import { CONTACTS_API } from '../contract/contacts';
import { CRM_API } from '../contract/crm';
import { FIELDS_API } from '../contract/fields';
import { FUNNELS_API } from '../contract/funnels';
import { MAILINGS_API } from '../contract/mailings';
import { createActiveUser, loginToken, newUser, type TestUser } from './support/api';
import { FAKE, fakeBot } from './support/builder';
import { BASE_URL } from './support/env';
import { DARK_THEME, LIGHT_THEME, openAsMiniApp, signedInitData, telegramUser } from './support/telegram';

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };
const SHOTS = '.tmp/desktop-screens';
const GUESTS = 10;
const LONG_NAME = 'Maximilian Alexander Featherstonehaugh-Wolfeschlegelsteinhausen';

interface Account {
  user: TestUser;
  key: string;
  funnelId: number;
  mailingId: number;
  listId: number;
}

/** A user with a running funnel, 13 subscribers (one tagged twice, one with a very long name), three folders, a static list and a mailing sent to everyone. */
async function account(request: APIRequestContext, language: 'en' | 'ru'): Promise<Account> {
  const user = await createActiveUser(request, newUser(`desktop_${language}`));
  const key = await loginToken(request, user);
  const headers = { Authorization: `Token ${key}` };
  expect((await request.patch(API.me, { headers, data: { language } })).ok()).toBe(true);
  const bot = await fakeBot(request, 'e2e_desk');
  const funnel = (await (await request.post(FUNNELS_API.funnels, { headers, data: { bot_token: bot.token, name: 'Coffee shop' } })).json()) as { id: number };
  const stage = (await (await request.post(FUNNELS_API.stages(funnel.id), { headers, data: { title: 'Welcome' } })).json()) as { id: number };
  await request.put(FUNNELS_API.stageMessage(stage.id), { headers, data: { text: 'Hi!', media_id: null, buttons: [], next_button: null } });
  expect((await request.post(FUNNELS_API.run(funnel.id), { headers })).ok()).toBe(true);
  const base = 6_000_000 + Math.floor(Math.random() * 1_000_000) * 10;
  const subscribers = [
    { id: base + 1, first_name: 'Анна', last_name: 'Иванова', username: 'anna_iv' },
    { id: base + 2, first_name: 'Boris', last_name: 'Stone' },
    { id: base + 3, first_name: LONG_NAME, last_name: '', username: 'max_long_name_for_a_table' },
    // Enough rows for the table to scroll under its header.
    ...Array.from({ length: GUESTS }, (_, i) => ({ id: base + 4 + i, first_name: 'Guest', last_name: String(i + 1) })),
  ];
  for (const from of subscribers) {
    const sent = await request.post(`${FAKE}/control/bots/${bot.token}/messages`, { data: { from, text: '/start' } });
    expect(sent.ok(), await sent.text()).toBe(true);
  }
  let people: Array<{ id: number }> = [];
  await expect
    .poll(
      async () => {
        people = ((await (await request.get(CONTACTS_API.contacts, { headers })).json()) as { results: typeof people }).results;
        return people.length;
      },
      { timeout: 30_000 },
    )
    .toBe(subscribers.length);
  for (const title of ['regular', 'coffee lover']) {
    const tag = (await (await request.post(FUNNELS_API.tags(funnel.id), { headers, data: { title } })).json()) as { id: number };
    expect((await request.post(CONTACTS_API.tags, { headers, data: { person_ids: [people[0].id], tag_id: tag.id, action: 'add' } })).ok()).toBe(true);
  }
  const folderIds: number[] = [];
  for (const name of ['Cafés of the old town', 'Bookshop', 'Winter promo']) {
    folderIds.push(((await (await request.post(CRM_API.folders, { headers, data: { name } })).json()) as { id: number }).id);
  }
  const list = await request.post(CRM_API.lists, { headers, data: { name: 'Regulars', kind: 'static', folder_id: folderIds[0], person_ids: people.map((p) => p.id) } });
  expect(list.status(), await list.text()).toBe(201);
  const mailing = await request.post(MAILINGS_API.mailings(funnel.id), { headers, data: { title: 'Autumn menu', message: { text: 'Our autumn menu is here' } } });
  expect(mailing.status(), await mailing.text()).toBe(201);
  const mailingId = ((await mailing.json()) as { id: number }).id;
  expect((await request.post(MAILINGS_API.send(mailingId), { headers, data: {} })).ok()).toBe(true);
  await expect
    .poll(async () => ((await (await request.get(`${MAILINGS_API.recipients(mailingId)}?state=sent`, { headers })).json()) as { count: number }).count, { timeout: 30_000 })
    .toBe(subscribers.length);
  return { user, key, funnelId: funnel.id, mailingId, listId: ((await list.json()) as { id: number }).id };
}

interface TableScreen {
  name: string;
  path: string;
  /** The table's accessible name and its column headers, in the user's language. */
  table: string;
  columns: string[];
  /** The phone layout's rows. */
  cards: string;
}

function screensOf(a: Account, language: 'en' | 'ru'): TableScreen[] {
  const en = language === 'en';
  const contactColumns = en ? ['Name', 'Funnel (bot)', 'Stage', 'Tags', 'Joined', 'Last activity', 'Blocked'] : ['Имя', 'Воронка (бот)', 'Этап', 'Теги', 'Пришёл', 'Был активен', 'Блокировка'];
  return [
    { name: 'contacts', path: '/content/contacts/', table: en ? 'Contacts' : 'Контакты', columns: contactColumns, cards: 'contact-row' },
    {
      name: 'people',
      path: `/content/funnels/${a.funnelId}/people/`,
      table: en ? 'People' : 'Люди',
      columns: en ? ['Name', 'Stage', 'Tags', 'Joined', 'Last message'] : ['Имя', 'Этап', 'Теги', 'Пришёл', 'Последнее сообщение'],
      cards: 'person-row',
    },
    {
      name: 'recipients',
      path: `/content/funnels/${a.funnelId}/mailings/${a.mailingId}/`,
      table: en ? 'Recipients' : 'Получатели',
      columns: en ? ['Recipient', 'State', 'When', 'Error'] : ['Получатель', 'Статус', 'Когда', 'Ошибка'],
      cards: 'recipient-row',
    },
    { name: 'crm-folders', path: '/content/folders/', table: en ? 'Lists' : 'Списки', columns: en ? ['List', 'Kind', 'People', 'Folder'] : ['Список', 'Вид', 'Людей', 'Папка'], cards: 'list-row' },
    { name: 'crm-list-people', path: `/content/contacts/?list=${a.listId}`, table: en ? 'Contacts' : 'Контакты', columns: contactColumns, cards: 'contact-row' },
  ];
}

async function signInWithCookie(page: Page, key: string) {
  await page.context().addCookies([{ name: AUTH_COOKIE, value: key, url: BASE_URL }]);
}

/** A screenshot of the screen once it shows its layout: a table on a desktop, none on a phone. */
async function shoot(page: Page, name: string, width: number) {
  await expect(page.getByRole('status', { name: /Loading|Загрузка/ })).toHaveCount(0);
  if (width > 1024) await expect(page.getByRole('table'), name).toBeVisible();
  else await expect(page.getByRole('table'), name).toHaveCount(0);
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

for (const language of ['en', 'ru'] as const) {
  test.describe(`in ${language === 'en' ? 'English' : 'Russian'}`, () => {
    test.use({ locale: language === 'en' ? 'en-US' : 'ru-RU', isMobile: false, hasTouch: false, deviceScaleFactor: 1 });

    test(`at 1280 × 800 the contacts, people, recipients and CRM are wide tables; at 390 × 844 the same screens are cards (${language})`, async ({ page, request }) => {
      test.setTimeout(180_000);
      const a = await account(request, language);
      await signInWithCookie(page, a.key);

      await page.setViewportSize(DESKTOP);
      for (const screen of screensOf(a, language)) {
        await page.goto(screen.path);
        const table = page.getByRole('table', { name: screen.table, exact: true });
        await expect(table, screen.name).toBeVisible();
        for (const column of screen.columns) await expect(table.getByRole('columnheader', { name: column, exact: true }), `${screen.name}: ${column}`).toBeVisible();
        expect((await table.boundingBox())!.width, `${screen.name} is a wide table`).toBeGreaterThan(900);
        await expect(table.getByTestId(screen.cards).first()).toBeVisible();
        // Nothing wider than the window.
        expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
      }

      // The folders are a grid: two cards side by side.
      await page.goto('/content/folders/');
      const cards = page.getByTestId('folder-card');
      await expect(cards).toHaveCount(3);
      const [first, second] = [(await cards.nth(0).boundingBox())!, (await cards.nth(1).boundingBox())!];
      expect(second.y).toBe(first.y);
      expect(second.x).toBeGreaterThan(first.x + first.width);

      // A long name is cut with an ellipsis inside its cell, not pushing the table wider.
      await page.goto('/content/contacts/');
      const longName = page.getByRole('link', { name: LONG_NAME });
      const cut = await longName.evaluate((link) => ({ scroll: link.scrollWidth, client: link.clientWidth, ellipsis: getComputedStyle(link).textOverflow }));
      expect(cut.ellipsis).toBe('ellipsis');
      expect(cut.scroll).toBeGreaterThan(cut.client);

      // The header stays in view while the rows scroll under it.
      await page.setViewportSize({ width: DESKTOP.width, height: 420 });
      const header = page.getByRole('columnheader', { name: language === 'en' ? 'Stage' : 'Этап', exact: true });
      const tableTop = (await page.getByRole('table').boundingBox())!.y;
      await page.evaluate((by) => window.scrollBy(0, by), tableTop + 60);
      await expect.poll(async () => Math.round((await header.boundingBox())!.y)).toBe(0);
      await page.setViewportSize(DESKTOP);

      // Picking for tagging works in the table: two by hand, then the whole page from the header.
      const pick = (name: string) => page.getByRole('checkbox', { name: language === 'en' ? `Pick ${name}` : `Выбрать: ${name}`, exact: true });
      await pick('Boris Stone').check();
      await pick('Анна Иванова').check();
      await expect(page.getByTestId('contacts-bulk')).toContainText(language === 'en' ? '2 picked' : '2');
      await page.getByTestId('contacts-pick-all').check();
      await expect(page.getByTestId('contacts-bulk')).toContainText(language === 'en' ? `${3 + GUESTS} picked` : `${3 + GUESTS}`);
      await page.getByTestId('contacts-pick-all').uncheck();
      await expect(page.getByTestId('contacts-bulk')).toHaveCount(0);

      // A row opens its person: a click anywhere on it (here its stage cell), or Enter on its name.
      await page.getByTestId('contact-row').filter({ hasText: 'Boris' }).getByText('Welcome').click();
      await expect(page.getByRole('heading', { name: 'Boris Stone' })).toBeVisible();
      await page.goBack();
      await page.getByRole('link', { name: 'Анна Иванова' }).focus();
      await page.keyboard.press('Enter');
      await expect(page.getByRole('heading', { name: 'Анна Иванова' })).toBeVisible();

      // The mailing's screen and the other screens stay the phone's column.
      await page.goto(`/content/funnels/${a.funnelId}/`);
      await expect(page.getByRole('heading', { name: 'Coffee shop' })).toBeVisible();
      expect((await page.locator('main').boundingBox())!.width).toBeLessThanOrEqual(480);

      await page.setViewportSize(PHONE);
      for (const screen of screensOf(a, language)) {
        await page.goto(screen.path);
        await expect(page.getByTestId(screen.cards).first(), screen.name).toBeVisible();
        await expect(page.getByRole('table'), `${screen.name} has no table on a phone`).toHaveCount(0);
      }
    });

    test(`in the light, dark and Telegram themes the screens are tables at 1280 and cards at 390 (screenshots) (${language})`, async ({ page, request }) => {
      test.setTimeout(240_000);
      const a = await account(request, language);
      await signInWithCookie(page, a.key);
      for (const scheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: scheme });
        for (const [width, viewport] of [[1280, DESKTOP] as const, [390, PHONE] as const]) {
          await page.setViewportSize(viewport);
          for (const screen of screensOf(a, language)) {
            await page.goto(screen.path);
            await expect(page.getByTestId(screen.cards).first()).toBeVisible();
            await shoot(page, `${language}-${scheme}-${width}-${screen.name}`, width);
          }
        }
      }

      // Inside Telegram: this Telegram user is linked to the account (as "I already have an
      // account" does it on a first open), so the Mini App opens the account's data.
      await page.context().clearCookies();
      const initData = signedInitData({ ...telegramUser(), language_code: language });
      const linked = await request.post(API.telegramAttach, { headers: { Authorization: `Token ${a.key}` }, data: { init_data: initData } });
      expect(linked.ok(), await linked.text()).toBe(true);
      for (const [themeName, theme] of [['telegram-dark', DARK_THEME] as const, ['telegram-light', LIGHT_THEME] as const]) {
        for (const [width, viewport] of [[1280, DESKTOP] as const, [390, PHONE] as const]) {
          await page.setViewportSize(viewport);
          for (const screen of screensOf(a, language)) {
            await openAsMiniApp(page, screen.path, initData, theme);
            await expect(page.getByTestId(screen.cards).first()).toBeVisible();
            await shoot(page, `${language}-${themeName}-${width}-${screen.name}`, width);
          }
        }
      }
    });
  });
}

test.describe('contacts of one funnel with fields, at 1280 × 800', () => {
  test.use({ locale: 'ru-RU', isMobile: false, hasTouch: false, deviceScaleFactor: 1 });

  test('its three field columns leave the tags and dates room: nothing cut, the funnel column (the same in every row) gone', async ({ page, request }) => {
    test.setTimeout(120_000);
    const a = await account(request, 'ru');
    const headers = { Authorization: `Token ${a.key}` };
    for (const [key, title] of [['email', 'Электронная почта'], ['city', 'Город'], ['course', 'Курс']]) {
      const made = await request.post(FIELDS_API.fields(a.funnelId), { headers, data: { key, title, kind: 'text' } });
      expect(made.status(), await made.text()).toBe(201);
    }
    await signInWithCookie(page, a.key);
    await page.setViewportSize(DESKTOP);
    await page.goto(`/content/contacts/?funnel=${a.funnelId}`);
    const table = page.getByRole('table', { name: 'Контакты', exact: true });
    await expect(table.getByRole('columnheader', { name: 'Город', exact: true })).toBeVisible();
    await expect(table.getByRole('columnheader', { name: 'Воронка (бот)', exact: true })).toHaveCount(0);
    // The tags of Анна ("regular", "coffee lover") get a column of their own, not a sliver.
    const tags = table.getByRole('columnheader', { name: 'Теги', exact: true });
    expect((await tags.boundingBox())!.width).toBeGreaterThan(110);
    // The day each joined is whole (it was "27.11.2…").
    const joined = table.getByTestId('contact-row').first().getByRole('cell').nth(-3);
    const cut = await joined.evaluate((cell) => [...cell.querySelectorAll('*')].some((el) => el.scrollWidth > el.clientWidth));
    expect(cut).toBe(false);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
  });
});
