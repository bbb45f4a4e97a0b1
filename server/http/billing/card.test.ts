// Paying by card end to end through the local fake of Stripe: the checkout the server asks for,
// the payer pressing Pay (the fake then POSTs Stripe-signed webhooks to the listening app), a
// replayed webhook, a forged one, a renewal, a refund and a cancel at period end, read back as the
// user sees them (GET /api/billing/subscription/) and in the ledger.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BILLING_API, SUBSCRIBE_ROUTE } from '../../../contract/billing';
import type { Subscription } from '../../../contract/schemas/billing';
import { startFakeStripe, type FakeStripe } from '../../../scripts/card/fake-stripe';
import { signPortalToken } from '../../billing/cancel-token';
import type { Config } from '../../config';
import { loggableError } from '../../db/errors';
import { createServices, type Services } from '../../services';
import { eventually } from '../../test/eventually';
import { auth, createTestApp, createTestDb, recordingMailer, signedInUser, testConfig, type TestApp, type TestDb } from '../../test/helpers';
import { CARD_SIGNATURE_HEADER } from './card';

let fake: FakeStripe;
let testDb: TestDb;
let t: TestApp;
let services: Services;
let config: Config;
let admin: { id: number; key: string };
let cardPlanId: number;
let starsOnlyPlanId: number;

const silentLog = { info() {}, warn() {}, error() {} };

beforeAll(async () => {
  fake = await startFakeStripe();
  testDb = await createTestDb();
  config = testConfig({
    stripe: { secretKey: fake.secretKey, webhookSecret: fake.webhookSecret, api: { host: fake.host, port: fake.port, protocol: 'http' } },
  });
  // The services are built here (the test reads services.billing), so they and the test share one mailer.
  const mailer = recordingMailer();
  services = createServices({ config, db: testDb.db, mailer, log: silentLog });
  t = Object.assign(await createTestApp(testDb.db, { config, mailer, deps: { services } }), { mailer });
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  const address = t.app.server.address();
  if (!address || typeof address !== 'object') throw new Error('the app does not listen');
  fake.webhookUrl = `http://127.0.0.1:${address.port}${BILLING_API.cardWebhook}`;

  const account = await signedInUser(t);
  await t.db.query(`update users set role = 'admin' where id = $1`, [account.id]);
  t.app.sessions.forgetUser(account.id);
  admin = { id: account.id, key: account.key };
  const limits = { running_funnels: null, people: null, mailings: true, letters: true };
  const created = await t.app.inject({ method: 'POST', url: BILLING_API.adminPlans, headers: auth(admin.key), payload: { title: 'Pro', limits, price_card: 1299, card_currency: 'USD', price_stars: 500 } });
  expect(created.statusCode, created.body).toBe(201);
  cardPlanId = created.json().id;
  const starsOnly = await t.app.inject({ method: 'POST', url: BILLING_API.adminPlans, headers: auth(admin.key), payload: { title: 'Stars', limits, price_stars: 300 } });
  expect(starsOnly.statusCode, starsOnly.body).toBe(201);
  starsOnlyPlanId = starsOnly.json().id;
});

afterAll(async () => {
  await t?.close();
  await testDb?.drop().catch((error: unknown) => console.error(loggableError(error)));
  await fake?.close();
});

async function subscriptionOf(key: string): Promise<Subscription> {
  const res = await t.app.inject({ method: 'GET', url: BILLING_API.subscription, headers: auth(key) });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

async function ledgerOf(userId: number) {
  return t.db.query<{ key: string; kind: string; method: string; amount: number; currency: string }>(
    'select key, kind, method, amount, currency from billing_events where user_id = $1 order by id',
    [userId],
  );
}

async function checkout(key: string, planId = cardPlanId) {
  return t.app.inject({ method: 'POST', url: BILLING_API.cardCheckout, headers: auth(key), payload: { plan_id: planId } });
}

/** A new user who has paid for the card plan through the fake's checkout page (`beforePaying`: what is set up first). */
async function payingUser(beforePaying?: (user: { id: number }) => Promise<void>) {
  const user = await signedInUser(t);
  await beforePaying?.(user);
  const res = await checkout(user.key);
  expect(res.statusCode, res.body).toBe(200);
  const sessionId = new URL(res.json().url as string).pathname.split('/').at(-1)!;
  const paid = await fake.pay(sessionId);
  return { ...user, sessionId, subscription: paid.subscription, paymentEvent: paid.events[1] };
}

describe('card checkout', () => {
  it('sends the payer to the provider\'s page for a monthly subscription at the plan\'s card price, back to /sbscrb/', async () => {
    const user = await signedInUser(t);
    const res = await checkout(user.key);
    expect(res.statusCode, res.body).toBe(200);
    const url = new URL(res.json().url as string);
    expect(url.origin).toBe(fake.url);
    const session = fake.sessions.get(url.pathname.split('/').at(-1)!)!;
    expect(session).toMatchObject({
      mode: 'subscription',
      amount_total: 1299,
      currency: 'usd',
      success_url: 'https://funnels.test/sbscrb/?paid=1',
      cancel_url: 'https://funnels.test/sbscrb/',
      customer_email: user.email,
    });
    // Nothing is paid by opening the page.
    expect((await subscriptionOf(user.key)).state).toBe('free');
    expect(await ledgerOf(user.id)).toEqual([]);
  });

  it('refuses a plan not sold by card, an unknown plan and a visitor who is not signed in', async () => {
    const user = await signedInUser(t);
    const starsOnly = await checkout(user.key, starsOnlyPlanId);
    expect(starsOnly.statusCode).toBe(400);
    expect(starsOnly.json()).toMatchObject({ plan_id: ["This plan can't be paid by card."], codes: { plan_id: [{ code: 'not_sold_by_card' }] } });
    const unknown = await checkout(user.key, 999_999);
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toMatchObject({ codes: { plan_id: [{ code: 'does_not_exist' }] } });
    const anonymous = await t.app.inject({ method: 'POST', url: BILLING_API.cardCheckout, payload: { plan_id: cardPlanId } });
    expect(anonymous.statusCode).toBe(401);
    expect(fake.sessions.size).toBe(1); // the one of the test above, no other
  });
});

describe('card webhooks', () => {
  it('a signed invoice.paid makes the subscription active by card until the end of the period Stripe charged', async () => {
    const user = await payingUser();
    const subscription = await subscriptionOf(user.key);
    expect(subscription).toMatchObject({ state: 'active', method: 'card', plan: { id: cardPlanId } });
    expect(new Date(subscription.paid_until!).getTime()).toBe(user.subscription.current_period_end * 1000);
    expect(await ledgerOf(user.id)).toEqual([{ key: `card:event:${user.paymentEvent.id}`, kind: 'payment', method: 'card', amount: 1299, currency: 'USD' }]);
    expect(fake.deliveries.filter((d) => d.eventId === user.paymentEvent.id).map((d) => d.status)).toEqual([200]);
  });

  it('the same event delivered again is answered 200 and changes nothing', async () => {
    const user = await payingUser();
    const before = await subscriptionOf(user.key);
    const again = await fake.redeliver(user.paymentEvent.id);
    expect(again.status).toBe(200);
    expect(await subscriptionOf(user.key)).toEqual(before);
    expect(await ledgerOf(user.id)).toHaveLength(1);
  });

  it('refuses a webhook not signed with the endpoint\'s secret (400) and records nothing', async () => {
    const user = await signedInUser(t);
    // A copy of a real payment event, re-addressed to this user: what a forger would send.
    const model = (await payingUser()).paymentEvent;
    const forged = JSON.parse(JSON.stringify(model)) as typeof model & { data: { object: { parent: { subscription_details: { metadata: Record<string, string> } } } } };
    forged.id = 'evt_forged_0001';
    forged.data.object.parent.subscription_details.metadata.user_id = String(user.id);
    const body = JSON.stringify(forged);
    const sendWith = (signature: string | undefined) =>
      t.app.inject({ method: 'POST', url: BILLING_API.cardWebhook, headers: { 'content-type': 'application/json', ...(signature && { [CARD_SIGNATURE_HEADER]: signature }) }, payload: body });

    for (const signature of [fake.signature(body, Math.floor(Date.now() / 1000), 'whsec_not_the_endpoint_secret'), fake.signature(body.replace('forged', 'forgeD')), 'garbage', undefined]) {
      const res = await sendWith(signature);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toEqual({ detail: 'Invalid signature.' });
    }
    expect((await subscriptionOf(user.key)).state).toBe('free');
    expect(await ledgerOf(user.id)).toEqual([]);
    // The same bytes with the endpoint's signature are taken: the signature was all that was missing.
    const signed = await sendWith(fake.signature(body));
    expect(signed.statusCode, signed.body).toBe(200);
    expect((await subscriptionOf(user.key)).state).toBe('active');
  });

  it('a renewal extends the period to the end of the next one Stripe charged', async () => {
    const user = await payingUser();
    const renewal = await fake.renew(user.subscription.id);
    const nextEnd = fake.subscriptions.get(user.subscription.id)!.current_period_end * 1000;
    expect(nextEnd).toBeGreaterThan(user.subscription.current_period_end * 1000);
    const after = await eventually(() => subscriptionOf(user.key), (s) => new Date(s.paid_until!).getTime() === nextEnd, 'paid_until at the next period end');
    expect(after.state).toBe('active');
    expect((await ledgerOf(user.id)).map((row) => [row.key, row.kind])).toEqual([
      [`card:event:${user.paymentEvent.id}`, 'payment'],
      [`card:event:${renewal.id}`, 'renewal'],
    ]);
  });

  it('a refund ends the paid period, once however often it is delivered', async () => {
    const user = await payingUser();
    const refund = await fake.refund(user.subscription.id);
    expect(fake.deliveries.filter((d) => d.eventId === refund.id).map((d) => d.status)).toEqual([200]);
    const after = await subscriptionOf(user.key);
    expect(['active', 'cancelled']).not.toContain(after.state);
    expect(new Date(after.paid_until!).getTime()).toBeLessThanOrEqual(Date.now());
    expect((await fake.redeliver(refund.id)).status).toBe(200);
    expect((await ledgerOf(user.id)).map((row) => row.kind)).toEqual(['payment', 'refund']);
  });

  it('a refund that arrives before its payment is sent back for later (503), then recorded', async () => {
    const user = await signedInUser(t);
    const res = await checkout(user.key);
    const sessionId = new URL(res.json().url as string).pathname.split('/').at(-1)!;
    const webhookUrl = fake.webhookUrl;
    fake.webhookUrl = null; // the payment's webhook is held back
    let paid;
    try {
      paid = await fake.pay(sessionId);
    } finally {
      fake.webhookUrl = webhookUrl;
    }
    const refund = await fake.refund(paid.subscription.id);
    expect(fake.deliveries.filter((d) => d.eventId === refund.id).map((d) => d.status)).toEqual([503]);
    expect(await ledgerOf(user.id)).toEqual([]);
    expect((await fake.redeliver(paid.events[1].id)).status).toBe(200);
    expect((await fake.redeliver(refund.id)).status).toBe(200);
    expect((await ledgerOf(user.id)).map((row) => row.kind)).toEqual(['payment', 'refund']);
  });
});

describe('cancel at period end', () => {
  it('cancelling renewal tells Stripe to stop at the period end, and access lasts until then', async () => {
    const user = await payingUser();
    const token = new URL(await services.billing.cancelLink(user.id)).searchParams.get('token')!;
    const res = await t.app.inject({ method: 'POST', url: BILLING_API.cancel, payload: { token } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ method: 'card', renews: false });
    expect(fake.subscriptions.get(user.subscription.id)?.cancel_at_period_end).toBe(true);
    const after = await subscriptionOf(user.key);
    expect(after.state).toBe('cancelled');
    expect(new Date(after.paid_until!).getTime()).toBe(user.subscription.current_period_end * 1000);
  });
});

describe('paying twice', () => {
  it('a user whose subscription renews is not sent to pay again (409); once its renewal is cancelled, they may', async () => {
    const user = await payingUser();
    const sessionsBefore = fake.sessions.size;
    const twice = await checkout(user.key);
    expect(twice.statusCode).toBe(409);
    expect(twice.json()).toMatchObject({ code: 'already_subscribed' });
    expect(fake.sessions.size).toBe(sessionsBefore);
    const token = new URL(await services.billing.cancelLink(user.id)).searchParams.get('token')!;
    expect((await t.app.inject({ method: 'POST', url: BILLING_API.cancel, payload: { token } })).statusCode).toBe(200);
    const again = await checkout(user.key);
    expect(again.statusCode, again.body).toBe(200);
    expect(fake.sessions.size).toBe(sessionsBefore + 1);
  });
});

describe('provider unreachable', () => {
  it('the checkout answers 503 card_provider_down, and a signed refund is sent back for later (503), never a 500', async () => {
    // The same keys, but Stripe's API at a port where nothing listens.
    const closed = await startFakeStripe();
    const deadPort = closed.port;
    await closed.close();
    const config = testConfig({ stripe: { secretKey: fake.secretKey, webhookSecret: fake.webhookSecret, api: { host: '127.0.0.1', port: deadPort, protocol: 'http' } } });
    const down = await createTestApp(testDb.db, { config });
    try {
      const user = await signedInUser(down);
      const res = await down.app.inject({ method: 'POST', url: BILLING_API.cardCheckout, headers: auth(user.key), payload: { plan_id: cardPlanId } });
      expect(res.statusCode, res.body).toBe(503);
      expect(res.json()).toMatchObject({ code: 'card_provider_down' });

      const paying = await payingUser();
      const refund = await fake.refund(paying.subscription.id);
      const body = JSON.stringify(refund);
      const hook = await down.app.inject({ method: 'POST', url: BILLING_API.cardWebhook, headers: { 'content-type': 'application/json', [CARD_SIGNATURE_HEADER]: fake.signature(body) }, payload: body });
      expect(hook.statusCode, hook.body).toBe(503);
      expect(hook.headers['retry-after']).toBeDefined();
    } finally {
      await down.close();
    }
  });
});

describe('card payment off', () => {
  it('without STRIPE_SECRET_KEY the checkout says card payment is not set up, and the webhook takes nothing', async () => {
    const offConfig = testConfig({ stripe: null });
    const off = await createTestApp(testDb.db, { config: offConfig });
    try {
      const user = await signedInUser(off);
      const res = await off.app.inject({ method: 'POST', url: BILLING_API.cardCheckout, headers: auth(user.key), payload: { plan_id: cardPlanId } });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ detail: 'Card payment is not set up on this server.', code: 'card_payments_off' });
      const hook = await off.app.inject({ method: 'POST', url: BILLING_API.cardWebhook, headers: { 'content-type': 'application/json' }, payload: '{}' });
      expect(hook.statusCode).toBe(400);
    } finally {
      await off.close();
    }
  });
});

// --- the provider's other subscription events -----------------------------------------------------

/** Posts a copy of a fake's event signed with another secret: what a forger would send. */
async function forge(event: { id: string }) {
  const body = JSON.stringify({ ...event, id: `${event.id}_forged` });
  return t.app.inject({
    method: 'POST',
    url: BILLING_API.cardWebhook,
    headers: { 'content-type': 'application/json', [CARD_SIGNATURE_HEADER]: fake.signature(body, Math.floor(Date.now() / 1000), 'whsec_not_the_endpoint_secret') },
    payload: body,
  });
}

const deliveryStatuses = (eventId: string) => fake.deliveries.filter((d) => d.eventId === eventId).map((d) => d.status);
const mailsTo = (to: string, subject: string) => t.mailer.messages.filter((m) => m.to === to && m.subject.includes(subject));

describe('invoice.payment_failed', () => {
  it('keeps access to paid_until and tells the owner once per invoice, by e-mail in their language, with a link to update the card', async () => {
    const user = await payingUser();
    await t.db.query(`update users set language = 'ru' where id = $1`, [user.id]);
    const before = await subscriptionOf(user.key);
    const failed = await fake.failPayment(user.subscription.id);
    expect(deliveryStatuses(failed.id)).toEqual([200]);

    const [mail] = await eventually(() => mailsTo(user.email, 'Не удалось продлить подписку'), (found) => found.length === 1, 'the "payment failed" e-mail');
    expect(portalLinkIn(mail.text)).not.toBeNull();
    expect(mail.text).toContain('12,99');
    expect(await subscriptionOf(user.key)).toEqual(before);
    expect((await ledgerOf(user.id)).map((row) => [row.key, row.kind, row.amount])).toEqual([
      [`card:event:${user.paymentEvent.id}`, 'payment', 1299],
      [`card:event:${failed.id}`, 'payment_failed', 1299],
    ]);

    // The same event again: nothing recorded, nobody told again.
    expect((await fake.redeliver(failed.id)).status).toBe(200);
    // Stripe's retry of the same invoice (a new event): recorded, but the owner was told already.
    const retry = await fake.failPayment(user.subscription.id);
    expect(deliveryStatuses(retry.id)).toEqual([200]);
    await services.background.settle();
    expect((await ledgerOf(user.id)).map((row) => row.kind)).toEqual(['payment', 'payment_failed', 'payment_failed']);
    expect(mailsTo(user.email, 'Не удалось продлить подписку')).toHaveLength(1);
    expect(await subscriptionOf(user.key)).toEqual(before);

    // Refused unsigned: 400, nothing recorded.
    expect((await forge(failed)).statusCode).toBe(400);
    expect(await ledgerOf(user.id)).toHaveLength(3);
  });
});

/** Our signed portal link in a notice's text (path and query, as the app is asked), or null. */
function portalLinkIn(text: string): string | null {
  const prefix = `${config.publicUrl}${BILLING_API.cardPortal}?token=`;
  const at = text.indexOf(prefix);
  if (at < 0) return null;
  const token = /^[^\s"<]+/.exec(text.slice(at + prefix.length))?.[0] ?? '';
  return `${BILLING_API.cardPortal}?token=${token}`;
}

const openLink = (url: string) => t.app.inject({ method: 'GET', url });

describe('the card portal link of the "payment failed" notice', () => {
  // A provider's portal session URL is short-lived: the notice carries our stable link, which
  // makes a fresh session each time it is opened.
  it('links our signed URL, not a provider session; each opening is a fresh session of the payer\'s customer (303)', async () => {
    const user = await payingUser();
    const sessionsBefore = fake.portalSessions.length;
    await fake.failPayment(user.subscription.id);
    const [mail] = await eventually(() => mailsTo(user.email, 'could not renew'), (found) => found.length === 1, 'the "payment failed" e-mail');
    const link = portalLinkIn(mail.text);
    expect(link, mail.text).not.toBeNull();
    // Nothing made at the provider until the link is opened (a session made now would expire unread).
    expect(fake.portalSessions.length).toBe(sessionsBefore);

    const first = await openLink(link!);
    const second = await openLink(link!);
    expect([first.statusCode, second.statusCode]).toEqual([303, 303]);
    expect(first.headers.location).not.toBe(second.headers.location);
    const opened = fake.portalSessions.slice(sessionsBefore);
    expect(opened.map((session) => session.url)).toEqual([first.headers.location, second.headers.location]);
    expect(opened.map((session) => session.customer)).toEqual([user.subscription.customer, user.subscription.customer]);
    expect((await fetch(String(first.headers.location))).status).toBe(200);
  });

  it('a forged token, or a cancel link\'s token, is refused on `token` (400) and opens no session', async () => {
    const user = await payingUser();
    const cancelUrl = (await subscriptionOf(user.key)).cancel_url;
    expect(cancelUrl).not.toBeNull();
    const cancelToken = new URL(cancelUrl!).searchParams.get('token')!;
    const sessionsBefore = fake.portalSessions.length;
    for (const token of [cancelToken, `${user.id}.1.${'A'.repeat(43)}`, 'nonsense']) {
      const res = await openLink(`${BILLING_API.cardPortal}?token=${encodeURIComponent(token)}`);
      expect(res.statusCode, token).toBe(400);
      expect(res.json().token).toEqual([expect.stringContaining('not valid')]);
    }
    const missing = await openLink(BILLING_API.cardPortal);
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toHaveProperty('token');
    expect(fake.portalSessions.length).toBe(sessionsBefore);
  });

  it('sends to /subscribe/ when the link is of an earlier subscription, there is no card subscription, or the provider fails', async () => {
    const subscribe = `${config.publicUrl}${SUBSCRIBE_ROUTE}`;
    const user = await payingUser();
    await fake.failPayment(user.subscription.id);
    const [mail] = await eventually(() => mailsTo(user.email, 'could not renew'), (found) => found.length === 1, 'the "payment failed" e-mail');
    const link = portalLinkIn(mail.text)!;
    expect(link).not.toBeNull();
    const sessionsBefore = fake.portalSessions.length;

    // The provider does not know the subscription (its lookup fails): /subscribe/, not a 500.
    await t.db.query(`update subscriptions set external_id = 'sub_unknown' where user_id = $1`, [user.id]);
    const providerFails = await openLink(link);
    expect([providerFails.statusCode, providerFails.headers.location]).toEqual([303, subscribe]);
    await t.db.query(`update subscriptions set external_id = $2 where user_id = $1`, [user.id, user.subscription.id]);
    expect((await openLink(link)).headers.location).not.toBe(subscribe);

    // A newer subscription (its generation is what a first payment raises): the old link goes to /subscribe/.
    await t.db.query(`update subscriptions set cancel_generation = cancel_generation + 1 where user_id = $1`, [user.id]);
    const old = await openLink(link);
    expect([old.statusCode, old.headers.location]).toEqual([303, subscribe]);

    // Someone without any subscription, holding a genuine link.
    const nobody = await signedInUser(t);
    const none = await openLink(`${BILLING_API.cardPortal}?token=${signPortalToken(config.secretKey, { userId: nobody.id, generation: 0 })}`);
    expect([none.statusCode, none.headers.location]).toEqual([303, subscribe]);
    expect(fake.portalSessions.length).toBe(sessionsBefore + 1);
  });
});

describe('customer.subscription.deleted', () => {
  it('stops the renewal of the subscription it ended (a cancel in the ledger), and access lasts to paid_until, not less', async () => {
    const user = await payingUser();
    const before = await subscriptionOf(user.key);
    const ended = await fake.endSubscription(user.subscription.id);
    expect(deliveryStatuses(ended.id)).toEqual([200]);
    const after = await subscriptionOf(user.key);
    expect(after).toMatchObject({ state: 'cancelled', paid_until: before.paid_until, grace_until: before.grace_until, cancel_url: null });
    expect((await ledgerOf(user.id)).map((row) => [row.key, row.kind])).toEqual([
      [`card:event:${user.paymentEvent.id}`, 'payment'],
      [`card:event:${ended.id}`, 'cancel'],
    ]);
    expect((await fake.redeliver(ended.id)).status).toBe(200);
    expect(await subscriptionOf(user.key)).toEqual(after);
    expect(await ledgerOf(user.id)).toHaveLength(2);
    expect((await forge(ended)).statusCode).toBe(400);
    expect(await ledgerOf(user.id)).toHaveLength(2);

    // An old provider subscription ending does not touch the one a user has now (as after paying again).
    const other = await payingUser();
    await t.db.query(`update subscriptions set external_id = 'sub_newer' where user_id = $1`, [other.id]);
    const oldEnded = await fake.endSubscription(other.subscription.id);
    expect(deliveryStatuses(oldEnded.id)).toEqual([200]);
    expect((await subscriptionOf(other.key)).state).toBe('active');
    expect((await ledgerOf(other.id)).map((row) => row.kind)).toEqual(['payment']);
  });
});

describe('customer.subscription.updated (cancel or resume in the provider\'s portal)', () => {
  it('renews follows cancel_at_period_end, each change once, and the renewal can be cancelled by the link again after a resume', async () => {
    const user = await payingUser();
    const before = await subscriptionOf(user.key);
    const cancelled = (await fake.setCancelAtPeriodEnd(user.subscription.id, true))!;
    expect(deliveryStatuses(cancelled.id)).toEqual([200]);
    expect(await subscriptionOf(user.key)).toMatchObject({ state: 'cancelled', paid_until: before.paid_until });
    expect((await fake.redeliver(cancelled.id)).status).toBe(200);
    expect((await ledgerOf(user.id)).map((row) => row.kind)).toEqual(['payment', 'cancel']);

    const resumed = (await fake.setCancelAtPeriodEnd(user.subscription.id, false))!;
    expect(deliveryStatuses(resumed.id)).toEqual([200]);
    expect(await subscriptionOf(user.key)).toMatchObject({ state: 'active', paid_until: before.paid_until });
    expect((await fake.redeliver(resumed.id)).status).toBe(200);
    expect((await ledgerOf(user.id)).map((row) => [row.key, row.kind])).toEqual([
      [`card:event:${user.paymentEvent.id}`, 'payment'],
      [`card:event:${cancelled.id}`, 'cancel'],
      [`card:event:${resumed.id}`, 'resume'],
    ]);
    expect((await forge(cancelled)).statusCode).toBe(400);
    expect((await subscriptionOf(user.key)).state).toBe('active');

    // Cancelled by the signed link after the resume: it cancels (not taken for the first cancel).
    const token = new URL(await services.billing.cancelLink(user.id)).searchParams.get('token')!;
    const res = await t.app.inject({ method: 'POST', url: BILLING_API.cancel, payload: { token } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ renews: false });
    expect((await subscriptionOf(user.key)).state).toBe('cancelled');
  });
});

describe('charge.refunded made in the provider\'s dashboard', () => {
  it('a partial refund is recorded with its amount and the period stays, the partner\'s commission untouched; the rest refunded ends it and voids the commission', async () => {
    const partner = await signedInUser(t);
    const [link] = await t.db.query<{ id: number }>(`insert into partner_links (user_id, uid, is_default) values ($1, $2, true) returning id`, [partner.id, `p${partner.id}x`]);
    const partnerLedger = () => t.db.query<{ kind: string; amount: number }>('select kind, amount from partner_ledger where user_id = $1 order by id', [partner.id]);
    const user = await payingUser(async ({ id }) => {
      await t.db.query('insert into partner_attributions (user_id, link_id, created_at) values ($1, $2, now())', [id, link.id]);
    });
    const before = await subscriptionOf(user.key);
    const part = await fake.refund(user.subscription.id, 300);
    expect(deliveryStatuses(part.id)).toEqual([200]);
    expect(await subscriptionOf(user.key)).toEqual(before);
    expect((await fake.redeliver(part.id)).status).toBe(200);
    expect((await forge(part)).statusCode).toBe(400);
    expect((await ledgerOf(user.id)).map((row) => [row.kind, row.amount])).toEqual([
      ['payment', 1299],
      ['partial_refund', 300],
    ]);
    expect(await subscriptionOf(user.key)).toEqual(before);

    // The partner's commission stays whole: the partner programme voids or claws back whole commissions only.
    expect(await partnerLedger()).toEqual([{ kind: 'commission', amount: 389 }]);

    const rest = await fake.refund(user.subscription.id);
    expect(deliveryStatuses(rest.id)).toEqual([200]);
    const after = await subscriptionOf(user.key);
    expect(['active', 'cancelled']).not.toContain(after.state);
    expect((await ledgerOf(user.id)).map((row) => [row.kind, row.amount])).toEqual([
      ['payment', 1299],
      ['partial_refund', 300],
      ['refund', 999],
    ]);
    expect((await partnerLedger()).map((line) => line.kind)).toEqual(['commission', 'void']);
  });
});
