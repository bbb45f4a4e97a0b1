// "Subscription active": a payment that starts a subscription (Stars or card) tells the owner once,
// by the service bot (fake Bot API) and by e-mail (a real SMTP listener), in their language, with
// the plan, the paid-until date, how renewal works and the signed cancel link, which opens
// /api/billing/cancel/ with no login. A replayed payment sends nothing. GET subscription gives
// the same link as cancel_url while the subscription renews, and null otherwise.
import type { FastifyInstance } from 'fastify';
import type { ParsedMail } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BILLING_API, type CancelInfo, type Subscription } from '../../contract/billing';
import { startFakeBotApi, type FakeBotApi } from '../../scripts/telegram/fake-bot-api';
import { buildApp } from '../app';
import { createMailer, type Mailer } from '../mail/mailer';
import { createServices, type Services } from '../services';
import { eventually } from '../test/eventually';
import { auth, createTestDb, recordingMailer, signedInUser, TEST_BOT_TOKEN, testClock, testConfig, type TestApp, type TestDb } from '../test/helpers';
import { startSmtpListener, type SmtpListener } from '../test/smtp';
import { paymentFailedNoticeSender, type NoticeBot } from './notices';
import type { BillingEvent } from './ports';

let fake: FakeBotApi;
let smtp: SmtpListener;
let testDb: TestDb;
let services: Services;
let app: FastifyInstance;
let harness: TestApp;
let telegramIds = 7_300_000;
let keys = 0;
/** What the services logged as warnings (a channel that failed). */
const warnings: string[] = [];

const CANCEL_LINK = /https:\/\/funnels\.test\/cancel\/\?token=[A-Za-z0-9._%-]+/;

beforeAll(async () => {
  fake = await startFakeBotApi({ port: 0 });
  fake.addBot({ token: TEST_BOT_TOKEN, username: 'funnels_service_bot' });
  smtp = await startSmtpListener();
  testDb = await createTestDb();
  const config = testConfig({ telegramApiRoot: fake.url, smtpUrl: smtp.url });
  // Every mail goes out over SMTP; sign-up's activation mail is also recorded for the shared steps.
  const recording = recordingMailer();
  const smtpMailer = createMailer(config);
  const mailer: Mailer = {
    kind: 'smtp',
    async send(message) {
      await recording.send(message);
      await smtpMailer.send(message);
    },
    close: () => smtpMailer.close(),
  };
  const quiet = () => undefined;
  const clock = testClock();
  const log = { info: quiet, warn: (_object: object, message: string) => void warnings.push(message), error: quiet };
  services = createServices({ config, db: testDb.db, mailer, log, now: clock.now });
  // The charges here were never made in the fake: Telegram's side of cancelling is stars.test.ts's.
  services.billing.registerPaymentMethod('stars', { async cancelRenewal() {} });
  app = await buildApp({ config, db: testDb.db, mailer, services, logger: false, now: clock.now });
  await app.ready();
  harness = { app, db: testDb.db, config, mailer: recording, clock, close: async () => {} };
});

afterAll(async () => {
  await app?.close();
  await testDb?.drop();
  await smtp?.close();
  await fake?.close();
});

/** A signed-in owner with a Telegram identity who has written to the service bot (unless `started` is false). */
async function owner(language: 'en' | 'ru' = 'en', started = true): Promise<{ id: number; key: string; email: string; telegramId: number }> {
  const { id, key, email } = await signedInUser(harness);
  telegramIds += 1;
  await testDb.db.query('update users set language = $3, telegram_id = $2 where id = $1', [id, telegramIds, language]);
  if (started) fake.sendUserMessage(TEST_BOT_TOKEN, { from: { id: telegramIds, first_name: 'Owner' }, text: '/start' });
  return { id, key, email, telegramId: telegramIds };
}

async function plan(title: string): Promise<number> {
  const created = await services.billing.createPlan({
    title,
    limits: { running_funnels: null, people: null, mailings: true, letters: true },
    price_stars: 500,
    price_card: 900,
    card_currency: 'USD',
  });
  return created.id;
}

function starsPayment(userId: number, planId: number): BillingEvent {
  keys += 1;
  const chargeId = `notice-charge-${keys}`;
  return { key: `stars:charge:${chargeId}`, userId, kind: 'payment', method: 'stars', planId, amount: 500, currency: 'XTR', paidUntil: null, externalId: chargeId, chargeId };
}

function cardPayment(userId: number, planId: number, paidUntil: Date): BillingEvent {
  keys += 1;
  return { key: `card:event:evt_notice_${keys}`, userId, kind: 'payment', method: 'card', planId, amount: 900, currency: 'USD', paidUntil, externalId: `sub_notice_${keys}`, chargeId: `in_notice_${keys}` };
}

const bySubject = (pattern: RegExp) => (mails: ParsedMail[]) => mails.filter((mail) => pattern.test(mail.subject ?? ''));
const activeMails = (email: string, pattern: RegExp) => bySubject(pattern)(smtp.mailsTo(email));
const chat = (telegramId: number) => fake.botMessages(TEST_BOT_TOKEN, telegramId);

function linkIn(text: string | undefined): string {
  const match = CANCEL_LINK.exec(text ?? '');
  if (!match) throw new Error(`no cancel link in: ${text}`);
  return match[0];
}

async function subscription(key: string): Promise<Subscription> {
  const res = await app.inject({ method: 'GET', url: BILLING_API.subscription, headers: auth(key) });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as Subscription;
}

/** Opens the link as its recipient would: no login, only the token. */
async function openLink(link: string) {
  const token = new URL(link).searchParams.get('token') ?? '';
  return app.inject({ method: 'GET', url: `${BILLING_API.cancel}?token=${encodeURIComponent(token)}` });
}

describe('"Subscription active" notice', () => {
  it('a first Stars payment: one e-mail and one service-bot message with a cancel link that opens; the replayed payment sends nothing', async () => {
    const planId = await plan('Pro Stars');
    const { id, key, email, telegramId } = await owner('en');
    const payment = starsPayment(id, planId);
    expect(await services.billing.applyEvent(payment)).toEqual({ applied: true });

    const [mail] = await eventually(() => activeMails(email, /subscription is active/), (mails) => mails.length === 1, 'the e-mail arrives');
    const [message] = await eventually(() => chat(telegramId), (messages) => messages.length === 1, 'the service bot tells the owner');
    const paidUntil = (await subscription(key)).paid_until!;
    const day = new Date(paidUntil).toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
    for (const text of [mail.text, message.text]) {
      expect(text).toContain('“Pro Stars”');
      expect(text).toContain(`paid until ${day}`);
      expect(text).toContain('Telegram takes the same number of Stars');
      expect(text).toMatch(/Cancel renewal: https:\/\/funnels\.test\/cancel\/\?token=/);
    }
    expect(mail.html).toContain('href="https://funnels.test/cancel/?token=');
    const link = linkIn(mail.text);
    expect(linkIn(message.text)).toBe(link);

    const opened = await openLink(link);
    expect(opened.statusCode, opened.body).toBe(200);
    expect(opened.json() as CancelInfo).toMatchObject({ plan: { id: planId, title: 'Pro Stars' }, method: 'stars', renews: true, paid_until: paidUntil });
    expect((await subscription(key)).cancel_url).toBe(link);

    // Telegram delivers the same successful_payment again: nothing is applied, nothing is sent.
    expect(await services.billing.applyEvent(payment)).toEqual({ applied: false });
    await services.background.settle();
    expect(smtp.mailsTo(email).filter((m) => /subscription is active/.test(m.subject ?? ''))).toHaveLength(1);
    expect(chat(telegramId)).toHaveLength(1);
  });

  it('a first card payment of a Russian owner: the notice is in Russian on both channels, with the card’s renewal', async () => {
    const planId = await plan('Про');
    const { id, key, email, telegramId } = await owner('ru');
    const paidUntil = new Date(Date.UTC(2031, 4, 9, 12));
    expect(await services.billing.applyEvent(cardPayment(id, planId, paidUntil))).toEqual({ applied: true });

    const [mail] = await eventually(() => activeMails(email, /Подписка Funnels оформлена/), (mails) => mails.length === 1, 'the Russian e-mail arrives');
    const [message] = await eventually(() => chat(telegramId), (messages) => messages.length === 1, 'the service bot tells the owner');
    for (const text of [mail.text, message.text]) {
      expect(text).toContain('Подписка на тариф «Про» активна и оплачена до 9 мая 2031 г.');
      expect(text).toContain('с карты спишется та же сумма');
      expect(text).toMatch(/Отменить продление: https:\/\/funnels\.test\/cancel\/\?token=/);
      expect(text).not.toMatch(/Cancel renewal|Thank you/);
    }
    const link = linkIn(message.text);
    expect(linkIn(mail.text)).toBe(link);
    const opened = await openLink(link);
    expect(opened.statusCode, opened.body).toBe(200);
    expect(opened.json() as CancelInfo).toMatchObject({ plan: { id: planId }, method: 'card', renews: true });
    expect((await subscription(key)).cancel_url).toBe(link);
  });

  it('cancel_url: null with no subscription and after cancelling; a new subscription gets a new link and its own notice', async () => {
    const planId = await plan('Pro Again');
    const { id, key, email, telegramId } = await owner('en');
    expect((await subscription(key)).cancel_url).toBeNull();

    await services.billing.applyEvent(starsPayment(id, planId));
    const first = (await subscription(key)).cancel_url!;
    expect(first).toMatch(CANCEL_LINK);
    // A renewal keeps the subscription: the same link, and no new notice.
    keys += 1;
    await services.billing.applyEvent({ ...starsPayment(id, planId), key: `stars:charge:notice-renewal-${keys}`, kind: 'renewal', externalId: null });
    expect((await subscription(key)).cancel_url).toBe(first);

    const cancelled = await app.inject({ method: 'POST', url: BILLING_API.cancel, payload: { token: new URL(first).searchParams.get('token') } });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(await subscription(key)).toMatchObject({ state: 'cancelled', cancel_url: null });

    await services.billing.applyEvent(starsPayment(id, planId));
    const second = (await subscription(key)).cancel_url!;
    expect(second).toMatch(CANCEL_LINK);
    expect(second).not.toBe(first);
    expect((await openLink(first)).statusCode).toBe(400);
    const mails = await eventually(() => activeMails(email, /subscription is active/), (found) => found.length === 2, 'a notice for each subscription');
    expect(mails.map((mail) => linkIn(mail.text)).sort()).toEqual([first, second].sort());
    await services.background.settle();
    expect(chat(telegramId).map((message) => linkIn(message.text)).sort()).toEqual([first, second].sort());
  });

  it('the service bot cannot reach the owner: the payment stands, the failure is logged, and the e-mail still goes', async () => {
    const planId = await plan('Pro Quiet');
    // Never wrote to the service bot: Telegram answers sendMessage with 400 chat not found.
    const { id, key, email } = await owner('en', false);
    expect(await services.billing.applyEvent(starsPayment(id, planId))).toEqual({ applied: true });
    expect(await subscription(key)).toMatchObject({ state: 'active', plan: { id: planId } });
    const [mail] = await eventually(() => activeMails(email, /subscription is active/), (mails) => mails.length === 1, 'the e-mail arrives');
    expect(linkIn(mail.text)).toBe((await subscription(key)).cancel_url);
    await services.background.settle();
    expect(warnings).toContainEqual(expect.stringMatching(/could not send the "subscription active" notice by the service bot: .*chat not found/));
  });
});

describe('"Payment failed" notice (a card renewal\'s charge failed)', () => {
  it('tells the owner on both channels, in their language, what happened, until when access lasts, and where to update the card', async () => {
    // The service bot as the Bot API's sendMessage (billing reaches Telegram through its NoticeBot port).
    const serviceBot: NoticeBot = {
      async sendMessage(chatId, text, other) {
        const res = await fetch(`${fake.url}/bot${TEST_BOT_TOKEN}/sendMessage`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ chat_id: chatId, text, ...other }) });
        if (!res.ok) throw new Error(await res.text());
      },
    };
    const sender = paymentFailedNoticeSender({ db: testDb.db, serviceBot, mailer: harness.mailer, log: { warn() {} } });
    const planId = await plan('Бизнес');
    const portal = 'http://127.0.0.1:8082/p/session/bps_test';
    const paidUntil = new Date(Date.UTC(2031, 5, 2, 12));
    for (const language of ['ru', 'en'] as const) {
      const { id, email, telegramId } = await owner(language);
      await sender(id, { planId, amount: 1299, currency: 'USD', paidUntil, updateLink: portal });
      const [mail] = await eventually(() => harness.mailer.messages.filter((m) => m.to === email && /renew|продлить/.test(m.subject)), (mails) => mails.length === 1, 'the e-mail');
      const [message] = await eventually(() => chat(telegramId), (messages) => messages.length === 1, 'the service bot message');
      for (const text of [mail.text, message.text]) {
        expect(text).toContain(portal);
        if (language === 'ru') {
          expect(text).toContain('Не удалось списать с вашей карты');
          expect(text).toContain('«Бизнес»');
          expect(text).toContain('до 2 июня 2031 г.');
          expect(text).toContain('Обновить карту');
        } else {
          expect(text).toContain('We could not charge your card US$12.99');
          expect(text).toContain('until 2 June 2031 (UTC)');
          expect(text).toContain('Update card');
        }
      }
      expect(mail.subject).toBe(language === 'ru' ? 'Не удалось продлить подписку Funnels' : 'We could not renew your Funnels subscription');
    }
  });
});
