// Every screen at phone size in the light and dark browser themes and inside Telegram: each must
// render its heading and fit the phone's width. The screenshots land in test-results/screens/.
import { expect, failedRequest, test, type Page } from './support/test';
import { API } from '../contract/auth';
import { AUTH_COOKIE } from '../contract/constants';
import { BASE_URL } from './support/env';
import { createActiveUser, loginToken, newUser } from './support/api';
import { DARK_THEME, openAsMiniApp, signedInitData, telegramUser } from './support/telegram';

const guestScreens = ['/sign-in/', '/sign-up/', '/lost-pass/', '/reset-pass/MQ/abc-123/', '/activate/MQ/abc-123/', '/subscribe/', '/sbscrb/', '/cancel/'];
const userScreens = [
  '/content/panel/',
  '/content/dashboard/',
  '/content/funnels/',
  '/content/funnels/new/',
  '/content/archive/',
  '/content/templates/',
  '/content/contacts/',
  '/content/folders/',
  '/settings/',
  '/settings/language/',
  '/settings/account/',
  '/partner/dashboard/',
  '/partner/transactions/',
  '/partner/withdraw/',
  '/partner/statistics/',
];

const slug = (path: string) => path.replace(/^\/|\/$/g, '').replace(/\//g, '_') || 'root';

async function check(page: Page, path: string, name: string) {
  // The screen asked for, not a redirect to another one.
  await expect.poll(() => new URL(page.url()).pathname).toBe(path);
  await expect(page.getByRole('heading').first()).toBeVisible();
  await expect(page.getByRole('status', { name: 'Loading' })).toHaveCount(0);
  // Each screen names itself in the browser tab: "<screen> · <app>".
  await expect(page).toHaveTitle(/ · /);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow, `${name} is wider than the phone`).toBeLessThanOrEqual(0);
  await page.screenshot({ path: `test-results/screens/${name}.png`, fullPage: true });
}

for (const scheme of ['light', 'dark'] as const) {
  test(`every screen fits a phone in the ${scheme} theme`, async ({ allowConsoleError, page, context, request }) => {
    // The guest screens include made-up activation and reset links, which the server refuses.
    allowConsoleError(failedRequest(400, API.resetPasswordCheck));
    allowConsoleError(failedRequest(400, API.activation));
    await page.emulateMedia({ colorScheme: scheme });
    for (const path of guestScreens) {
      await page.goto(path);
      await check(page, path, `${scheme}-${slug(path)}`);
    }
    const user = await createActiveUser(request, newUser(`screens-${scheme}`));
    await page.goto('/sign-in/');
    await context.addCookies([{ name: AUTH_COOKIE, value: await loginToken(request, user), url: BASE_URL }]);
    for (const path of userScreens) {
      await page.goto(path);
      await check(page, path, `${scheme}-${slug(path)}`);
    }
  });
}

test('every signed-in screen fits a phone inside Telegram (dark theme)', async ({ page }) => {
  const initData = signedInitData(telegramUser());
  for (const path of userScreens) {
    await openAsMiniApp(page, path, initData, DARK_THEME);
    await check(page, path, `telegram-${slug(path)}`);
  }
});
