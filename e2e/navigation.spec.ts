import { expect, failedRequest, test } from './support/test';
import { API } from '../contract/auth';
import { AUTH_COOKIE } from '../contract/constants';
import { BASE_URL } from './support/env';
import { createActiveUser, loginToken, newUser } from './support/api';

test('a token in the address signs in, is kept in the cookie and removed from the address', async ({ page, context, request }) => {
  const user = await createActiveUser(request, newUser('qtoken'));
  const token = await loginToken(request, user);
  await page.goto(`/content/panel/?token=${token}`);
  await expect(page.getByText(user.firstName).first()).toBeVisible();
  expect(page.url()).not.toContain('token=');
  const cookie = (await context.cookies()).find((c) => c.name === AUTH_COOKIE);
  expect(cookie?.value).toBe(token);
  // Kept for a year (365 days), give or take the test's own run time.
  expect(cookie!.expires * 1000 - Date.now()).toBeGreaterThan(364 * 24 * 3600 * 1000);

  // Guest-only screens send a signed-in visitor to the home screen.
  for (const path of ['/sign-in/', '/sign-up/', '/lost-pass/']) {
    await page.goto(path);
    await expect(page).toHaveURL(/\/content\/panel\/$/);
  }
  // The empty path goes to the panel too.
  await page.goto('/');
  await expect(page).toHaveURL(/\/content\/panel\/$/);
});

test('deep links load directly, and protected ones ask a guest to sign in', async ({ allowConsoleError, page, context, request }) => {
  allowConsoleError(failedRequest(400, API.resetPasswordCheck)); // a made-up reset link
  allowConsoleError(failedRequest(401, API.me)); // a token the server does not know
  // The page loads directly, and says at once that this made-up link does not work.
  await page.goto('/reset-pass/MQ/abc-123');
  await expect(page.getByTestId('reset-link-problem')).toBeVisible();

  for (const path of ['/settings/language/', '/partner/dashboard/', '/content/dashboard/']) {
    await page.goto(path);
    // Sign-in is told where the guest was going.
    await expect(page).toHaveURL(`${BASE_URL}/sign-in/?redirect=${encodeURIComponent(path)}`);
  }
  // Public screens need no sign-in.
  for (const path of ['/subscribe/', '/sbscrb/', '/cancel/']) {
    await page.goto(path);
    await expect(page).toHaveURL(new RegExp(`${path}$`));
  }

  const user = await createActiveUser(request, newUser('deeplink'));
  const token = await loginToken(request, user);
  await context.addCookies([{ name: AUTH_COOKIE, value: token, url: BASE_URL }]);
  await page.goto('/settings/language/');
  await expect(page.getByText('English')).toBeVisible();
  await expect(page.getByText('Русский')).toBeVisible();
  await page.goto('/partner/');
  await expect(page).toHaveURL(/\/partner\/dashboard\/$/);

  // A token the server does not know is cleared and the visitor goes to sign in.
  await context.clearCookies();
  await context.addCookies([{ name: AUTH_COOKIE, value: 'f'.repeat(40), url: BASE_URL }]);
  await page.goto('/settings/');
  await expect(page).toHaveURL(`${BASE_URL}/sign-in/?redirect=${encodeURIComponent('/settings/')}`);
  expect((await context.cookies()).find((c) => c.name === AUTH_COOKIE)).toBeUndefined();
});

test('a server that cannot be reached shows an error instead of spinning', async ({ allowConsoleError, page }) => {
  allowConsoleError(failedRequest('refused', API.login));
  await page.goto('/sign-in/');
  await page.route('**/api/token/login/', (route) => route.abort('connectionrefused'));
  await page.getByLabel('Email').fill('nobody@example.com');
  await page.getByLabel('Password', { exact: true }).fill('whatever-123');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('alert').or(page.getByRole('status')).filter({ hasText: /network|connect/i }).first()).toBeVisible();
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeEnabled();
});

test('an address typed without its trailing slash lands on the slash form, query kept', async ({ page, context, request }) => {
  const user = await createActiveUser(request, newUser('slash'));
  await context.addCookies([{ name: AUTH_COOKIE, value: await loginToken(request, user), url: BASE_URL }]);
  await page.goto('/content/dashboard?x=1');
  await expect(page).toHaveURL(/\/content\/dashboard\/\?x=1$/);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
});
