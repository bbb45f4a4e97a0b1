// Telegram Stars end to end through the fake Bot API: the invoice link, the service bot's
// pre-checkout answer and its recording of successful_payment (once, however often delivered),
// renewals, refunds (an admin's, and one Telegram makes by itself), cancelling renewal, and the
// pre-checkouts it refuses.
import type { FastifyInstance } from 'fastify';
import type { SuccessfulPayment } from 'grammy/types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BILLING_PATHS, STARS_SUBSCRIPTION_PERIOD_SECONDS, type Subscription } from '../../../contract/billing';
import { startFakeBotApi, type FakeBotApi } from '../../../scripts/telegram/fake-bot-api';
import { buildApp } from '../../app';
import { startServiceBot, type ServiceBot } from '../../bots/service-bot';
import { SERVICE_BOT_MESSAGES } from '../../bots/service-bot-messages';
import type { Config } from '../../config';
import { createServices, type Services } from '../../services';
import { eventually } from '../../test/eventually';
import {
  auth,
  createTestDb,
  expectJsonError,
  recordingMailer,
  signedInUser,
  testClock,
  testConfig,
  type RecordingMailer,
  type TestApp,
  type TestDb,
} from '../../test/helpers';

let fake: FakeBotApi;
let token: string;
let testDb: TestDb;
let config: Config;
let services: Services;
let app: FastifyInstance;
let serviceBot: ServiceBot;
let mailer: RecordingMailer;
let telegramIds = 610_000;

const quiet = () => undefined;

beforeAll(async () => {
  fake = await startFakeBotApi({ port: 0 });
  token = fake.addBot({ username: 'funnels_pay_bot', first_name: 'Funnels' }).token;
  testDb = await createTestDb();
  // http PUBLIC_URL: the service bot polls (Telegram could not reach a webhook here).
  config = testConfig({ telegramBotToken: token, telegramApiRoot: fake.url, publicUrl: 'http://127.0.0.1:3999' });
  mailer = recordingMailer();
  services = createServices({ config, db: testDb.db, mailer, log: { info: quiet, warn: quiet, error: quiet } });
  app = await buildApp({ config, db: testDb.db, mailer, services, logger: false });
  serviceBot = await startServiceBot({ app, config, stars: services.stars });
  await app.ready();
  await fake.waitForBotState(token, (state) => state.polling);
});

afterAll(async () => {
  await serviceBot?.stop();
  await app?.close();
  await testDb?.drop();
  await fake?.close();
});

/** What the shared sign-up steps need of an app. */
const harness = (): TestApp => ({ app, db: testDb.db, config, mailer, clock: testClock(), close: async () => {} });

/** A signed-in user with a Telegram account (as after "Start here" in the Mini App). */
async function payer(): Promise<{ id: number; key: string; telegram: { id: number; first_name: string; language_code: string } }> {
  const { key, id } = await signedInUser(harness());
  telegramIds += 1;
  await testDb.db.query('update users set telegram_id = $1 where id = $2', [telegramIds, id]);
  return { id, key, telegram: { id: telegramIds, first_name: 'Payer', language_code: 'en' } };
}

async function admin(): Promise<{ key: string }> {
  const { key, id } = await signedInUser(harness());
  await testDb.db.query(`update users set role = 'admin' where id = $1`, [id]);
  return { key };
}

async function plan({ priceStars = 250, archived = false }: { priceStars?: number | null; archived?: boolean } = {}): Promise<number> {
  const [row] = await testDb.db.query<{ id: number }>(
    `insert into plans (title, description, is_free, max_running_funnels, max_people, mailings, letters, price_stars, price_card, card_currency, archived, position)
     values ('Pro', 'Everything, for a month', false, null, null, true, true, $1, 900, 'USD', $2, 1) returning id`,
    [priceStars, archived],
  );
  return row.id;
}

async function invoiceLink(key: string, planId: number): Promise<string> {
  const res = await app.inject({ method: 'POST', url: BILLING_PATHS.starsInvoice, headers: auth(key), payload: { plan_id: planId } });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { invoice_link: string }).invoice_link;
}

async function subscription(key: string): Promise<Subscription> {
  const res = await app.inject({ method: 'GET', url: BILLING_PATHS.subscription, headers: auth(key) });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as Subscription;
}

const untilSubscription = (key: string, check: (s: Subscription) => boolean, what: string) => eventually(() => subscription(key), check, what);

/** Every update the fake holds for the service bot is handled (polling confirms only after that). */
const untilHandled = () => fake.waitForBotState(token, (state) => state.pending_update_count === 0 && state.polling);

async function ledger(userId: number): Promise<Array<{ key: string; kind: string; amount: number; charge_id: string | null }>> {
  return testDb.db.query('select key, kind, amount, charge_id from billing_events where user_id = $1 order by id', [userId]);
}

/** The successful_payment message the payer's chat got, as Telegram would deliver it again. */
function paymentMessage(telegramId: number, chargeId: string): { messageId: number; payment: SuccessfulPayment } {
  const entry = fake
    .chatMessages(token, telegramId)
    .find((e) => e.message.successful_payment?.telegram_payment_charge_id === chargeId);
  if (!entry) throw new Error(`no successful_payment ${chargeId}`);
  return { messageId: entry.message.message_id, payment: entry.message.successful_payment! };
}

describe('paying with Stars', () => {
  it('the invoice is paid in Telegram: the plan is active until subscription_expiration_date; the same successful_payment again changes nothing', async () => {
    const planId = await plan();
    const user = await payer();
    const link = await invoiceLink(user.key, planId);
    expect(link).toMatch(/^https:\/\/t\.me\/\$/);

    const paid = await fake.payInvoice({ link, userId: user.telegram.id });
    expect(paid.status).toBe('paid');
    const active = await untilSubscription(user.key, (s) => s.state === 'active', 'the subscription to be active');
    const { messageId, payment } = paymentMessage(user.telegram.id, paid.chargeId!);
    expect(active).toMatchObject({ plan: { id: planId }, method: 'stars' });
    expect(new Date(active.paid_until!).getTime()).toBe(payment.subscription_expiration_date! * 1000);
    expect(await ledger(user.id)).toEqual([{ key: `stars:charge:${paid.chargeId}`, kind: 'payment', amount: 250, charge_id: paid.chargeId }]);

    // Telegram delivers it again (a server that died before confirming it): one ledger line still.
    fake.redeliverMessage(token, user.telegram.id, messageId);
    await untilHandled();
    expect(await ledger(user.id)).toHaveLength(1);
    expect((await subscription(user.key)).paid_until).toBe(active.paid_until);
  });

  it('a renewal extends the period by 30 days, as a second line of the ledger', async () => {
    const planId = await plan();
    const user = await payer();
    const paid = await fake.payInvoice({ link: await invoiceLink(user.key, planId), userId: user.telegram.id });
    const first = await untilSubscription(user.key, (s) => s.state === 'active', 'the first period');

    const renewed = fake.renewSubscription({ chargeId: paid.chargeId! });
    expect(renewed.status).toBe('paid');
    const extended = await untilSubscription(user.key, (s) => s.paid_until !== first.paid_until, 'the renewal');
    expect(new Date(extended.paid_until!).getTime() - new Date(first.paid_until!).getTime()).toBe(STARS_SUBSCRIPTION_PERIOD_SECONDS * 1000);
    expect(extended.state).toBe('active');
    expect((await ledger(user.id)).map((line) => [line.kind, line.charge_id])).toEqual([
      ['payment', paid.chargeId],
      ['renewal', renewed.chargeId],
    ]);
  });

  it('cancelling renewal tells Telegram (editUserStarSubscription): no more renewals, access lasts to the end of the period', async () => {
    const planId = await plan();
    const user = await payer();
    const paid = await fake.payInvoice({ link: await invoiceLink(user.key, planId), userId: user.telegram.id });
    const active = await untilSubscription(user.key, (s) => s.state === 'active', 'the subscription to be active');

    await services.billing.cancelRenewal(user.id);
    expect(fake.starSubscription(paid.chargeId!)).toMatchObject({ canceled: true });
    expect(fake.calls(token, 'editUserStarSubscription').at(-1)?.params).toMatchObject({
      user_id: user.telegram.id,
      telegram_payment_charge_id: paid.chargeId,
      is_canceled: true,
    });
    expect(fake.renewSubscription({ chargeId: paid.chargeId! })).toEqual({ status: 'failed' });
    expect(await subscription(user.key)).toMatchObject({ state: 'cancelled', paid_until: active.paid_until });
  });

  it('an admin refunds the last Stars payment: refundStarPayment, the period ends; the refunded_payment that follows changes nothing', async () => {
    const planId = await plan();
    const user = await payer();
    const paid = await fake.payInvoice({ link: await invoiceLink(user.key, planId), userId: user.telegram.id });
    await untilSubscription(user.key, (s) => s.state === 'active', 'the subscription to be active');
    const { key: adminKey } = await admin();

    const notAdmin = await app.inject({ method: 'POST', url: BILLING_PATHS.adminRefunds, headers: auth(user.key), payload: { user_id: user.id } });
    expect(notAdmin.statusCode).toBe(403);

    const res = await app.inject({ method: 'POST', url: BILLING_PATHS.adminRefunds, headers: auth(adminKey), payload: { user_id: user.id } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ user_id: user.id, charge_id: paid.chargeId, amount: 250, currency: 'XTR' });
    expect((await subscription(user.key)).state).not.toMatch(/^(active|cancelled)$/);
    // The refunded_payment Telegram sends next is the same refund.
    await eventually(
      () => fake.chatMessages(token, user.telegram.id),
      (entries) => entries.some((e) => e.message.refunded_payment?.telegram_payment_charge_id === paid.chargeId),
      'the refunded_payment',
    );
    await untilHandled();
    expect((await ledger(user.id)).map((line) => [line.kind, line.key])).toEqual([
      ['payment', `stars:charge:${paid.chargeId}`],
      ['refund', `stars:refund:${paid.chargeId}`],
    ]);

    // Nothing left to refund.
    const again = await app.inject({ method: 'POST', url: BILLING_PATHS.adminRefunds, headers: auth(adminKey), payload: { user_id: user.id } });
    expect(expectJsonError(again, 400)).toMatchObject({ user_id: ['This user has no Stars payment to refund.'] });
  });

  it('a refund Telegram makes by itself (refunded_payment) ends the period', async () => {
    const planId = await plan();
    const user = await payer();
    const paid = await fake.payInvoice({ link: await invoiceLink(user.key, planId), userId: user.telegram.id });
    await untilSubscription(user.key, (s) => s.state === 'active', 'the subscription to be active');

    fake.refundPayment({ chargeId: paid.chargeId! });
    await untilSubscription(user.key, (s) => s.state !== 'active' && s.state !== 'cancelled', 'the refund to end the period');
    expect((await ledger(user.id)).map((line) => line.kind)).toEqual(['payment', 'refund']);
  });
});

describe('what the service bot refuses at pre-checkout', () => {
  /** The person pays; the outcome, and the service bot's answer to the pre-checkout. */
  async function pay(link: string, userId: number) {
    const answers = () => fake.calls(token, 'answerPreCheckoutQuery');
    const before = answers().length;
    const outcome = await fake.payInvoice({ link, userId });
    const [answer] = (await eventually(answers, (calls) => calls.length > before, 'the answer to the pre-checkout')).slice(before);
    return { outcome, answer: { ok: answer.params.ok, error_message: answer.params.error_message } };
  }
  const refused = SERVICE_BOT_MESSAGES.en.paymentRefused;

  it('an invoice paid from another Telegram account', async () => {
    const planId = await plan();
    const user = await payer();
    const link = await invoiceLink(user.key, planId);
    expect(await pay(link, user.telegram.id + 100_000)).toEqual({ outcome: { status: 'failed' }, answer: { ok: false, error_message: refused.wrong_account } });
    expect(await ledger(user.id)).toEqual([]);
  });

  it('a plan whose price changed since the invoice, and a plan no longer sold', async () => {
    const planId = await plan();
    const user = await payer();
    const link = await invoiceLink(user.key, planId);
    await testDb.db.query('update plans set price_stars = 300 where id = $1', [planId]);
    expect(await pay(link, user.telegram.id)).toEqual({ outcome: { status: 'failed' }, answer: { ok: false, error_message: refused.price_changed } });

    const link2 = await invoiceLink(user.key, planId);
    await testDb.db.query('update plans set archived = true where id = $1', [planId]);
    expect(await pay(link2, user.telegram.id)).toEqual({ outcome: { status: 'failed' }, answer: { ok: false, error_message: refused.plan_unavailable } });
    expect(await ledger(user.id)).toEqual([]);
    expect((await subscription(user.key)).state).not.toBe('active');
  });

  it('the invoice itself: an unknown plan, an archived one or one without a Stars price is a field error; no login is 401', async () => {
    const user = await payer();
    const archived = await plan({ archived: true });
    const cardOnly = await plan({ priceStars: null });
    const post = (payload: Record<string, unknown>, headers: Record<string, string> = auth(user.key)) => app.inject({ method: 'POST', url: BILLING_PATHS.starsInvoice, headers, payload });
    expect(expectJsonError(await post({ plan_id: 987_654 }), 400)).toMatchObject({ plan_id: ['Invalid pk "987654" - object does not exist.'] });
    expect(expectJsonError(await post({ plan_id: archived }), 400)).toMatchObject({ plan_id: ['This plan cannot be bought with Stars.'] });
    expect(expectJsonError(await post({ plan_id: cardOnly }), 400)).toMatchObject({ plan_id: ['This plan cannot be bought with Stars.'] });
    expect(expectJsonError(await post({}), 400)).toMatchObject({ plan_id: ['This field is required.'] });
    expect((await post({ plan_id: archived }, {})).statusCode).toBe(401);
    expect(fake.calls(token, 'createInvoiceLink').every((call) => call.ok)).toBe(true);
  });
});
