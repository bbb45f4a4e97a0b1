// Billing core against the API and the database (PGlite, or PostgreSQL with TEST_DATABASE_URL):
// nothing gated on a fresh install; 402 for each gated action once a paid plan exists; the ledger
// applies each event once (renewal extends, refund ends, cancel keeps access) and the database
// refuses to change it; the grace period, the stop and the resume on payment; the signed cancel
// link; admin-only plans and the calls that need no login.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BILLING_API, type AdminPlan, type CancelInfo, type Plan, type Subscription } from '../../contract/billing';
import { FUNNELS_API, type Funnel } from '../../contract/funnels';
import { LETTERS_API, type Series } from '../../contract/letters';
import { MAILINGS_API, type Mailing } from '../../contract/mailings';
import { startFakeBotApi } from '../../scripts/telegram/fake-bot-api';
import { buildApp } from '../app';
import { billingEvents, funnels, letterSeries, mailings, subscriptions } from '../db/schema';
import { createServices, type Services } from '../services';
import { addPerson, addRunnableStage, call, connectFunnel, ok, type FunnelsTestEnv } from '../test/funnels-api';
import { eventually } from '../test/eventually';
import { createTestDb, expectJsonError, recordingMailer, signedInUser, TEST_BOT_TOKEN, testClock, testConfig, type TestApp } from '../test/helpers';
import type { SubscriptionRow } from '../db/schema';
import type { BillingEvent } from './ports';
import { startBillingSweeps } from './sweeper';

const DAY_S = 86_400;
const INACTIVE = { detail: "Subscription isn't active", code: 'subscription_inactive' };

let env: FunnelsTestEnv;
let services: Services;
const cancelled: SubscriptionRow[] = [];

beforeAll(async () => {
  const testDb = await createTestDb();
  const fake = await startFakeBotApi();
  const config = testConfig({ telegramApiRoot: fake.url });
  const mailer = recordingMailer();
  const clock = testClock();
  const synced: number[] = [];
  const quiet = { info() {}, warn() {}, error() {} };
  services = createServices({
    config,
    db: testDb.db,
    mailer,
    log: quiet,
    now: clock.now,
    funnelRuntime: {
      async sync(funnelId) {
        synced.push(funnelId);
      },
      stagesChanged() {},
    },
  });
  // The Stars side of cancelling is the Stars engineer's fake; here it records the call.
  services.billing.registerPaymentMethod('stars', {
    async cancelRenewal(subscription) {
      cancelled.push(subscription);
    },
  });
  const app = await buildApp({ config, db: testDb.db, mailer, logger: false, services });
  await app.ready();
  const t: TestApp = { app, db: testDb.db, config, mailer, clock, close: () => app.close() };
  env = {
    testDb,
    t,
    fake,
    synced,
    stagesChanged: [],
    async close() {
      await app.close();
      await fake.close();
      await testDb.drop();
    },
  };
});

afterAll(async () => {
  await env?.close();
});

async function newUser(admin = false): Promise<{ id: number; key: string; email: string }> {
  const account = await signedInUser(env.t);
  if (admin) await env.t.db.query(`update users set role = 'admin' where id = $1`, [account.id]);
  return { id: account.id, key: account.key, email: account.email };
}

/** A funnel that can run (a stage with a message) and one person in it. */
async function runnableFunnel(key: string): Promise<Funnel> {
  const funnel = await connectFunnel(env, key);
  await addRunnableStage(env, key, funnel.id, { title: 'Hello' });
  await addPerson(env, funnel.id);
  return funnel;
}

const draftMailing = { title: 'Sale', message: { text: 'Hello!' }, audience: { stages_in: [], stages_out: [], tags_in: [], tags_out: [] } };

async function seriesReady(key: string, funnelId: number): Promise<Series> {
  const series = ok<Series>(await call(env, key, 'POST', LETTERS_API.series(funnelId), { name: 'Warm-up' }), 201);
  ok(
    await call(env, key, 'POST', LETTERS_API.letters(series.id), {
      name: 'A',
      message: { text: 'Hi' },
      sending_time: { kind: 'through', every: 1, unit: 'hours', time_of_day: null },
      enabled: true,
    }),
    201,
  );
  return series;
}

let planCounter = 0;
/** A plan that lifts every limit, sold for Stars (gating turns on with it). */
async function paidPlan(): Promise<AdminPlan> {
  planCounter += 1;
  return services.billing.createPlan({
    title: `Pro ${planCounter}`,
    limits: { running_funnels: null, people: null, mailings: true, letters: true },
    price_stars: 500,
  });
}

let chargeCounter = 0;
function starsEvent(userId: number, planId: number | null, kind: BillingEvent['kind'], extra: Partial<BillingEvent> = {}): BillingEvent {
  chargeCounter += 1;
  return { key: `stars:charge:test-${chargeCounter}`, userId, kind, method: 'stars', planId, amount: 500, currency: 'XTR', paidUntil: null, externalId: `charge-${chargeCounter}`, chargeId: `charge-${chargeCounter}`, ...extra };
}

const subscriptionOf = async (key: string) => ok<Subscription>(await call(env, key, 'GET', BILLING_API.subscription));
const cancelUrl = (link: string) => new URL(link).searchParams.get('token') ?? '';

// Order matters: the first test needs a database with no paid plan.
describe('billing', () => {
  it('gates nothing on a fresh install: two bots run, a mailing goes out, a series switches on', async () => {
    const { key } = await newUser();
    // A free plan alone, or a paid plan archived, does not turn gating on.
    const free = await services.billing.createPlan({ title: 'Free', is_free: true, limits: { running_funnels: 1, people: 10, mailings: false, letters: false } });
    const old = await services.billing.createPlan({ title: 'Old', limits: { running_funnels: null, people: null, mailings: true, letters: true }, price_stars: 100, archived: true });
    expect(await subscriptionOf(key)).toMatchObject({ gated: false, state: 'ungated', limits: { running_funnels: null, people: null, mailings: true, letters: true } });
    const one = await runnableFunnel(key);
    const two = await runnableFunnel(key);
    ok(await call(env, key, 'POST', FUNNELS_API.run(one.id)));
    ok(await call(env, key, 'POST', FUNNELS_API.run(two.id)));
    const mailing = ok<Mailing>(await call(env, key, 'POST', MAILINGS_API.mailings(one.id), draftMailing), 201);
    expect(ok<Mailing>(await call(env, key, 'POST', MAILINGS_API.send(mailing.id), {})).state).toBe('sending');
    const series = await seriesReady(key, one.id);
    expect(ok<Series>(await call(env, key, 'POST', LETTERS_API.enable(series.id))).enabled).toBe(true);
    expect((await subscriptionOf(key)).usage).toEqual({ running_funnels: 2, people: 2 });
    await services.billing.removePlan(free.id);
    await services.billing.removePlan(old.id);
  });

  it('refuses each gated action with 402 once a paid plan exists, and allows them after a payment', async () => {
    const plan = await paidPlan();
    const { id, key } = await newUser();
    expect(await subscriptionOf(key)).toMatchObject({ gated: true, state: 'free', plan: null, limits: { running_funnels: 1, people: 500, mailings: false, letters: false } });
    const one = await runnableFunnel(key);
    const two = await runnableFunnel(key);
    ok(await call(env, key, 'POST', FUNNELS_API.run(one.id)));
    // Running the one already running again is not one more.
    ok(await call(env, key, 'POST', FUNNELS_API.run(one.id)));
    expect(expectJsonError(await call(env, key, 'POST', FUNNELS_API.run(two.id)), 402)).toEqual(INACTIVE);
    const mailing = ok<Mailing>(await call(env, key, 'POST', MAILINGS_API.mailings(one.id), draftMailing), 201);
    expect(expectJsonError(await call(env, key, 'POST', MAILINGS_API.send(mailing.id), {}), 402)).toEqual(INACTIVE);
    const later = new Date(env.t.clock.now().getTime() + 3_600_000).toISOString();
    expect(expectJsonError(await call(env, key, 'POST', MAILINGS_API.send(mailing.id), { scheduled_at: later }), 402)).toEqual(INACTIVE);
    const series = await seriesReady(key, one.id);
    expect(expectJsonError(await call(env, key, 'POST', LETTERS_API.enable(series.id)), 402)).toEqual(INACTIVE);
    // Nothing changed behind the refusals.
    const [stillStopped] = await env.t.db.orm.select().from(funnels).where(eq(funnels.id, two.id));
    expect(stillStopped.state).not.toBe('running');
    expect((await env.t.db.orm.select().from(mailings).where(eq(mailings.id, mailing.id)))[0].state).toBe('draft');

    expect(await services.billing.applyEvent(starsEvent(id, plan.id, 'payment'))).toEqual({ applied: true });
    expect(await subscriptionOf(key)).toMatchObject({ gated: true, state: 'active', method: 'stars', plan: { id: plan.id } });
    ok(await call(env, key, 'POST', FUNNELS_API.run(two.id)));
    expect(ok<Mailing>(await call(env, key, 'POST', MAILINGS_API.send(mailing.id), {})).state).toBe('sending');
    expect(ok<Series>(await call(env, key, 'POST', LETTERS_API.enable(series.id))).enabled).toBe(true);
  });

  it('another user’s mailing is a 404 before any 402', async () => {
    await paidPlan();
    const owner = await newUser();
    const funnel = await runnableFunnel(owner.key);
    const mailing = ok<Mailing>(await call(env, owner.key, 'POST', MAILINGS_API.mailings(funnel.id), draftMailing), 201);
    const stranger = await newUser();
    expect(expectJsonError(await call(env, stranger.key, 'POST', MAILINGS_API.send(mailing.id), {}), 404)).toMatchObject({ code: 'not_found' });
  });

  it('applies each event once: a payment twice, a renewal extends, a refund ends the period, a cancel keeps access', async () => {
    const plan = await paidPlan();
    const { id, key } = await newUser();
    const start = env.t.clock.now().getTime();
    const heard: Array<{ kind: 'payment' | 'refund'; payerUserId: number; paymentKey: string; amount?: number; currency?: string }> = [];
    services.billing.setPartnerHooks({
      async onPayment({ payerUserId, paymentKey, amount, currency }) {
        if (payerUserId === id) heard.push({ kind: 'payment', payerUserId, paymentKey, amount, currency });
      },
      async onRefund({ payerUserId, paymentKey }) {
        if (payerUserId === id) heard.push({ kind: 'refund', payerUserId, paymentKey });
      },
    });
    const payment = starsEvent(id, plan.id, 'payment');
    expect(await services.billing.applyEvent(payment)).toEqual({ applied: true });
    const first = await subscriptionOf(key);
    expect(new Date(first.paid_until!).getTime()).toBe(start + 30 * DAY_S * 1000);
    // The same update again (Telegram retried): nothing changes, nothing is added.
    expect(await services.billing.applyEvent(payment)).toEqual({ applied: false });
    expect(await subscriptionOf(key)).toEqual(first);
    expect(await env.t.db.orm.select().from(billingEvents).where(eq(billingEvents.userId, id))).toHaveLength(1);

    // A renewal extends from the end of the paid period.
    expect(await services.billing.applyEvent(starsEvent(id, plan.id, 'renewal'))).toEqual({ applied: true });
    expect(new Date((await subscriptionOf(key)).paid_until!).getTime()).toBe(start + 60 * DAY_S * 1000);

    // Cancelled: no renewal, access to the end of the period.
    await services.billing.cancelRenewal(id);
    const afterCancel = await subscriptionOf(key);
    expect(afterCancel).toMatchObject({ state: 'cancelled', limits: { mailings: true } });
    expect(new Date(afterCancel.paid_until!).getTime()).toBe(start + 60 * DAY_S * 1000);
    expect(cancelled.at(-1)).toMatchObject({ userId: id, externalId: payment.externalId });

    // A refund ends the period at once, without grace.
    const refund = { ...starsEvent(id, plan.id, 'refund'), key: `stars:refund:${payment.chargeId}`, refundOfKey: payment.key };
    expect(await services.billing.applyEvent(refund)).toEqual({ applied: true });
    expect(await subscriptionOf(key)).toMatchObject({ state: 'ended', limits: { running_funnels: 1, mailings: false } });
    expect(await services.billing.applyEvent(refund)).toEqual({ applied: false });
    const kinds = (await env.t.db.orm.select().from(billingEvents).where(eq(billingEvents.userId, id))).map((row) => row.kind);
    expect(kinds).toEqual(['payment', 'renewal', 'cancel', 'refund']);
    // The partner programme heard each payment and the refund once, after they were applied.
    expect(heard.map(({ kind, paymentKey }) => [kind, paymentKey])).toEqual([
      ['payment', payment.key],
      ['payment', expect.stringMatching(/^stars:charge:/)],
      ['refund', payment.key],
    ]);
    expect(heard[0]).toMatchObject({ amount: 500, currency: 'XTR' });
  });

  it('the database refuses to change or delete a ledger line', async () => {
    const plan = await paidPlan();
    const { id } = await newUser();
    await services.billing.applyEvent(starsEvent(id, plan.id, 'payment'));
    await expect(env.t.db.query(`update billing_events set amount = 1 where user_id = $1`, [id])).rejects.toThrow(/append-only/);
    await expect(env.t.db.query(`delete from billing_events where user_id = $1`, [id])).rejects.toThrow(/append-only/);
    await expect(env.t.db.query(`truncate billing_events`)).rejects.toThrow(/append-only/);
    const [line] = await env.t.db.orm.select().from(billingEvents).where(eq(billingEvents.userId, id));
    expect(line.amount).toBe(500);
  });

  it('after the paid period: grace (bots answer, the owner is told once), then what is over the free plan stops, and a payment resumes it', async () => {
    const plan = await paidPlan();
    const { id, key, email } = await newUser();
    await services.billing.applyEvent(starsEvent(id, plan.id, 'payment'));
    // The payment's own notice comes first (subscription-notice.test.ts covers it).
    expect((await env.t.mailer.next(email)).subject).toMatch(/subscription is active/);
    const one = await runnableFunnel(key);
    const two = await runnableFunnel(key);
    ok(await call(env, key, 'POST', FUNNELS_API.run(one.id)));
    ok(await call(env, key, 'POST', FUNNELS_API.run(two.id)));
    const sending = ok<Mailing>(await call(env, key, 'POST', MAILINGS_API.mailings(one.id), draftMailing), 201);
    ok(await call(env, key, 'POST', MAILINGS_API.send(sending.id), {}));
    const scheduled = ok<Mailing>(await call(env, key, 'POST', MAILINGS_API.mailings(two.id), draftMailing), 201);
    const at = new Date(env.t.clock.now().getTime() + 40 * DAY_S * 1000).toISOString();
    ok(await call(env, key, 'POST', MAILINGS_API.send(scheduled.id), { scheduled_at: at }));
    const series = await seriesReady(key, one.id);
    ok(await call(env, key, 'POST', LETTERS_API.enable(series.id)));
    const [{ enabledAt }] = await env.t.db.orm.select().from(letterSeries).where(eq(letterSeries.id, series.id));

    env.t.clock.advance(31 * DAY_S);
    await services.billing.sweep();
    await services.billing.sweep();
    const notice = await env.t.mailer.next(email);
    expect(notice.subject).toMatch(/subscription has ended/);
    expect(notice.text).toContain('https://funnels.test/subscribe/');
    expect(notice.text).toContain('https://funnels.test/cancel/?token=');
    expect(env.t.mailer.messages.filter((m) => m.to === email)).toHaveLength(0);
    expect(await subscriptionOf(key)).toMatchObject({ state: 'grace' });
    const stateOf = async (funnelId: number) => (await env.t.db.orm.select().from(funnels).where(eq(funnels.id, funnelId)))[0];
    expect((await stateOf(one.id)).state).toBe('running');
    expect((await stateOf(two.id)).state).toBe('running');

    env.t.clock.advance(3 * DAY_S);
    env.synced.length = 0;
    await Promise.all([services.billing.sweep(), services.billing.sweep()]);
    expect(await subscriptionOf(key)).toMatchObject({ state: 'ended', usage: { running_funnels: 1 } });
    expect(await stateOf(one.id)).toMatchObject({ state: 'running' });
    expect(await stateOf(two.id)).toMatchObject({ state: 'stopped', stopReason: 'billing' });
    // (Earlier tests' subscriptions ended too: their funnels are told as well.)
    expect(env.synced).toContain(two.id);
    expect(env.synced).not.toContain(one.id);
    const mailingOf = async (mailingId: number) => ok<Mailing>(await call(env, key, 'GET', MAILINGS_API.mailing(mailingId)));
    expect(await mailingOf(sending.id)).toMatchObject({ state: 'paused', pause_reason: 'billing' });
    expect(await mailingOf(scheduled.id)).toMatchObject({ state: 'paused', pause_reason: 'billing' });
    expect(ok<Series>(await call(env, key, 'GET', LETTERS_API.oneSeries(series.id))).enabled).toBe(false);
    // The owner cannot resume it themselves while the subscription is over.
    expect(expectJsonError(await call(env, key, 'POST', MAILINGS_API.resume(sending.id)), 402)).toEqual(INACTIVE);

    // A payment resumes exactly what billing stopped, without the owner doing anything.
    await services.billing.applyEvent(starsEvent(id, plan.id, 'payment'));
    expect(await stateOf(two.id)).toMatchObject({ state: 'running', stopReason: null });
    expect(env.synced).toContain(two.id);
    expect(await mailingOf(sending.id)).toMatchObject({ state: 'sending', pause_reason: null });
    const rescheduled = await mailingOf(scheduled.id);
    expect(rescheduled.state).toBe('scheduled');
    expect(new Date(rescheduled.scheduled_at!).getTime()).toBe(new Date(at).getTime());
    const [resumed] = await env.t.db.orm.select().from(letterSeries).where(eq(letterSeries.id, series.id));
    expect(resumed.enabledAt?.getTime()).toBe(enabledAt?.getTime());
    expect(resumed.billingPausedEnabledAt).toBeNull();
  });

  it('cancels from a signed link with no login; a forged or an older subscription’s link is refused', async () => {
    const plan = await paidPlan();
    const { id, key } = await newUser();
    await services.billing.applyEvent(starsEvent(id, plan.id, 'payment'));
    const link = await services.billing.cancelLink(id);
    expect(link).toMatch(/^https:\/\/funnels\.test\/cancel\/\?token=/);
    const token = cancelUrl(link);
    const noLogin = (method: 'GET' | 'POST', body?: object) =>
      env.t.app.inject({ method, url: method === 'GET' ? `${BILLING_API.cancel}?token=${encodeURIComponent(body ? '' : token)}` : BILLING_API.cancel, ...(body ? { payload: body } : {}) });
    const preview = ok<CancelInfo>(await noLogin('GET'));
    expect(preview).toMatchObject({ plan: { id: plan.id }, method: 'stars', renews: true });

    const forged = token.replace(/^(\d+)\./, `${id + 1}.`);
    for (const bad of [forged, `${token.slice(0, -2)}AA`, 'nonsense']) {
      const res = await env.t.app.inject({ method: 'POST', url: BILLING_API.cancel, payload: { token: bad } });
      expect(expectJsonError(res, 400)).toMatchObject({ token: [expect.stringMatching(/link/)] });
    }
    expect((await subscriptionOf(key)).state).toBe('active');

    const done = ok<CancelInfo>(await env.t.app.inject({ method: 'POST', url: BILLING_API.cancel, payload: { token } }));
    expect(done).toMatchObject({ renews: false, paid_until: preview.paid_until });
    expect(await subscriptionOf(key)).toMatchObject({ state: 'cancelled' });

    // A new subscription: the old link no longer cancels it.
    await services.billing.applyEvent(starsEvent(id, plan.id, 'payment'));
    const old = await env.t.app.inject({ method: 'POST', url: BILLING_API.cancel, payload: { token } });
    expect(expectJsonError(old, 400)).toMatchObject({ token: [expect.stringMatching(/earlier subscription/)] });
    expect(await subscriptionOf(key)).toMatchObject({ state: 'active' });
    const missing = await env.t.app.inject({ method: 'GET', url: BILLING_API.cancel });
    expect(expectJsonError(missing, 400)).toMatchObject({ token: ['This field is required.'] });
  });

  it('plans: anyone lists them, only admins edit them (403 otherwise), with field errors, and a used plan is archived instead of deleted', async () => {
    const admin = await newUser(true);
    const someone = await newUser();
    const body = { title: 'Team', limits: { running_funnels: 10, people: 10000, mailings: true, letters: true }, price_stars: 900, price_card: 1900, card_currency: 'USD' };
    for (const [method, url] of [
      ['GET', BILLING_API.adminPlans],
      ['POST', BILLING_API.adminPlans],
      ['PATCH', BILLING_API.adminPlan(1)],
      ['DELETE', BILLING_API.adminPlan(1)],
    ] as const) {
      expect(expectJsonError(await call(env, someone.key, method, url, method === 'GET' || method === 'DELETE' ? undefined : body), 403)).toHaveProperty('detail');
    }
    expect((await env.t.app.inject({ method: 'GET', url: BILLING_API.subscription })).statusCode).toBe(401);
    expect((await env.t.app.inject({ method: 'GET', url: BILLING_API.adminPlans })).statusCode).toBe(401);

    const made = ok<AdminPlan>(await call(env, admin.key, 'POST', BILLING_API.adminPlans, body), 201);
    expect(made).toMatchObject({ title: 'Team', price_card: 1900, card_currency: 'USD', archived: false, used: false });
    const listed = ok<Plan[]>(await env.t.app.inject({ method: 'GET', url: BILLING_API.plans }));
    expect(listed.find((plan) => plan.id === made.id)).toMatchObject({ limits: body.limits, price_stars: 900 });

    expect(expectJsonError(await call(env, admin.key, 'POST', BILLING_API.adminPlans, { ...body, card_currency: null }), 400)).toHaveProperty('card_currency');
    expect(expectJsonError(await call(env, admin.key, 'POST', BILLING_API.adminPlans, { ...body, card_currency: 'usd' }), 400)).toHaveProperty('card_currency');
    expect(expectJsonError(await call(env, admin.key, 'PATCH', BILLING_API.adminPlan(made.id), { price_stars: 0 }), 400)).toHaveProperty('price_stars');
    expect(expectJsonError(await call(env, admin.key, 'PATCH', BILLING_API.adminPlan(999_999), { title: 'X' }), 404)).toMatchObject({ code: 'not_found' });
    expect(ok<AdminPlan>(await call(env, admin.key, 'PATCH', BILLING_API.adminPlan(made.id), { title: 'Team+' })).title).toBe('Team+');

    const unused = ok<AdminPlan>(await call(env, admin.key, 'POST', BILLING_API.adminPlans, { ...body, title: 'Gone' }), 201);
    expect((await call(env, admin.key, 'DELETE', BILLING_API.adminPlan(unused.id))).statusCode).toBe(204);
    await services.billing.applyEvent(starsEvent(someone.id, made.id, 'payment'));
    expect(ok<AdminPlan>(await call(env, admin.key, 'DELETE', BILLING_API.adminPlan(made.id)))).toMatchObject({ archived: true, used: true });
    expect(ok<Plan[]>(await env.t.app.inject({ method: 'GET', url: BILLING_API.plans })).map((plan) => plan.id)).not.toContain(made.id);
    const [sub] = await env.t.db.orm.select().from(subscriptions).where(eq(subscriptions.userId, someone.id));
    expect(sub.planId).toBe(made.id);
  });

  it('over the people limit, new people are still recorded but mailings and series are refused; running bots are not', async () => {
    await paidPlan();
    // A free plan with mailings and letters but room for one person.
    const free = await services.billing.createPlan({ title: 'Free', is_free: true, limits: { running_funnels: 1, people: 1, mailings: true, letters: true } });
    try {
      const { key } = await newUser();
      const funnel = await runnableFunnel(key);
      ok(await call(env, key, 'POST', FUNNELS_API.run(funnel.id)));
      const mailing = ok<Mailing>(await call(env, key, 'POST', MAILINGS_API.mailings(funnel.id), draftMailing), 201);
      const series = await seriesReady(key, funnel.id);
      await addPerson(env, funnel.id);
      expect(await subscriptionOf(key)).toMatchObject({ state: 'free', limits: { people: 1 }, usage: { people: 2, running_funnels: 1 } });
      expect(expectJsonError(await call(env, key, 'POST', MAILINGS_API.send(mailing.id), {}), 402)).toEqual(INACTIVE);
      expect(expectJsonError(await call(env, key, 'POST', LETTERS_API.enable(series.id)), 402)).toEqual(INACTIVE);
      // Stopping and running the one bot again is still allowed: nobody who presses Start is lost.
      ok(await call(env, key, 'POST', FUNNELS_API.stop(funnel.id)));
      ok(await call(env, key, 'POST', FUNNELS_API.run(funnel.id)));
    } finally {
      await services.billing.updatePlan(free.id, { archived: true });
    }
  });

  it('tells a Russian owner of the grace period once by the service bot, with the subscribe button, and by e-mail', async () => {
    env.fake.addBot({ token: TEST_BOT_TOKEN, username: 'funnels_service_bot' });
    const plan = await paidPlan();
    const { id, email } = await newUser();
    const telegramId = 7_100_000 + id;
    await env.t.db.query(`update users set language = 'ru', telegram_id = $2 where id = $1`, [id, telegramId]);
    env.fake.sendUserMessage(TEST_BOT_TOKEN, { from: { id: telegramId, first_name: 'Аня' }, text: '/start' });
    await services.billing.applyEvent(starsEvent(id, plan.id, 'payment'));
    const chat = () => env.fake.botMessages(TEST_BOT_TOKEN, telegramId);
    // The payment's own notice first (subscription-notice.test.ts covers it).
    await eventually(chat, (messages) => messages.length === 1, 'the "subscription active" notice');
    expect((await env.t.mailer.next(email)).subject).toContain('Подписка Funnels оформлена');
    env.t.clock.advance(30 * DAY_S + 60);
    await services.billing.sweep();
    await services.billing.sweep();
    const [, message] = await eventually(chat, (messages) => messages.length === 2, 'the service bot tells the owner');
    expect(message.text).toContain('Оплаченный период подписки');
    expect(message.text).toContain('3 дня');
    const button = message.reply_markup?.inline_keyboard.flat()[0];
    expect(button?.text).toBe('Оформить подписку');
    expect(button && 'web_app' in button ? button.web_app?.url : undefined).toBe('https://funnels.test/subscribe/');
    const mail = await env.t.mailer.next(email);
    expect(mail.subject).toContain('Подписка закончилась');
    expect(mail.text).toContain('https://funnels.test/cancel/?token=');
    expect(chat()).toHaveLength(2);
  });

  it('three runs at once on the free plan: exactly one bot runs', async () => {
    await paidPlan();
    const { key } = await newUser();
    const made = [await runnableFunnel(key), await runnableFunnel(key), await runnableFunnel(key)];
    const answers = await Promise.all(made.map((funnel) => call(env, key, 'POST', FUNNELS_API.run(funnel.id))));
    expect(answers.map((res) => res.statusCode).sort()).toEqual([200, 402, 402]);
    expect((await subscriptionOf(key)).usage.running_funnels).toBe(1);
  });
  it('a grace period ends at its moment: the API says so when read, and the sweep runs then (not at the next minute) and stops the bot over the free plan', async () => {
    const plan = await paidPlan();
    const { id, key } = await newUser();
    const graceEndsInMs = 4_000;
    // Paid up to 3 days (the grace) and 4 seconds ago less: the grace ends 4 seconds from now.
    const paidUntil = new Date(env.t.clock.now().getTime() - 3 * DAY_S * 1000 + graceEndsInMs);
    await services.billing.applyEvent(starsEvent(id, plan.id, 'payment', { paidUntil }));
    const one = await runnableFunnel(key);
    const two = await runnableFunnel(key);
    ok(await call(env, key, 'POST', FUNNELS_API.run(one.id)));
    ok(await call(env, key, 'POST', FUNNELS_API.run(two.id)));

    // The sweeper on the services' clock, with timers the test fires.
    const timers: Array<{ run: () => void; ms: number; cleared: boolean }> = [];
    const sweeps = startBillingSweeps({
      billing: services.billing,
      now: env.t.clock.now,
      log: { error() {} },
      timers: {
        set(run, ms) {
          const timer = { run, ms, cleared: false };
          timers.push(timer);
          return timer;
        },
        clear(handle) {
          (handle as { cleared: boolean }).cleared = true;
        },
      },
    });
    try {
      const first = await eventually(() => timers[0], (timer) => timer !== undefined, 'the first sweep is timed');
      // Not a minute: at the grace's end (or sooner, for another test's subscription).
      expect(first.ms).toBeLessThanOrEqual(graceEndsInMs);
      const stateOf = async (funnelId: number) => (await env.t.db.orm.select().from(funnels).where(eq(funnels.id, funnelId)))[0];
      let waited = 0;
      for (let fired = 0; (await stateOf(two.id)).state === 'running'; fired += 1) {
        const timer = await eventually(() => timers[fired], (next) => next !== undefined, 'the next sweep is timed');
        expect(waited + timer.ms).toBeLessThanOrEqual(graceEndsInMs);
        if (waited + timer.ms >= graceEndsInMs - 1_000) {
          // A moment before the end: the API still says grace; at the end, ended, whether or not a sweep ran.
          env.t.clock.advance((graceEndsInMs - waited - 1) / 1000);
          expect((await subscriptionOf(key)).state).toBe('grace');
          env.t.clock.advance(1 / 1000);
          expect(await subscriptionOf(key)).toMatchObject({ state: 'ended', limits: { running_funnels: 1 } });
          waited = graceEndsInMs;
        } else {
          env.t.clock.advance(timer.ms / 1000);
          waited += timer.ms;
        }
        timer.run();
        await eventually(() => timers.length, (n) => n > fired + 1, 'the sweep ran and timed the next one');
      }
      expect(waited).toBe(graceEndsInMs);
      expect(await stateOf(two.id)).toMatchObject({ state: 'stopped', stopReason: 'billing' });
      expect((await stateOf(one.id)).state).toBe('running');
    } finally {
      await sweeps.stop();
    }
  });
});
