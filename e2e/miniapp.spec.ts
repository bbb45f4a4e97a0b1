import { expect, failedRequest, test } from './support/test';
import { API } from '../contract/auth';
import { FUNNELS_API } from '../contract/funnels';
import { createActiveUser, loginToken, newUser } from './support/api';
import { FAKE_TELEGRAM_PORT } from './support/env';
import { DARK_THEME, LIGHT_THEME, openAsMiniApp, signedInitData, telegramEvents, telegramUser } from './support/telegram';

const rgb = (hex: string) => {
  const n = parseInt(hex.slice(1), 16);
  return `rgb(${(n >> 16) & 255}, ${(n >> 8) & 255}, ${n & 255})`;
};

test('inside Telegram the user reaches the panel with no sign-in, in the Telegram theme', async ({ page }) => {
  const user = telegramUser();
  await openAsMiniApp(page, '/', signedInitData(user), DARK_THEME);
  await expect(page).toHaveURL(/\/content\/panel\//);
  await expect(page.getByText(user.first_name).first()).toBeVisible();
  await expect(page.locator('body')).toHaveCSS('background-color', rgb(DARK_THEME.bg_color));
  await expect(page.locator('body')).toHaveCSS('color', rgb(DARK_THEME.text_color));
  await expect.poll(() => telegramEvents(page)).toContain('web_app_ready');
  expect(await telegramEvents(page)).toContain('web_app_expand');

  // The Telegram back button follows the router: shown on an inner screen, hidden on the root.
  await page.getByRole('link', { name: 'Settings' }).first().click();
  await expect(page).toHaveURL(/\/settings\//);
  await expect
    .poll(() => page.evaluate(() => (window as unknown as { __tgEvents: Array<[string, { is_visible?: boolean }]> }).__tgEvents.filter(([t]) => t === 'web_app_setup_back_button').at(-1)?.[1]?.is_visible))
    .toBe(true);
  // The account shows the Telegram identity.
  await expect(page.getByText(`@${user.username}`)).toBeVisible();
});

test('the light Telegram theme drives the colours too', async ({ page }) => {
  await openAsMiniApp(page, '/content/panel/', signedInitData(telegramUser()), LIGHT_THEME);
  await expect(page.locator('body')).toHaveCSS('background-color', rgb(LIGHT_THEME.bg_color));
});

test('tampered init data ends at sign-in', async ({ allowConsoleError, page }) => {
  allowConsoleError(failedRequest(401, API.me)); // the server refuses the init data
  allowConsoleError(failedRequest(401, FUNNELS_API.funnels)); // the panel's data, asked for at boot with the user
  const user = telegramUser();
  const tampered = signedInitData(user).replace(encodeURIComponent('"Tanya"'), encodeURIComponent('"Mallory"'));
  expect(tampered).not.toBe(signedInitData(user));
  await openAsMiniApp(page, '/content/panel/', tampered, DARK_THEME);
  await expect(page).toHaveURL(/\/sign-in\//);
  await expect(page.getByText('Mallory')).toHaveCount(0);
});

test('init data signed for another bot ends at sign-in', async ({ allowConsoleError, page }) => {
  allowConsoleError(failedRequest(401, API.me)); // the server refuses the init data
  allowConsoleError(failedRequest(401, FUNNELS_API.funnels)); // the panel's data, asked for at boot with the user
  await openAsMiniApp(page, '/content/panel/', signedInitData(telegramUser(), '999:another-bot-token'), DARK_THEME);
  await expect(page).toHaveURL(/\/sign-in\//);
});

test('an e-mail user opens the Mini App, signs in with e-mail once, and Telegram opens their funnels from then on', async ({ allowConsoleError, page, request }) => {
  allowConsoleError(failedRequest(400, API.telegramLink)); // a wrong password first
  const account = await createActiveUser(request, newUser('linker'));
  const key = await loginToken(request, account);
  const headers = { Authorization: `Token ${key}` };
  const username = `link_${Date.now().toString(36)}${Math.floor(Math.random() * 1000)}_bot`;
  const bot = ((await (await request.post(`http://127.0.0.1:${FAKE_TELEGRAM_PORT}/control/bots`, { data: { username, first_name: 'Linked Shop' } })).json()) as { result: { token: string } }).result;
  expect((await request.post(FUNNELS_API.funnels, { headers, data: { bot_token: bot.token } })).status()).toBe(201);

  const user = telegramUser();
  await openAsMiniApp(page, '/', signedInitData(user), DARK_THEME);
  await expect(page).toHaveURL(/\/content\/panel\//);
  await page.getByRole('link', { name: 'Settings' }).first().click();
  await page.getByTestId('account-link').click();
  const form = page.getByTestId('link-email-account');
  await form.getByLabel('Email').fill(account.email);
  await form.getByLabel('Password').fill('wrong-password-1');
  await form.getByRole('button', { name: 'Sign in and link Telegram' }).click();
  await expect(form.getByText('Unable to log in with provided credentials.')).toBeVisible();
  await form.getByLabel('Password').fill(account.password);
  await form.getByRole('button', { name: 'Sign in and link Telegram' }).click();
  await expect(page).toHaveURL(/\/content\/funnels\/$/);
  await expect(page.getByTestId('funnel-card')).toContainText('Linked Shop');

  // Next time Telegram opens the app, it is that account straight away.
  await page.context().clearCookies();
  await openAsMiniApp(page, '/content/funnels/', signedInitData(user), DARK_THEME);
  await expect(page.getByTestId('funnel-card')).toContainText('Linked Shop');
});

test('a first open from Telegram asks whether the person has an account; "Start here" makes one, and the next open goes straight in', async ({ allowConsoleError, page }) => {
  allowConsoleError(failedRequest(401, API.me)); // "not linked to an account yet": the question follows
  allowConsoleError(failedRequest(401, FUNNELS_API.funnels)); // the panel's data, asked for at boot with the user
  const user = telegramUser();
  await openAsMiniApp(page, '/', signedInitData(user), DARK_THEME, { firstOpen: true });
  await expect(page).toHaveURL(/\/welcome\//);
  await expect(page.getByRole('heading', { name: 'Welcome! Do you already have an account?' })).toBeVisible();
  await page.getByRole('button', { name: 'Start here' }).click();
  await expect(page).toHaveURL(/\/content\/panel\//);
  await expect(page.getByText(user.first_name).first()).toBeVisible();

  // The identity has its account now: Telegram opens it with no question.
  await page.context().clearCookies();
  await openAsMiniApp(page, '/content/funnels/', signedInitData(user), DARK_THEME, { firstOpen: true });
  await expect(page).toHaveURL(/\/content\/funnels\//);
  await expect(page.getByRole('heading', { name: 'Welcome! Do you already have an account?' })).toHaveCount(0);
});

test('a first open from Telegram: "I already have an account" signs in with e-mail once, and Telegram opens that account with its funnels from then on', async ({ allowConsoleError, page, request }) => {
  allowConsoleError(failedRequest(401, API.me)); // "not linked to an account yet": the question follows
  allowConsoleError(failedRequest(400, API.login)); // a wrong password first
  const account = await createActiveUser(request, newUser('welcome'));
  const key = await loginToken(request, account);
  const username = `welc_${Date.now().toString(36)}${Math.floor(Math.random() * 1000)}_bot`;
  const bot = ((await (await request.post(`http://127.0.0.1:${FAKE_TELEGRAM_PORT}/control/bots`, { data: { username, first_name: 'Welcome Shop' } })).json()) as { result: { token: string } }).result;
  expect((await request.post(FUNNELS_API.funnels, { headers: { Authorization: `Token ${key}` }, data: { bot_token: bot.token } })).status()).toBe(201);

  const user = telegramUser();
  await openAsMiniApp(page, '/content/funnels/', signedInitData(user), DARK_THEME, { firstOpen: true });
  await expect(page).toHaveURL(/\/welcome\//);
  await page.getByRole('button', { name: 'I already have an account' }).click();
  const form = page.getByTestId('telegram-welcome-account');
  await form.getByLabel('Email').fill(account.email);
  await form.getByLabel('Password').fill('wrong-password-1');
  await form.getByRole('button', { name: 'Sign in and link Telegram' }).click();
  await expect(form.getByText('Unable to log in with provided credentials.')).toBeVisible();
  await form.getByLabel('Password').fill(account.password);
  await form.getByRole('button', { name: 'Sign in and link Telegram' }).click();
  await expect(page).toHaveURL(/\/content\/funnels\/(#.*)?$/);
  await expect(page.getByTestId('funnel-card')).toContainText('Welcome Shop');

  // Next time Telegram opens the app, it is that account straight away.
  await page.context().clearCookies();
  await openAsMiniApp(page, '/content/funnels/', signedInitData(user), DARK_THEME, { firstOpen: true });
  await expect(page.getByTestId('funnel-card')).toContainText('Welcome Shop');
});

test("inside Telegram the app speaks the Telegram user's language, and signing out offers to continue with Telegram", async ({ page }) => {
  const user = { ...telegramUser(), language_code: 'ru' };
  await openAsMiniApp(page, '/content/panel/', signedInitData(user), DARK_THEME);
  await expect(page.getByRole('link', { name: 'Настройки' }).first()).toBeVisible();
  await page.getByRole('link', { name: 'Настройки' }).first().click();
  await page.getByRole('button', { name: 'Выйти' }).click();
  await expect(page).toHaveURL(/\/sign-in\//);
  await page.getByRole('button', { name: 'Продолжить с Telegram' }).click();
  await expect(page).toHaveURL(/\/content\/panel\//);
});
