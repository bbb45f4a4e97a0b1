// The message editor's link box (select text → Link): the address field takes the free width and
// shows a typical address whole, and "Add" and "Cancel" (or "Remove link") stay inside the editor,
// at a phone's width and a desktop's, in English and in Russian (longer labels), in the light and
// dark themes and inside Telegram (its dark and light themes).
// The screenshots land in test-results/screens/link-box-*.png.
import { readFileSync } from 'node:fs';
import { expect, test, type APIRequestContext, type Locator, type Page } from './support/test';
import { LANGUAGE_COOKIE, type Language } from '../contract/constants';
import { FUNNELS_API } from '../contract/funnels';
import { fakeBot, signIn } from './support/builder';
import { BASE_URL } from './support/env';
import { DARK_THEME, LIGHT_THEME, openAsMiniApp, signedInitData, startAsTelegramUser, telegramUser } from './support/telegram';

/** The narrowest an address field may get: room for "https://example.com/…" to be read. */
const MIN_ADDRESS_WIDTH = 150;

interface LinkBoxLabels {
  text: string;
  link: string;
  address: string;
  add: string;
  cancel: string;
  unlink: string;
}

function labelsOf(language: Language): LinkBoxLabels {
  const messages = JSON.parse(readFileSync(new URL(`../locales/${language}.json`, import.meta.url), 'utf8')) as {
    funnels: { message: { text: string; link: string; linkUrl: string; linkInsert: string }; common: { cancel: string } };
    editor: { unlink: string };
  };
  const { message, common } = messages.funnels;
  return { text: message.text, link: message.link, address: message.linkUrl, add: message.linkInsert, cancel: common.cancel, unlink: messages.editor.unlink };
}

/** A funnel with one stage; returns the address of the stage's message editor. */
async function seedStage(request: APIRequestContext, headers: Record<string, string>): Promise<string> {
  const bot = await fakeBot(request, 'linkbox');
  const created = await request.post(FUNNELS_API.funnels, { headers, data: { bot_token: bot.token } });
  expect(created.status(), await created.text()).toBe(201);
  const funnel = (await created.json()) as { id: number };
  const stage = await request.post(FUNNELS_API.stages(funnel.id), { headers, data: { title: 'Welcome' } });
  expect(stage.status(), await stage.text()).toBe(201);
  return `/content/funnels/${funnel.id}/stages/${((await stage.json()) as { id: number }).id}/message/`;
}

async function boxOf(locator: Locator) {
  const box = await locator.boundingBox();
  expect(box, 'the element is on screen').not.toBeNull();
  return box!;
}

/** An address as users paste them: the field shows it whole, not its last part only. */
const ADDRESS = 'https://example.com/menu';

/**
 * The field is wide enough and shows the whole address, and every given button lies wholly
 * inside the editor's frame.
 */
async function expectFits(page: Page, labels: LinkBoxLabels, buttons: string[], what: string) {
  const editor = page.locator('.editor');
  const frame = await boxOf(editor);
  const address = await boxOf(editor.getByRole('textbox', { name: labels.address }));
  // On a wide editor the address takes most of the row, on a phone's at least MIN_ADDRESS_WIDTH.
  const wanted = frame.width >= 600 ? frame.width / 2 : MIN_ADDRESS_WIDTH;
  expect(address.width, `${what}: the address field's width`).toBeGreaterThanOrEqual(wanted);
  const hidden = await editor.getByRole('textbox', { name: labels.address }).evaluate((input) => input.scrollWidth - input.clientWidth);
  expect(hidden, `${what}: pixels of the address scrolled out of its field`).toBeLessThanOrEqual(0);
  const parts: Array<[string, Locator]> = [
    [labels.address, editor.getByRole('textbox', { name: labels.address })],
    ...buttons.map((name): [string, Locator] => [name, editor.getByRole('button', { name, exact: true })]),
  ];
  for (const [name, part] of parts) {
    const box = await boxOf(part);
    expect(box.x, `${what}: "${name}" starts inside the editor`).toBeGreaterThanOrEqual(frame.x - 0.5);
    expect(box.x + box.width, `${what}: "${name}" ends inside the editor`).toBeLessThanOrEqual(frame.x + frame.width + 0.5);
  }
  // Nothing of the page sticks out sideways either.
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow, `${what}: the page is wider than the window`).toBeLessThanOrEqual(0);
}

/**
 * Types a word, selects it, opens the link box and checks it; adds the link; opens the box again
 * on the linked word (now "Remove link" instead of "Cancel") and checks it once more.
 */
async function checkLinkBox(page: Page, labels: LinkBoxLabels, shot: string) {
  const editor = page.locator('.editor');
  const text = editor.getByRole('textbox', { name: labels.text, exact: true });
  await text.click();
  await page.keyboard.type('Our menu');
  await page.keyboard.press('Shift+Home');
  await editor.getByRole('button', { name: labels.link, exact: true }).click();
  await expect(editor.getByRole('textbox', { name: labels.address })).toBeFocused();
  await editor.getByRole('textbox', { name: labels.address }).fill(ADDRESS);
  await expectFits(page, labels, [labels.add, labels.cancel], `${shot}, new link`);
  await page.screenshot({ path: `test-results/screens/link-box-${shot}.png` });

  await editor.getByRole('button', { name: labels.add, exact: true }).click();
  await expect(text.getByRole('link', { name: 'Our menu' })).toHaveAttribute('href', ADDRESS);
  await text.getByRole('link', { name: 'Our menu' }).click();
  await editor.getByRole('button', { name: labels.link, exact: true }).click();
  await expect(editor.getByRole('textbox', { name: labels.address })).toHaveValue(ADDRESS);
  await expectFits(page, labels, [labels.add, labels.unlink], `${shot}, existing link`);
  await page.screenshot({ path: `test-results/screens/link-box-${shot}-edit.png` });
}

const widths = [
  { name: 'phone', use: { viewport: { width: 390, height: 844 } } },
  { name: 'desktop', use: { viewport: { width: 1280, height: 800 }, isMobile: false, hasTouch: false, deviceScaleFactor: 1 } },
] as const;

for (const width of widths) {
  test.describe(`at ${width.name} width`, () => {
    test.use(width.use);
    for (const language of ['en', 'ru'] as const) {
      test(`the link box fits the editor (${language}), light, dark and inside Telegram`, async ({ page, request }) => {
        const labels = labelsOf(language);
        // Each visit leaves the message unsaved: leaving it is confirmed ("Leave the page?").
        page.on('dialog', (dialog) => void dialog.accept());
        const token = await signIn(page, request, `linkbox-${language}`);
        await page.context().addCookies([{ name: LANGUAGE_COOKIE, value: language, url: BASE_URL }]);
        const path = await seedStage(request, { Authorization: `Token ${token}` });
        for (const scheme of ['light', 'dark'] as const) {
          await page.emulateMedia({ colorScheme: scheme });
          await page.goto(path);
          await checkLinkBox(page, labels, `${width.name}-${language}-${scheme}`);
        }

        // Inside Telegram the user is the one of the init data (no token cookie).
        await page.context().clearCookies();
        await page.context().addCookies([{ name: LANGUAGE_COOKIE, value: language, url: BASE_URL }]);
        const initData = signedInitData({ ...telegramUser(), language_code: language });
        await startAsTelegramUser(request, initData);
        const telegramPath = await seedStage(request, { Authorization: `TG ${initData}` });
        for (const [themeName, theme] of [['dark', DARK_THEME], ['light', LIGHT_THEME]] as const) {
          // A fresh document each time: only the address's #fragment differs between the two.
          await page.goto('about:blank');
          await openAsMiniApp(page, telegramPath, initData, theme);
          await checkLinkBox(page, labels, `${width.name}-${language}-telegram-${themeName}`);
        }
      });
    }
  });
}
