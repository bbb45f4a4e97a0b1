// The partner programme end to end, in Chromium against the real server: a partner's web link
// brings a new visitor (the click is counted, the uid kept in the ref cookie, the address
// cleaned), who signs up and is attributed to the partner; the partner sees the click and the
// sign-up on the dashboard. Then the referred user pays by card through the fake Stripe: the
// partner sees the commission pending, and once the hold (shortened for e2e in
// playwright.config.ts) is over, requests a withdrawal that an admin marks paid. Screenshots of
// every partner screen land in test-results/screens/partner-*.png.
import { BILLING_API, CARD_SUBSCRIBE_ROUTE } from '../contract/billing';
import { LANGUAGE_COOKIE } from '../contract/constants';
import { PARTNER_API, REF_COOKIE, type PartnerLink } from '../contract/partner';
import { ROUTES } from '../contract/routes';
import { linkIn, waitForMail } from './support/mail';
import { adminToken, loginToken, newUser, type TestUser } from './support/api';
import { signIn } from './support/builder';
import { withCardPlan } from './support/billing';
import { AUTH_COOKIE } from '../contract/constants';
import { BASE_URL, E2E_ADMIN_EMAIL, E2E_PARTNER_HOLD_S, FAKE_STRIPE_URL } from './support/env';
import { DARK_THEME, LIGHT_THEME, openAsMiniApp, signedInitData, telegramUser } from './support/telegram';
import type { Browser } from '@playwright/test';
import { expect, test, type APIRequestContext, type Page } from './support/test';

const auth = (token: string) => ({ authorization: `Token ${token}` });

async function defaultLink(request: APIRequestContext, token: string): Promise<PartnerLink> {
  const res = await request.get(PARTNER_API.links, { headers: auth(token) });
  expect(res.status(), await res.text()).toBe(200);
  const links = (await res.json()) as PartnerLink[];
  const link = links.find((candidate) => candidate.is_default);
  if (!link) throw new Error('the partner has no default link');
  return link;
}

/** Signs up through the form (the ref cookie goes along) and activates from the e-mail. */
async function signUpAndActivate(page: Page, prefix: string): Promise<TestUser> {
  const user = newUser(prefix);
  await page.goto(ROUTES.signUp);
  await page.getByLabel('First name').fill(user.firstName);
  await page.getByLabel('Last name').fill(user.lastName);
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password', { exact: true }).fill(user.password);
  await page.getByLabel('Repeat password').fill(user.password);
  const since = Date.now();
  await page.getByRole('button', { name: 'Sign up' }).click();
  await expect(page.getByRole('heading', { name: 'Check entered email' })).toBeVisible();
  await page.goto(linkIn(await waitForMail(user.email, since, '/activate/'), '/activate/'));
  await expect(page.getByRole('heading', { name: 'Account activated' })).toBeVisible();
  return user;
}

/** A partner, and a visitor who came through the partner's web link and signed up. */
async function partnerWithReferral(page: Page, browser: Browser, request: APIRequestContext) {
  const partnerToken = await signIn(page, request, 'partner');
  const link = await defaultLink(request, partnerToken);
  const visitorContext = await browser.newContext();
  const visitor = await visitorContext.newPage();
  await visitor.goto(link.web_url);
  await expect.poll(async () => (await visitorContext.cookies()).find((cookie) => cookie.name === REF_COOKIE)?.value).toBe(link.uid);
  const referred = await signUpAndActivate(visitor, 'referred');
  await visitorContext.close();
  return { partnerToken, link, referred };
}

/** Pays the plan on the fake Stripe's checkout page, as the referred user. */
async function payByCard(browser: Browser, request: APIRequestContext, user: TestUser, planId: number): Promise<void> {
  const token = await loginToken(request, user);
  const checkout = await request.post(BILLING_API.cardCheckout, { headers: auth(token), data: { plan_id: planId } });
  expect(checkout.status(), await checkout.text()).toBe(200);
  const { url } = (await checkout.json()) as { url: string };
  expect(url.startsWith(`${FAKE_STRIPE_URL}/`)).toBe(true);
  const context = await browser.newContext();
  const payer = await context.newPage();
  // Where the payer lands afterwards is the billing screens' business: answered here.
  await payer.route(`${BASE_URL}${CARD_SUBSCRIBE_ROUTE}**`, (route) => route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>back</title><p>back in the app</p>' }));
  await payer.goto(url);
  await payer.getByRole('button', { name: 'Pay' }).click();
  await payer.waitForURL(`${BASE_URL}${CARD_SUBSCRIBE_ROUTE}?paid=1`);
  await context.close();
}

const PARTNER_SCREENS = ['/partner/dashboard/', '/partner/transactions/', '/partner/statistics/', '/partner/withdraw/'];
const slug = (path: string) => path.replace(/^\/|\/$/g, '').replace(/\//g, '_');

/** The screen has painted its data (no loading state) and fits the window's width; then its screenshot. */
async function screenshot(page: Page, name: string) {
  await expect(page.getByRole('heading').first()).toBeVisible();
  await expect(page.getByRole('status', { name: 'Loading' })).toHaveCount(0);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow, `${name} is wider than the window`).toBeLessThanOrEqual(0);
  await page.screenshot({ path: `test-results/screens/partner-${name}.png`, fullPage: true });
}

test("a partner's web link brings a visitor who signs up; the partner sees the click and the sign-up", async ({ page, browser, request }) => {
  const partnerToken = await signIn(page, request, 'partner');
  const link = await defaultLink(request, partnerToken);
  expect(link.web_url).toBe(`${BASE_URL}/?ref=${link.uid}`);

  // The partner's dashboard before anyone came: no clicks, the links to share.
  await page.goto(ROUTES.partnerDashboard);
  await expect(page.getByTestId('partner-total-clicks')).toHaveText('0');
  await expect(page.getByTestId('partner-link-web').getByTestId('partner-link-url')).toHaveText(link.web_url);
  await expect(page.getByRole('heading', { name: 'Share your link' })).toBeVisible();

  // A new visitor opens the link: the address loses ?ref=, the cookie keeps the uid.
  const visitorContext = await browser.newContext();
  const visitor = await visitorContext.newPage();
  await visitor.goto(link.web_url);
  // A guest at / goes on to sign in: wherever they are, ?ref= is gone.
  await expect(visitor).toHaveURL(/\/sign-in\//);
  expect(new URL(visitor.url()).searchParams.has('ref')).toBe(false);
  await expect.poll(async () => (await visitorContext.cookies()).find((cookie) => cookie.name === REF_COOKIE)?.value).toBe(link.uid);
  await signUpAndActivate(visitor, 'referred');
  await visitorContext.close();

  // The partner sees the click and the sign-up, on the dashboard and on the link's own screen.
  await page.reload();
  await expect(page.getByTestId('partner-total-clicks')).toHaveText('1');
  await expect(page.getByTestId('partner-total-signups')).toHaveText('1');
  await page.getByTestId('partner-link-stats').first().click();
  await expect(page).toHaveURL(new RegExp(`/partner/dashboard/${link.uid}/$`));
  await expect(page.getByTestId('partner-funnel-clicks')).toContainText('1');
  await expect(page.getByTestId('partner-funnel-signups')).toContainText('1');
  await expect(page.getByTestId('partner-chart').locator('canvas')).toBeVisible();
});

test('the referred user pays by card; the partner sees the commission pending, then withdraws it, and an admin marks it paid', async ({ page, browser, request }) => {
  test.setTimeout(150_000);
  await withCardPlan(request, async (planId) => {
    const { link, referred } = await partnerWithReferral(page, browser, request);
    await payByCard(browser, request, referred, planId);

    // 30 % of $12.99, pending for the hold.
    await page.goto(ROUTES.partnerDashboard);
    await expect(async () => {
      await page.reload();
      await expect(page.getByTestId('partner-pending')).toHaveText('$3.89', { timeout: 1000 });
    }).toPass({ timeout: 15_000 });
    await expect(page.getByTestId('partner-total-paying')).toHaveText('1');
    await expect(page.getByTestId('partner-total-commission')).toHaveText('$3.89');
    await page.goto(ROUTES.partnerTransactions);
    const commission = page.getByTestId('partner-transaction').first();
    await expect(commission).toContainText('Commission');
    await expect(commission.getByTestId('partner-transaction-amount')).toHaveText('+$3.89');
    await expect(commission.getByTestId('partner-transaction-state')).toContainText('Pending until');

    // The hold ends: the amount is available, and the partner asks for it.
    await page.goto(ROUTES.partnerWithdraw);
    await expect(async () => {
      await page.reload();
      await expect(page.getByTestId('partner-available')).toHaveText('$3.89', { timeout: 1000 });
    }).toPass({ timeout: (E2E_PARTNER_HOLD_S + 15) * 1000 });
    const method = `IBAN DE89 3704 ${Date.now().toString().slice(-6)}`;
    await page.getByLabel('Amount, USD').fill('5');
    await page.getByLabel('Where to pay').fill(method);
    await page.getByTestId('partner-withdraw-submit').click();
    await expect(page.getByText('You have $3.89 available.')).toBeVisible();
    await page.getByLabel('Amount, USD').fill('3.89');
    await page.getByTestId('partner-withdraw-submit').click();
    const request1 = page.getByTestId('withdrawal').filter({ hasText: method });
    await expect(request1.getByTestId('withdrawal-state')).toHaveText('Requested');
    await expect(page.getByTestId('partner-available')).toHaveText('$0.00');

    // The admin finds it under Settings and marks it paid, after confirming.
    const adminContext = await browser.newContext();
    await adminContext.addCookies([{ name: AUTH_COOKIE, value: await adminToken(request, E2E_ADMIN_EMAIL), url: BASE_URL }]);
    const admin = await adminContext.newPage();
    await admin.goto(ROUTES.settings);
    await admin.getByTestId('settings-withdrawals').click();
    await expect(admin).toHaveURL(/\/settings\/withdrawals\/$/);
    const row = admin.getByTestId('admin-withdrawal').filter({ hasText: method });
    await expect(row).toContainText('$3.89');
    await screenshot(admin, 'admin-withdrawals-phone');
    await row.getByTestId('withdrawal-paid').click();
    const dialog = admin.getByRole('alertdialog');
    await expect(dialog).toContainText('Mark $3.89');
    await expect(dialog).toContainText(method);
    await dialog.getByRole('button', { name: 'Mark paid' }).click();
    await expect(admin.getByText('Marked paid')).toBeVisible();
    await expect(row).toHaveCount(0); // gone from the queue of new requests
    await admin.getByRole('tab', { name: 'Paid' }).click();
    await expect(row.getByTestId('withdrawal-state')).toHaveText('Paid');
    await admin.setViewportSize({ width: 1280, height: 800 });
    await screenshot(admin, 'admin-withdrawals-desktop');
    await adminContext.close();

    // The partner sees it paid, and the withdrawal in the ledger.
    await page.reload();
    await expect(request1.getByTestId('withdrawal-state')).toHaveText('Paid');
    await page.goto(ROUTES.partnerTransactions);
    await expect(page.getByTestId('partner-transaction').first()).toContainText('Withdrawal');
    await expect(page.getByTestId('partner-transaction').first().getByTestId('partner-transaction-amount')).toHaveText('-$3.89');

    // Every partner screen with these figures: phone in both languages and both browser themes, then desktop.
    const screens = [...PARTNER_SCREENS, `/partner/dashboard/${link.uid}/`];
    for (const language of ['en', 'ru'] as const) {
      await page.context().addCookies([{ name: LANGUAGE_COOKIE, value: language, url: BASE_URL }]);
      for (const scheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: scheme });
        for (const path of screens) {
          await page.goto(path);
          await screenshot(page, `${language}-${scheme}-${slug(path)}`);
        }
      }
    }
    await page.emulateMedia({ colorScheme: 'light' });
    await page.setViewportSize({ width: 1280, height: 800 });
    for (const path of screens) {
      await page.goto(path);
      await screenshot(page, `desktop-${slug(path)}`);
    }
  });
});

test('the partner screens inside Telegram, light and dark: a new partner is told to share the link', async ({ page }) => {
  const initData = signedInitData(telegramUser());
  for (const [name, theme] of [['tg-dark', DARK_THEME], ['tg-light', LIGHT_THEME]] as const) {
    for (const path of PARTNER_SCREENS) {
      await openAsMiniApp(page, path, initData, theme);
      await screenshot(page, `${name}-${slug(path)}`);
    }
  }
  await openAsMiniApp(page, ROUTES.partnerDashboard, initData);
  await expect(page.getByRole('heading', { name: 'Share your link' })).toBeVisible();
  // Inside Telegram the bot and Mini App forms are there too (the service bot is configured).
  await expect(page.getByTestId('partner-link-bot').getByTestId('partner-link-url')).toContainText('?start=ref_');
  await expect(page.getByTestId('partner-link-app').getByTestId('partner-link-url')).toContainText('?startapp=ref_');
});
