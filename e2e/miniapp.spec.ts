import { expect, test } from '@playwright/test';
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

test('tampered init data ends at sign-in', async ({ page }) => {
  const user = telegramUser();
  const tampered = signedInitData(user).replace(encodeURIComponent('"Tanya"'), encodeURIComponent('"Mallory"'));
  expect(tampered).not.toBe(signedInitData(user));
  await openAsMiniApp(page, '/content/panel/', tampered, DARK_THEME);
  await expect(page).toHaveURL(/\/sign-in\//);
  await expect(page.getByText('Mallory')).toHaveCount(0);
});

test('init data signed for another bot ends at sign-in', async ({ page }) => {
  await openAsMiniApp(page, '/content/panel/', signedInitData(telegramUser(), '999:another-bot-token'), DARK_THEME);
  await expect(page).toHaveURL(/\/sign-in\//);
});
