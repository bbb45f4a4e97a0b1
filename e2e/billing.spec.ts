// The subscription as its user meets it, in Chromium against the real server and the fake Bot API:
// on the free plan a mailing is refused with the 'Subscription isn't active' alert; inside the
// emulated Mini App they pay with Stars (the test plays Telegram's payment sheet: it pays through
// the fake and closes the sheet with its status) and the limit is gone; the service bot's
// "Subscription active" notice and Settings carry the signed cancel link, and they cancel the
// renewal from it. Each paid plan made here is archived at the end: a paid plan turns
// gating on for every user of the shared e2e server.
import { API } from '../contract/auth';
import { AUTH_COOKIE, LANGUAGE_COOKIE } from '../contract/constants';
import { BILLING_API, type Subscription } from '../contract/billing';
import { FUNNELS_API } from '../contract/funnels';
import { MAILINGS_API, type Mailing } from '../contract/mailings';
import { adminToken, createActiveUser, loginToken, newUser } from './support/api';
import { withCardPlan } from './support/billing';
import { FAKE, fakeBot } from './support/builder';
import { BASE_URL, E2E_ADMIN_EMAIL, SERVICE_BOT_TOKEN } from './support/env';
import { DARK_THEME, LIGHT_THEME, openAsMiniApp, signedInitData, startAsTelegramUser, telegramUser } from './support/telegram';
import { expect, failedRequest, test, type APIRequestContext, type Page } from './support/test';

type Headers = Record<string, string>;

async function paidPlan(request: APIRequestContext, admin: Headers, title: string): Promise<number> {
  const res = await request.post(BILLING_API.adminPlans, {
    headers: admin,
    data: {
      title,
      description: 'Every feature, no limits.',
      limits: { running_funnels: null, people: null, mailings: true, letters: true },
      price_stars: 250,
      price_card: 990,
      card_currency: 'USD',
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  return ((await res.json()) as { id: number }).id;
}

/** A running funnel with one person who pressed /start, and a draft mailing to everyone. */
async function draftMailing(request: APIRequestContext, headers: Headers): Promise<{ funnelId: number; mailingId: number }> {
  const bot = await fakeBot(request, 'e2e_billing');
  const funnel = (await (await request.post(FUNNELS_API.funnels, { headers, data: { bot_token: bot.token } })).json()) as { id: number };
  const stage = (await (await request.post(FUNNELS_API.stages(funnel.id), { headers, data: { title: 'Welcome' } })).json()) as { id: number };
  await request.put(FUNNELS_API.stageMessage(stage.id), { headers, data: { text: 'Welcome!', media_id: null, buttons: [], next_button: null } });
  // The free plan runs one funnel.
  const run = await request.post(FUNNELS_API.run(funnel.id), { headers });
  expect(run.ok(), await run.text()).toBe(true);
  await request.post(`${FAKE}/control/bots/${bot.token}/messages`, { data: { from: { id: 9_100_000 + Math.floor(Math.random() * 100_000), first_name: 'Ann' }, text: '/start' } });
  await expect
    .poll(async () => ((await (await request.get(FUNNELS_API.people(funnel.id), { headers })).json()) as { count: number }).count, { timeout: 30_000 })
    .toBe(1);
  const mailing = (await (await request.post(MAILINGS_API.mailings(funnel.id), { headers, data: { title: 'Autumn sale', message: { text: 'The sale is on!' } } })).json()) as Mailing;
  return { funnelId: funnel.id, mailingId: mailing.id };
}

/** The slug of the invoice the app asked Telegram to open (web_app_open_invoice), once it has. */
async function openedInvoiceSlug(page: Page): Promise<string> {
  let slug = '';
  await expect
    .poll(async () => {
      slug = await page.evaluate(() => {
        const events = (window as unknown as { __tgEvents: Array<[string, { slug?: string } | undefined]> }).__tgEvents;
        return events.find(([type]) => type === 'web_app_open_invoice')?.[1]?.slug ?? '';
      });
      return slug;
    })
    .not.toBe('');
  return slug;
}

/** The signed link the e-mail and the bot carry, as the server makes it (its secret, the subscription's generation). */
/** The cancel link of the "Subscription active" notice the service bot sent this Telegram user. */
async function cancelLinkFromServiceBot(request: APIRequestContext, telegramId: number): Promise<string> {
  let link = '';
  await expect
    .poll(
      async () => {
        const res = await request.get(`${FAKE}/control/bots/${SERVICE_BOT_TOKEN}/chats/${telegramId}/bot-messages`);
        const messages = res.ok() ? ((await res.json()) as { result: Array<{ text?: string }> }).result : [];
        link = messages.map((message) => /(?:Cancel renewal|Отменить продление): (\S+)/.exec(message.text ?? '')?.[1] ?? '').find(Boolean) ?? '';
        return link;
      },
      { timeout: 30_000 },
    )
    .toMatch(/\/cancel\/\?token=/);
  return link;
}

test('a free user meets the limit, pays with Stars in the Mini App, the limit is gone, and cancels from the signed link', async ({ page, request, allowConsoleError }) => {
  test.setTimeout(180_000);
  const admin = { Authorization: `Token ${await adminToken(request, E2E_ADMIN_EMAIL)}` };
  const planTitle = `Pro ${Date.now().toString(36)}`;
  const planId = await paidPlan(request, admin, planTitle);
  try {
    const person = telegramUser();
    const initData = signedInitData(person);
    await startAsTelegramUser(request, initData);
    const headers = { Authorization: `TG ${initData}` };
    const me = (await (await request.get(API.me, { headers })).json()) as { id: number };
    const { funnelId, mailingId } = await draftMailing(request, headers);
    const mailingPath = `/content/funnels/${funnelId}/mailings/${mailingId}/`;

    // On the free plan, sending the mailing is refused: the specification's alert says why.
    allowConsoleError(failedRequest(402, MAILINGS_API.send(mailingId)));
    await openAsMiniApp(page, mailingPath, initData, LIGHT_THEME);
    await page.getByTestId('send-mailing').click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Send now' }).click();
    const alert = page.getByRole('alertdialog', { name: "Subscription isn't active" });
    await expect(alert).toContainText('Subscribe to use all features');
    await photograph(page, 'telegram-light-alert');
    await alert.getByRole('button', { name: 'More details' }).click();
    await expect(page).toHaveURL(/\/subscribe\/$/);

    // The plans with their prices in Stars (inside Telegram); the user is on the free plan.
    await expect(page.getByTestId('subscription-state')).toHaveAttribute('data-state', 'free');
    const offer = page.getByTestId('plan-offer').filter({ hasText: planTitle });
    await expect(offer).toContainText('250 Stars / 30 days');
    await expect(offer.getByTestId('limit-mailings')).toContainText('Included');
    await offer.getByRole('button', { name: 'Pay 250 Stars' }).click();

    // Telegram's payment sheet: the person pays (through the fake), the sheet closes as paid.
    const slug = await openedInvoiceSlug(page);
    const paid = await request.post(`${FAKE}/fake/payInvoice`, { data: { link: `https://t.me/$${slug}`, user_id: person.id } });
    expect(((await paid.json()) as { status: string }).status).toBe('paid');
    await page.evaluate(
      (closedSlug) => (window as unknown as { Telegram: { WebView: { receiveEvent(type: string, data: unknown): void } } }).Telegram.WebView.receiveEvent('invoice_closed', { slug: closedSlug, status: 'paid' }),
      slug,
    );
    await expect(page.getByTestId('payment-progress')).toHaveText('Your subscription is active. Thank you!', { timeout: 30_000 });
    await expect(page.getByTestId('subscription-state')).toHaveAttribute('data-state', 'active');
    await expect(page.getByTestId('subscription-state')).toContainText(`Your plan: ${planTitle}`);
    await photograph(page, 'telegram-light-subscribe-active');

    // The limit is gone: the same mailing goes out.
    await page.goto(mailingPath);
    await page.getByTestId('send-mailing').click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Send now' }).click();
    await expect(page.getByTestId('mailing-state')).toHaveText(/Sending|Finished/, { timeout: 30_000 });
    await expect(page.getByRole('alertdialog', { name: "Subscription isn't active" })).toHaveCount(0);

    // The service bot's "Subscription active" notice carries the signed link; Settings links to the same one.
    const link = await cancelLinkFromServiceBot(request, person.id);
    expect(link.startsWith(`${BASE_URL}/cancel/?token=${me.id}.`)).toBe(true);
    await page.goto('/settings/');
    const settingsCancel = page.getByTestId('settings-cancel-renewal');
    await expect(settingsCancel).toContainText('Cancel renewal');
    expect(new URL(await settingsCancel.getAttribute('href') ?? '', BASE_URL).searchParams.get('token')).toBe(new URL(link).searchParams.get('token'));

    // The signed link, opened in a browser without signing in.
    const browser = await page.context().newPage();
    await browser.goto(link);
    await expect(browser.getByRole('heading', { name: 'Cancel subscription' })).toBeVisible();
    await expect(browser.getByTestId('cancel-renewal')).toHaveText('Automatic');
    await expect(browser.getByText(planTitle)).toBeVisible();
    await browser.getByTestId('cancel-renewal-button').click();
    await browser.getByRole('alertdialog', { name: 'Cancel renewal?' }).getByRole('button', { name: 'Cancel renewal' }).click();
    await expect(browser.getByTestId('cancel-done')).toContainText('Renewal cancelled, access lasts until');
    await expect(browser.getByTestId('cancel-renewal')).toHaveText('Cancelled');
    await photograph(browser, 'en-light-cancel-done');
    const after = (await (await request.get(BILLING_API.subscription, { headers })).json()) as Subscription;
    expect(after).toMatchObject({ state: 'cancelled', plan: { id: planId } });

    // A forged link says it no longer works.
    allowConsoleError(failedRequest(400, BILLING_API.cancel));
    await browser.goto(`/cancel/?token=${encodeURIComponent(`${me.id}.99.${'A'.repeat(43)}`)}`);
    await expect(browser.getByTestId('cancel-problem')).toContainText('A cancel link works for the current subscription only');
  } finally {
    await request.patch(BILLING_API.adminPlan(planId), { headers: admin, data: { archived: true } });
  }
});

test('a gated action refused inside its dialog closes the dialog: the alert is the one thing on screen', async ({ page, request, context, allowConsoleError }) => {
  test.setTimeout(90_000);
  await withCardPlan(request, async () => {
    const user = await createActiveUser(request, newUser('billing-dialog'));
    const token = await loginToken(request, user);
    const headers = { Authorization: `Token ${token}` };
    const { funnelId, mailingId } = await draftMailing(request, headers);
    allowConsoleError(failedRequest(402, MAILINGS_API.send(mailingId)));
    await context.addCookies([{ name: AUTH_COOKIE, value: token, url: BASE_URL }]);
    await page.goto(`/content/funnels/${funnelId}/mailings/${mailingId}/`);
    await page.getByTestId('send-mailing').click();
    const sendDialog = page.getByRole('alertdialog', { name: 'Send the mailing?' });
    await sendDialog.getByRole('button', { name: 'Send now' }).click();

    const alert = page.getByRole('alertdialog', { name: "Subscription isn't active" });
    await expect(alert).toContainText('Subscribe to use all features');
    await expect(sendDialog).toHaveCount(0);
    await expect(page.getByRole('alertdialog')).toHaveCount(1);
    // Nothing half-done: the mailing is still a draft.
    const mailing = (await (await request.get(MAILINGS_API.mailing(mailingId), { headers })).json()) as Mailing;
    expect(mailing.state).toBe('draft');

    await alert.getByRole('button', { name: 'More details' }).click();
    await expect(page).toHaveURL(/\/subscribe\/$/);
    await expect(page.getByRole('alertdialog')).toHaveCount(0);
  });
});

/** The screen shows its heading, has finished loading, fits the width, and is photographed. */
async function photograph(page: Page, name: string): Promise<void> {
  await expect(page.getByRole('heading').first()).toBeVisible();
  await expect(page.getByRole('status', { name: /Loading|Загрузка/ })).toHaveCount(0);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow, `${name} is wider than the screen`).toBeLessThanOrEqual(0);
  await page.screenshot({ path: `test-results/screens/billing-${name}.png`, fullPage: true });
}

test('the billing screens in both languages, light, dark and Telegram themes, and on a desktop', async ({ page, request, context, allowConsoleError }) => {
  test.setTimeout(240_000);
  const admin = { Authorization: `Token ${await adminToken(request, E2E_ADMIN_EMAIL)}` };
  const planId = await paidPlan(request, admin, 'Pro');
  allowConsoleError(failedRequest(400, BILLING_API.cancel));
  try {
    // A card subscriber (paid through the fake Stripe's API by the server's own checkout is the
    // card spec's business): the subscription screens of a signed-in user on the free plan.
    const user = await createActiveUser(request, newUser('billing-screens'));
    const token = await loginToken(request, user);
    const adminCookie = admin.Authorization.replace('Token ', '');
    const screens: Array<{ path: string; name: string; as: 'guest' | 'user' | 'admin'; expectText: RegExp }> = [
      { path: '/subscribe/', name: 'subscribe-guest', as: 'guest', expectText: /Pro/ },
      { path: '/sbscrb/', name: 'sbscrb', as: 'user', expectText: /\$9\.90|9,90/ },
      { path: '/settings/', name: 'settings', as: 'user', expectText: /0 \/ 1/ },
      { path: '/settings/plans/', name: 'plans', as: 'admin', expectText: /Pro/ },
      { path: `/cancel/?token=${encodeURIComponent(`${'1'}.9.${'A'.repeat(43)}`)}`, name: 'cancel-invalid', as: 'guest', expectText: /./ },
    ];
    for (const language of ['en', 'ru'] as const) {
      for (const scheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: scheme });
        for (const screen of screens) {
          await context.clearCookies();
          const cookies: Array<{ name: string; value: string; url: string }> = [{ name: LANGUAGE_COOKIE, value: language, url: BASE_URL }];
          if (screen.as !== 'guest') cookies.push({ name: AUTH_COOKIE, value: screen.as === 'admin' ? adminCookie : token, url: BASE_URL });
          await context.addCookies(cookies);
          await page.goto(screen.path);
          await expect(page.locator('main')).toContainText(screen.expectText);
          await photograph(page, `${language}-${scheme}-${screen.name}`);
        }
      }
    }
    // Inside Telegram (dark): the Stars prices, and the settings.
    await context.clearCookies();
    const initData = signedInitData(telegramUser());
    for (const [path, name] of [
      ['/subscribe/', 'subscribe'],
      ['/settings/', 'settings'],
    ] as const) {
      await openAsMiniApp(page, path, initData, DARK_THEME);
      await photograph(page, `telegram-${name}`);
    }
    await expect(page.getByTestId('limit-running_funnels')).toBeVisible();
    // A desktop window.
    await page.setViewportSize({ width: 1280, height: 860 });
    await context.clearCookies();
    await context.addCookies([{ name: AUTH_COOKIE, value: token, url: BASE_URL }]);
    for (const [path, name] of [
      ['/sbscrb/', 'sbscrb'],
      ['/settings/', 'settings'],
    ] as const) {
      await page.goto(path);
      await photograph(page, `desktop-${name}`);
    }
  } finally {
    await request.patch(BILLING_API.adminPlan(planId), { headers: admin, data: { archived: true } });
  }
});
