import { expect, failedRequest, test } from './support/test';
import { API } from '../contract/auth';
import { AUTH_COOKIE } from '../contract/constants';
import { createActiveUser, newUser } from './support/api';
import { BASE_URL } from './support/env';
import { linkIn, waitForMail } from './support/mail';

test('a new user registers, activates from the e-mail, signs in, switches to Russian and signs out', async ({ allowConsoleError, page, context }) => {
  allowConsoleError(failedRequest(400, API.login)); // signing in before activation is refused
  const user = newUser('signup');
  await page.goto('/sign-up/');
  await expect(page).toHaveTitle(/^Sign up · /);
  await page.getByLabel('First name').fill(user.firstName);
  await page.getByLabel('Last name').fill(user.lastName);
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password', { exact: true }).fill(user.password);
  await page.getByLabel('Repeat password').fill(user.password);
  const since = Date.now();
  await page.getByRole('button', { name: 'Sign up' }).click();
  await expect(page.getByRole('heading', { name: 'Check entered email' })).toBeVisible();
  await expect(page.getByText(user.email)).toBeVisible();

  const mail = await waitForMail(user.email, since, '/activate/');
  const activation = linkIn(mail, '/activate/');
  expect(activation.startsWith(`${BASE_URL}/activate/`)).toBe(true);

  // Signing in before activation is refused, says why, and offers the letter again.
  await page.goto('/sign-in/');
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password', { exact: true }).fill(user.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByText('This account is not activated yet.')).toBeVisible();
  await expect(page).toHaveURL(/\/sign-in\/$/);
  const resentSince = Date.now();
  await page.getByRole('button', { name: 'Send the activation letter again' }).click();
  await expect(page.getByText(`We sent the letter to ${user.email} again`)).toBeVisible();
  await waitForMail(user.email, resentSince, '/activate/');

  await page.goto(activation);
  await page.getByRole('link', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/sign-in\/$/);
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password', { exact: true }).fill(user.password);
  await page.getByRole('button', { name: 'Sign in' }).click();

  await expect(page).toHaveURL(/\/content\/panel\/$/);
  await expect(page.getByText(user.firstName).first()).toBeVisible();
  expect((await context.cookies()).find((c) => c.name === AUTH_COOKIE)?.value).toMatch(/^[0-9a-f]{40}$/);

  await page.getByRole('link', { name: 'Settings' }).first().click();
  await expect(page).toHaveURL(/\/settings\/$/);
  await expect(page.getByText(user.email)).toBeVisible();
  await page.getByRole('link', { name: 'Language' }).click();
  await expect(page).toHaveURL(/\/settings\/language\/$/);
  await page.getByText('Русский').click();
  await expect(page.getByRole('heading', { name: 'Язык' })).toBeVisible();
  await expect(page).toHaveTitle(/^Язык · /);
  await expect(page.locator('html')).toHaveAttribute('lang', 'ru');

  // The choice is remembered across a reload, and kept on the account for e-mails.
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Язык' })).toBeVisible();
  const token = (await context.cookies()).find((c) => c.name === AUTH_COOKIE)!.value;
  const me = await page.request.get(API.me, { headers: { Authorization: `Token ${token}` } });
  expect((await me.json()).language).toBe('ru');

  await page.goto('/settings/');
  await page.getByRole('button', { name: 'Выйти' }).click();
  await expect(page).toHaveURL(/\/sign-in\/$/);
  await expect(page.getByRole('button', { name: 'Войти' })).toBeVisible();
  expect((await context.cookies()).find((c) => c.name === AUTH_COOKIE)).toBeUndefined();

  // The signed-out token no longer works, and protected screens send the visitor to sign in.
  const after = await page.request.get(API.me, { headers: { Authorization: `Token ${token}` } });
  expect(after.status()).toBe(401);
  await page.goto('/content/panel/');
  await expect(page).toHaveURL(/\/sign-in\/\?redirect=%2Fcontent%2Fpanel%2F$/);
});

test('a forgotten password is reset from the e-mail link and the new one signs in', async ({ allowConsoleError, page, request }) => {
  allowConsoleError(failedRequest(400, API.resetPasswordCheck)); // the used link, opened again
  const user = await createActiveUser(request, newUser('reset'));
  await page.goto('/sign-in/');
  await page.getByRole('link', { name: 'Forgot password?' }).click();
  await expect(page).toHaveURL(/\/lost-pass\/$/);
  // The screen settles first (its strings and the screens preloaded after the first paint), so
  // what is typed is not typed into a form about to be replaced.
  await expect(page.getByRole('heading', { name: 'Forgot your password?' })).toBeVisible();
  await page.waitForLoadState('networkidle');
  await page.getByLabel('Email').fill(user.email);
  await expect(page.getByLabel('Email')).toHaveValue(user.email);
  const since = Date.now();
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByRole('heading', { name: 'Check entered email' })).toBeVisible();

  const link = linkIn(await waitForMail(user.email, since, '/reset-pass/'), '/reset-pass/');
  expect(link).toMatch(new RegExp(`^${BASE_URL}/reset-pass/[A-Za-z0-9_-]+/[A-Za-z0-9-]+$`));
  await page.goto(link);
  const newPassword = 'Brand-New-Secret-77';
  await page.getByLabel('New password', { exact: true }).fill(newPassword);
  await page.getByLabel('Repeat new password').fill(newPassword);
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page).toHaveURL(/\/sign-in\/$/);

  // The old password is gone, the link cannot be used twice, the new password works.
  const old = await request.post(API.login, { data: { email: user.email, password: user.password } });
  expect(old.status()).toBe(400);
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password', { exact: true }).fill(newPassword);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/content\/panel\/$/);

  // A used link says so before anything is typed, and offers a new letter.
  await page.goto(link);
  await expect(page.getByTestId('reset-link-problem')).toBeVisible();
  await expect(page.getByLabel('New password', { exact: true })).toHaveCount(0);
  await expect(page.getByRole('link', { name: /new link|Forgot password/i }).first()).toBeVisible();
});

test('sign-in returns the visitor to the page they were sent from, and never to another site', async ({ page, request }) => {
  const user = await createActiveUser(request, newUser('redirect'));
  await page.goto('/content/funnels/?from=mail');
  await expect(page).toHaveURL(/\/sign-in\/\?redirect=%2Fcontent%2Ffunnels%2F%3Ffrom%3Dmail$/);
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password', { exact: true }).fill(user.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/content\/funnels\/\?from=mail$/);
  await expect(page.getByRole('heading', { name: 'My funnels' })).toBeVisible();

  // A crafted link cannot send someone elsewhere after they sign in.
  await page.context().clearCookies();
  await page.goto('/sign-in/?redirect=https://evil.example/');
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password', { exact: true }).fill(user.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/content\/panel\/$/);
});

test('the sign-in screen never says "Welcome back" on a first visit, and does once the visitor has signed in on this device', async ({ page, request }) => {
  const user = await createActiveUser(request, newUser('greeting'));
  await page.goto('/sign-in/');
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  await expect(page.getByText('Welcome back')).toHaveCount(0);

  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password', { exact: true }).fill(user.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/content\/panel\/$/);
  await page.getByRole('link', { name: 'Settings' }).first().click();
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/sign-in\//);
  await expect(page.getByRole('heading', { name: 'Welcome back' })).toBeVisible();
});

test.describe('in Russian', () => {
  test.use({ locale: 'ru-RU' });
  test('a first visit reads «Вход»', async ({ page }) => {
    await page.goto('/sign-in/');
    await expect(page.getByRole('heading', { name: 'Вход' })).toBeVisible();
    await expect(page.getByText('С возвращением')).toHaveCount(0);
  });
});
