// The partner programme through its API: links and their forms, web clicks, attribution at
// sign-up (first touch; never an existing account; nobody refers themselves), the commission's
// states (pending → available after the hold; a refund voids it within the hold, claws it back
// after), withdrawals (minimum, held amount, two at once, reject returns it, paid), ownership and
// the admins' calls. Billing is not here: its PartnerHooks calls are made on services.partner.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '../../../contract/auth';
import {
  PARTNER_API,
  REF_COOKIE,
  type PartnerBalances,
  type PartnerLink,
  type PartnerLinkStats,
  type PartnerStatistics,
  type PartnerTransactionsPage,
  type Withdrawal,
} from '../../../contract/partner';
import { signInitData, type InitDataUser } from '../../../scripts/telegram/init-data';
import { buildApp } from '../../app';
import type { Services } from '../../services';
import {
  auth,
  createTestAppWithServices,
  createTestDb,
  expectJsonError,
  GOOD_PASSWORD,
  login,
  post,
  signedInUser,
  TEST_BOT_TOKEN,
  uniqueEmail,
  type TestApp,
  type TestDb,
} from '../../test/helpers';

const DAY_S = 86_400;
const HOLD_S = 14 * DAY_S;
const ADMIN_EMAIL = 'partner-admin@example.com';

let testDb: TestDb;
let t: TestApp & { services: Services };
let services: Services;

beforeAll(async () => {
  testDb = await createTestDb();
  t = await createTestAppWithServices(testDb.db, {
    adminEmails: [ADMIN_EMAIL],
    partner: { commissionPercent: 30, holdSeconds: HOLD_S, minimumWithdrawal: { XTR: 1000, USD: 5000 } },
  });
  services = t.services;
});
afterAll(async () => {
  await t?.close();
  await testDb?.drop();
});

const get = async <T>(url: string, key: string) => {
  const res = await t.app.inject({ method: 'GET', url, headers: auth(key) });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as T;
};
const defaultLink = async (key: string) => (await get<PartnerLink[]>(PARTNER_API.links, key))[0];
const balanceIn = async (key: string, currency: string) => (await get<PartnerBalances>(PARTNER_API.balance, key)).balances.find((b) => b.currency === currency);
const transactions = (key: string) => get<PartnerTransactionsPage>(PARTNER_API.transactions, key);

/** A new e-mail account signed up with the partner's `ref` cookie. */
async function signUpWithRef(uid: string | null, email = uniqueEmail('referred')) {
  const res = await post(t.app, API.register, { email, password: GOOD_PASSWORD, re_password: GOOD_PASSWORD }, uid ? { cookie: `lang=en; ${REF_COOKIE}=${uid}` } : {});
  expect(res.statusCode, res.body).toBe(201);
  return { id: res.json().id as number, email };
}

let nextTelegramId = 730_000_001;
const tgUser = (extra: Partial<InitDataUser> = {}): InitDataUser => ({ id: nextTelegramId++, first_name: 'Tim', ...extra });
let tick = 0;
const initDataOf = (user: InitDataUser, startParam?: string) =>
  signInitData({
    botToken: TEST_BOT_TOKEN,
    user,
    authDate: Math.floor(t.clock.now().getTime() / 1000) - (tick++ % 50),
    ...(startParam ? { extra: { start_param: startParam } } : {}),
  });
async function startHere(user: InitDataUser, startParam?: string) {
  const res = await post(t.app, API.telegramStart, { init_data: initDataOf(user, startParam) });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id as number;
}

const referredBy = async (userId: number) =>
  (await t.db.query<{ uid: string }>('select l.uid from partner_attributions a join partner_links l on l.id = a.link_id where a.user_id = $1', [userId]))[0]?.uid ?? null;

let paymentCounter = 0;
/** What billing's PartnerHooks would say of a payment by `payerUserId` now. */
async function pay(payerUserId: number, amount: number, currency = 'XTR', paymentKey = `stars:charge:test-${++paymentCounter}`) {
  await services.partner.onPayment({ payerUserId, paymentKey, amount, currency, at: t.clock.now() });
  return paymentKey;
}

async function adminKey() {
  const existing = await t.db.query('select 1 from users where email = $1', [ADMIN_EMAIL]);
  if (existing.length > 0) return login(t.app, ADMIN_EMAIL, GOOD_PASSWORD);
  return (await signedInUser(t, ADMIN_EMAIL)).key;
}

describe('links', () => {
  it('every user has a default link in three forms, and more with a label', async () => {
    const partner = await signedInUser(t);
    services.partner.setServiceBotUsername('funnels_service_bot');
    const [link] = await get<PartnerLink[]>(PARTNER_API.links, partner.key);
    expect(link).toMatchObject({ is_default: true, label: null, totals: { clicks: 0, signups: 0, paying: 0, revenue: [], commission: [] } });
    expect(link.uid).toMatch(/^[A-Za-z0-9]{10}$/);
    expect(link.web_url).toBe(`https://funnels.test/?ref=${link.uid}`);
    expect(link.bot_url).toBe(`https://t.me/funnels_service_bot?start=ref_${link.uid}`);
    expect(link.app_url).toBe(`https://t.me/funnels_service_bot?startapp=ref_${link.uid}`);
    // Asked again: the same default link, not a second one.
    expect((await get<PartnerLink[]>(PARTNER_API.links, partner.key)).map((l) => l.uid)).toEqual([link.uid]);

    const made = await t.app.inject({ method: 'POST', url: PARTNER_API.links, headers: auth(partner.key), payload: { label: 'Instagram' } });
    expect(made.statusCode, made.body).toBe(201);
    expect(made.json()).toMatchObject({ label: 'Instagram', is_default: false });
    expect((await get<PartnerLink[]>(PARTNER_API.links, partner.key)).map((l) => l.label)).toEqual([null, 'Instagram']);
    expect(expectJsonError(await t.app.inject({ method: 'POST', url: PARTNER_API.links, headers: auth(partner.key), payload: { label: '' } }), 400)).toHaveProperty('label');
  });

  it('a web click is counted without login; an unknown code is answered the same and counts nowhere', async () => {
    const partner = await signedInUser(t);
    const link = await defaultLink(partner.key);
    for (const uid of [link.uid, link.uid, 'Unknown0000']) {
      const res = await post(t.app, PARTNER_API.clicks, { uid, kind: 'web' });
      expect(res.statusCode, res.body).toBe(204);
    }
    expect((await defaultLink(partner.key)).totals.clicks).toBe(2);
    expect(expectJsonError(await post(t.app, PARTNER_API.clicks, { uid: '../x', kind: 'web' }), 400)).toHaveProperty('uid');
  });
});

describe('figures', () => {
  it('a link’s days show clicks → sign-ups → paying → revenue and commission; all links together in the statistics', async () => {
    const partner = await signedInUser(t);
    const link = await defaultLink(partner.key);
    const labelled = (await t.app.inject({ method: 'POST', url: PARTNER_API.links, headers: auth(partner.key), payload: { label: 'Blog' } })).json() as PartnerLink;
    const firstDay = t.clock.now().toISOString().slice(0, 10);
    for (let i = 0; i < 3; i++) expect((await post(t.app, PARTNER_API.clicks, { uid: link.uid, kind: 'web' })).statusCode).toBe(204);
    expect((await post(t.app, PARTNER_API.clicks, { uid: labelled.uid, kind: 'web' })).statusCode).toBe(204);
    const referred = await signUpWithRef(link.uid);
    await pay(referred.id, 1000);
    t.clock.advance(DAY_S);
    const secondDay = t.clock.now().toISOString().slice(0, 10);
    await pay(referred.id, 500, 'USD');

    const stats = await get<PartnerLinkStats>(`${PARTNER_API.linkStats(link.uid)}?period=7d`, partner.key);
    expect(stats.days).toHaveLength(7);
    expect(stats.days.at(-1)?.date).toBe(secondDay);
    expect(stats.days.find((day) => day.date === firstDay)).toEqual({
      date: firstDay,
      clicks: 3,
      signups: 1,
      paying: 1,
      revenue: [{ currency: 'XTR', amount: 1000 }],
      commission: [{ currency: 'XTR', amount: 300 }],
    });
    expect(stats.days.at(-1)).toMatchObject({ clicks: 0, signups: 0, paying: 1, revenue: [{ currency: 'USD', amount: 500 }] });
    // The same person paying twice is one paying person over the period.
    expect(stats.totals).toMatchObject({ clicks: 3, signups: 1, paying: 1 });

    const all = await get<PartnerStatistics>(`${PARTNER_API.statistics}?period=30d`, partner.key);
    expect(all.days).toHaveLength(30);
    expect(all.totals).toMatchObject({ clicks: 4, signups: 1, paying: 1, commission: [{ currency: 'USD', amount: 150 }, { currency: 'XTR', amount: 300 }] });
    expect(all.links.map((l) => [l.label, l.totals.clicks])).toEqual([
      [null, 3],
      ['Blog', 1],
    ]);
    expect(expectJsonError(await t.app.inject({ method: 'GET', url: `${PARTNER_API.statistics}?period=1y`, headers: auth(partner.key) }), 400)).toHaveProperty('period');
  });

  it('web clicks are rate-limited per address', async () => {
    const partner = await signedInUser(t);
    const link = await defaultLink(partner.key);
    const limited = await buildApp({ config: { ...t.config, rateLimit: { windowS: 900, perIp: 1, perEmail: 1 } }, db: testDb.db, mailer: t.mailer, logger: false, services });
    try {
      const click = () => limited.inject({ method: 'POST', url: PARTNER_API.clicks, payload: { uid: link.uid, kind: 'web' }, remoteAddress: '10.9.8.7' });
      for (let i = 0; i < 4; i++) expect((await click()).statusCode).toBe(204);
      const refused = await click();
      expect(expectJsonError(refused, 429)).toHaveProperty('detail');
      expect(refused.headers['retry-after']).toBeDefined();
      expect((await defaultLink(partner.key)).totals.clicks).toBe(4);
    } finally {
      await limited.close();
    }
  });
});

describe('attribution', () => {
  it('an e-mail sign-up with the ref cookie is the link’s sign-up, for good', async () => {
    const partner = await signedInUser(t);
    const link = await defaultLink(partner.key);
    const referred = await signUpWithRef(link.uid);
    expect(await referredBy(referred.id)).toBe(link.uid);
    expect((await defaultLink(partner.key)).totals.signups).toBe(1);
    // Another partner's link later changes nothing (first touch, bound at sign-up).
    const other = await signedInUser(t);
    expect(await services.partner.attributeSignup({ id: referred.id, email: referred.email, telegramId: null }, { uid: (await defaultLink(other.key)).uid })).toBe(false);
    expect(await referredBy(referred.id)).toBe(link.uid);
  });

  it('Start here through a Mini App link is its click and its sign-up; a bot link seen earlier wins (first touch)', async () => {
    const first = await signedInUser(t);
    const second = await signedInUser(t);
    const firstLink = await defaultLink(first.key);
    const secondLink = await defaultLink(second.key);

    const viaApp = tgUser();
    const appUserId = await startHere(viaApp, `ref_${secondLink.uid}`);
    expect(await referredBy(appUserId)).toBe(secondLink.uid);

    const viaBotFirst = tgUser();
    await services.partner.recordBotStart(viaBotFirst.id, `ref_${firstLink.uid}`);
    const botUserId = await startHere(viaBotFirst, `ref_${secondLink.uid}`);
    expect(await referredBy(botUserId)).toBe(firstLink.uid);

    // A template's link carries its publisher's uid after the template's own part.
    const viaTemplate = tgUser();
    expect(await referredBy(await startHere(viaTemplate, `tpl_7_ref_${firstLink.uid}`))).toBe(firstLink.uid);

    expect((await defaultLink(first.key)).totals).toMatchObject({ clicks: 2, signups: 2 });
    expect((await defaultLink(second.key)).totals).toMatchObject({ clicks: 2, signups: 1 });
  });

  it('an existing account is never attributed: a bot link keeps no referral for it, attaching Telegram binds nothing', async () => {
    const partner = await signedInUser(t);
    const link = await defaultLink(partner.key);
    const known = tgUser();
    const knownId = await startHere(known);
    await services.partner.recordBotStart(known.id, `ref_${link.uid}`);
    expect(await t.db.query('select 1 from partner_pending_referrals where telegram_id = $1', [known.id])).toEqual([]);
    expect(await referredBy(knownId)).toBeNull();

    // An e-mail account attaches a Telegram identity that had followed the partner's bot link.
    const account = await signedInUser(t);
    const identity = tgUser();
    await services.partner.recordBotStart(identity.id, `ref_${link.uid}`);
    const attached = await post(t.app, API.telegramAttach, { init_data: initDataOf(identity) }, auth(account.key));
    expect(attached.statusCode, attached.body).toBe(200);
    expect(await referredBy(account.id)).toBeNull();
    expect((await defaultLink(partner.key)).totals.signups).toBe(0);
  });

  it('nobody refers themselves: not their own account, nor a new one with their Telegram id or e-mail', async () => {
    const partner = await signedInUser(t);
    const link = await defaultLink(partner.key);
    // Their own account.
    expect(await services.partner.attributeSignup({ id: partner.id, email: partner.email, telegramId: null }, { uid: link.uid })).toBe(false);
    // The same mailbox (a +tag) signing up with their cookie.
    const [local, domain] = partner.email.split('@');
    const twin = await signUpWithRef(link.uid, `${local}+second@${domain}`);
    expect(await referredBy(twin.id)).toBeNull();
    // Their Telegram identity, unlinked from the account, then "Start here" through their own link.
    const identity = tgUser();
    expect((await post(t.app, API.telegramAttach, { init_data: initDataOf(identity) }, auth(partner.key))).statusCode).toBe(200);
    await services.partner.recordBotStart(identity.id, `ref_${link.uid}`);
    expect(await t.db.query('select 1 from partner_pending_referrals where telegram_id = $1', [identity.id])).toEqual([]);
    expect((await defaultLink(partner.key)).totals.clicks).toBe(0);
    expect(await services.partner.attributeSignup({ id: 999_999, email: null, telegramId: identity.id }, { uid: link.uid })).toBe(false);
    expect((await defaultLink(partner.key)).totals.signups).toBe(0);
  });
});

describe('commission', () => {
  it('is 30 % of each referred payment, pending through the hold, then available; the same payment twice counts once', async () => {
    const partner = await signedInUser(t);
    const referred = await signUpWithRef((await defaultLink(partner.key)).uid);
    const key = await pay(referred.id, 1001);
    await pay(referred.id, 1001, 'XTR', key);
    expect(await balanceIn(partner.key, 'XTR')).toMatchObject({ available: 0, pending: 300, debt: 0 });
    expect(await get<PartnerBalances>(PARTNER_API.balance, partner.key)).toMatchObject({
      commission_percent: 30,
      hold_days: 14,
      hold_seconds: HOLD_S,
      minimum_withdrawal: [
        { currency: 'XTR', amount: 1000 },
        { currency: 'USD', amount: 5000 },
      ],
    });
    const [line] = (await transactions(partner.key)).results;
    expect(line).toMatchObject({ kind: 'commission', amount: 300, currency: 'XTR', state: 'pending' });
    expect(new Date(line.available_at).getTime() - new Date(line.date).getTime()).toBe(HOLD_S * 1000);

    t.clock.advance(HOLD_S + 1);
    expect(await balanceIn(partner.key, 'XTR')).toMatchObject({ available: 300, pending: 0 });
    expect((await transactions(partner.key)).results[0].state).toBe('available');
    // A renewal earns again; a payer nobody referred earns nobody anything.
    await pay(referred.id, 500, 'USD');
    const stranger = await signUpWithRef(null);
    await pay(stranger.id, 100_000);
    expect(await balanceIn(partner.key, 'USD')).toMatchObject({ pending: 150 });
    expect((await transactions(partner.key)).count).toBe(2);
    expect((await defaultLink(partner.key)).totals).toMatchObject({ signups: 1, paying: 1, revenue: [{ currency: 'USD', amount: 500 }, { currency: 'XTR', amount: 1001 }] });
  });

  it('a refund within the hold voids the commission; after the hold it is clawed back from the available balance', async () => {
    const partner = await signedInUser(t);
    const referred = await signUpWithRef((await defaultLink(partner.key)).uid);
    const early = await pay(referred.id, 1000);
    const late = await pay(referred.id, 2000);
    t.clock.advance(DAY_S);
    await services.partner.onRefund({ payerUserId: referred.id, paymentKey: early, at: t.clock.now() });
    await services.partner.onRefund({ payerUserId: referred.id, paymentKey: early, at: t.clock.now() });
    expect(await balanceIn(partner.key, 'XTR')).toMatchObject({ available: 0, pending: 600 });
    const voided = (await transactions(partner.key)).results.filter((line) => line.state === 'voided');
    expect(voided.map((line) => [line.kind, line.amount])).toEqual([
      ['void', -300],
      ['commission', 300],
    ]);

    t.clock.advance(HOLD_S);
    expect(await balanceIn(partner.key, 'XTR')).toMatchObject({ available: 600, pending: 0 });
    await services.partner.onRefund({ payerUserId: referred.id, paymentKey: late, at: t.clock.now() });
    expect(await balanceIn(partner.key, 'XTR')).toMatchObject({ available: 0, pending: 0, debt: 0 });
    expect((await transactions(partner.key)).results[0]).toMatchObject({ kind: 'clawback', amount: -600, state: 'available' });
    // A commission told after its refund (out of order) is never written.
    const refundedFirst = 'stars:charge:refunded-first';
    await services.partner.onRefund({ payerUserId: referred.id, paymentKey: refundedFirst, at: t.clock.now() });
    await pay(referred.id, 5000, 'XTR', refundedFirst);
    expect(await balanceIn(partner.key, 'XTR')).toMatchObject({ available: 0, pending: 0 });
  });

  it('the ledger is append-only: the database refuses to change or remove a line', async () => {
    await expect(t.db.query('update partner_ledger set amount = amount + 1')).rejects.toThrow(/append-only/);
    await expect(t.db.query('delete from partner_ledger')).rejects.toThrow(/append-only/);
  });
});

/** A partner with `amount` XTR available (a referred payment, past its hold). */
async function partnerWithAvailable(commission: number) {
  const partner = await signedInUser(t);
  const referred = await signUpWithRef((await defaultLink(partner.key)).uid);
  await pay(referred.id, Math.ceil((commission * 100) / 30));
  t.clock.advance(HOLD_S + 1);
  expect(await balanceIn(partner.key, 'XTR')).toMatchObject({ available: commission });
  return partner;
}
const withdraw = (key: string, amount: number, currency = 'XTR') =>
  t.app.inject({ method: 'POST', url: PARTNER_API.withdrawals, headers: auth(key), payload: { amount, currency, method: 'Card 4242' } });

describe('withdrawals', () => {
  it('above the minimum and within the available balance; the amount is held until an admin acts; reject returns it, paid is final', async () => {
    const partner = await partnerWithAvailable(3000);
    expect(expectJsonError(await withdraw(partner.key, 999), 400)).toMatchObject({ amount: ['Ensure this value is at least 1000 (XTR, minor units).'] });
    expect(expectJsonError(await withdraw(partner.key, 3001), 400)).toMatchObject({ codes: { amount: [{ code: 'above_available', count: 3000 }] } });
    expect(expectJsonError(await withdraw(partner.key, 5000, 'USD'), 400)).toMatchObject({ codes: { amount: [{ code: 'above_available', count: 0 }] } });

    const first = await withdraw(partner.key, 2000);
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json()).toMatchObject({ amount: 2000, currency: 'XTR', method: 'Card 4242', state: 'requested', paid_at: null });
    expect(await balanceIn(partner.key, 'XTR')).toMatchObject({ available: 1000 });
    expect(expectJsonError(await withdraw(partner.key, 2000), 400)).toHaveProperty('amount');

    const admin = await adminKey();
    const act = (id: number, action: 'approve' | 'reject' | 'paid', key = admin) => t.app.inject({ method: 'POST', url: PARTNER_API.adminWithdrawalAction(id, action), headers: auth(key) });
    const queue = await get<Withdrawal[]>(`${PARTNER_API.adminWithdrawals}?state=requested`, admin);
    expect(queue.map((w) => w.id)).toContain(first.json().id);

    const rejected = await act(first.json().id, 'reject');
    expect(rejected.statusCode, rejected.body).toBe(200);
    expect(rejected.json()).toMatchObject({ state: 'rejected', user: { id: partner.id } });
    expect(await balanceIn(partner.key, 'XTR')).toMatchObject({ available: 3000 });
    expect(expectJsonError(await act(first.json().id, 'paid'), 409)).toMatchObject({ code: 'withdrawal_state' });
    expect(await balanceIn(partner.key, 'XTR')).toMatchObject({ available: 3000 });

    const second = (await withdraw(partner.key, 3000)).json() as Withdrawal;
    expect((await act(second.id, 'approve')).json()).toMatchObject({ state: 'approved' });
    expect((await act(second.id, 'paid')).json()).toMatchObject({ state: 'paid' });
    expect(expectJsonError(await act(second.id, 'reject'), 409)).toMatchObject({ code: 'withdrawal_state' });
    expect(await balanceIn(partner.key, 'XTR')).toMatchObject({ available: 0 });
    const history = await get<Withdrawal[]>(PARTNER_API.withdrawals, partner.key);
    expect(history.map((w) => w.state)).toEqual(['paid', 'rejected']);
    expect(history[0].paid_at).not.toBeNull();
    expect(expectJsonError(await act(2_000_000, 'paid'), 404)).toEqual({ detail: 'Not found.', code: 'not_found' });
  });

  it('two requests at once cannot both spend the same balance', async () => {
    const partner = await partnerWithAvailable(1500);
    const answers = await Promise.all([withdraw(partner.key, 1000), withdraw(partner.key, 1000), withdraw(partner.key, 1000)]);
    expect(answers.map((res) => res.statusCode).sort()).toEqual([201, 400, 400]);
    expect(await balanceIn(partner.key, 'XTR')).toMatchObject({ available: 500 });
  });

  it('a clawback after a payout is a debt the next commissions pay off; nothing can be withdrawn meanwhile', async () => {
    const partner = await signedInUser(t);
    const referred = await signUpWithRef((await defaultLink(partner.key)).uid);
    const payment = await pay(referred.id, 5000);
    t.clock.advance(HOLD_S + 1);
    expect((await withdraw(partner.key, 1500)).statusCode).toBe(201);
    await services.partner.onRefund({ payerUserId: referred.id, paymentKey: payment, at: t.clock.now() });
    expect(await balanceIn(partner.key, 'XTR')).toMatchObject({ available: 0, debt: 1500 });
    expect(expectJsonError(await withdraw(partner.key, 1000), 400)).toMatchObject({ codes: { amount: [{ code: 'above_available', count: 0 }] } });
    await pay(referred.id, 10_000);
    t.clock.advance(HOLD_S + 1);
    expect(await balanceIn(partner.key, 'XTR')).toMatchObject({ available: 1500, debt: 0 });
  });
});

describe('a partner’s Telegram-first account', () => {
  it('is not let go when its Telegram identity moves to an e-mail account: its referrals stay bound to its link', async () => {
    const identity = tgUser();
    const partnerId = await startHere(identity);
    const tgAuth = { authorization: `TG ${initDataOf(identity)}` };
    const [link] = (await t.app.inject({ method: 'GET', url: PARTNER_API.links, headers: tgAuth })).json() as PartnerLink[];
    const referred = await signUpWithRef(link.uid);
    const account = await signedInUser(t);
    const moved = await post(t.app, API.telegramLink, { email: account.email, password: GOOD_PASSWORD }, { authorization: `TG ${initDataOf(identity)}` });
    expect(expectJsonError(moved, 400)).toHaveProperty('non_field_errors');
    expect(await referredBy(referred.id)).toBe(link.uid);
    expect(await t.db.query('select 1 from users where id = $1', [partnerId])).toHaveLength(1);
  });
});

describe('ownership and admins', () => {
  it('one partner never sees another’s link, ledger or withdrawals', async () => {
    const owner = await partnerWithAvailable(1200);
    expect((await withdraw(owner.key, 1000)).statusCode).toBe(201);
    const ownerLink = await defaultLink(owner.key);
    const other = await signedInUser(t);
    const stats = await t.app.inject({ method: 'GET', url: PARTNER_API.linkStats(ownerLink.uid), headers: auth(other.key) });
    expect(expectJsonError(stats, 404)).toEqual({ detail: 'Not found.', code: 'not_found' });
    expect(await transactions(other.key)).toEqual({ count: 0, results: [] });
    expect(await get<Withdrawal[]>(PARTNER_API.withdrawals, other.key)).toEqual([]);
    expect((await get<PartnerBalances>(PARTNER_API.balance, other.key)).balances).toEqual([]);
    // The owner sees their link's figures.
    expect((await get<{ totals: { signups: number } }>(`${PARTNER_API.linkStats(ownerLink.uid)}?period=all`, owner.key)).totals.signups).toBe(1);
  });

  it('the withdrawal queue and its decisions are for admins only (403 before anything is looked up)', async () => {
    const partner = await partnerWithAvailable(1000);
    const request = (await withdraw(partner.key, 1000)).json() as Withdrawal;
    expect(expectJsonError(await t.app.inject({ method: 'GET', url: PARTNER_API.adminWithdrawals, headers: auth(partner.key) }), 403)).toHaveProperty('detail');
    for (const action of ['approve', 'reject', 'paid'] as const) {
      expect(expectJsonError(await t.app.inject({ method: 'POST', url: PARTNER_API.adminWithdrawalAction(request.id, action), headers: auth(partner.key) }), 403)).toHaveProperty('detail');
    }
    expect((await get<Withdrawal[]>(PARTNER_API.withdrawals, partner.key))[0].state).toBe('requested');
    expect(expectJsonError(await t.app.inject({ method: 'GET', url: PARTNER_API.balance }), 401)).toHaveProperty('detail');
  });
});

describe('bad input', () => {
  it('is a clear 4xx on every partner route, never a 500', async () => {
    const partner = await signedInUser(t);
    const admin = await adminKey();
    const bodies = [
      undefined,
      '',
      '{}',
      'null',
      '[]',
      '{"amount": 1e309, "currency": "XTR", "method": "x"}',
      '{"amount": -5, "currency": "xtr", "method": ""}',
      '{"amount": 1000, "currency": "XTR", "method": "' + 'm'.repeat(201) + '"}',
      '{"amount": 1000, "currency": "XTR", "method": "\\u0000"}',
      '{"label": "\\ud800"}',
      '{"label": "' + 'l'.repeat(65) + '"}',
      '{"uid": "' + 'A'.repeat(5000) + '", "kind": "web"}',
      '{"uid": "AbCd1234", "kind": "bot"}',
      '{"__proto__": {"role": "admin"}, "amount": 1000}',
    ];
    const routes: Array<[string, string, string]> = [
      ['POST', PARTNER_API.links, partner.key],
      ['POST', PARTNER_API.withdrawals, partner.key],
      ['POST', PARTNER_API.clicks, partner.key],
      ['POST', PARTNER_API.adminWithdrawalAction(1, 'approve'), admin],
      ['GET', `${PARTNER_API.transactions}?page=-1`, partner.key],
      ['GET', `${PARTNER_API.transactions}?page=99999999999`, partner.key],
      ['GET', `${PARTNER_API.statistics}?period=%00`, partner.key],
      ['GET', `${PARTNER_API.linkStats('..%2F..')}`, partner.key],
      ['GET', `${PARTNER_API.adminWithdrawals}?state=lost`, admin],
      ['POST', '/api/admin/withdrawals/99999999999999/paid/', admin],
    ];
    const statuses = new Set<number>();
    for (const [method, url, key] of routes) {
      for (const payload of bodies) {
        const res = await t.app.inject({ method: method as 'POST', url, headers: { ...auth(key), 'content-type': 'application/json' }, payload: method === 'GET' ? undefined : payload });
        expect(res.statusCode, `${method} ${url} ${payload?.slice(0, 80)}: ${res.body}`).toBeLessThan(500);
        statuses.add(res.statusCode);
      }
    }
    // The routes are there and read the input: refusals are the API's own (400 field errors, 404 for an
    // unknown request, 409 for a request already decided).
    expect(statuses.has(400)).toBe(true);
    const send = (url: string, payload: string) => t.app.inject({ method: 'POST', url, headers: { ...auth(partner.key), 'content-type': 'application/json' }, payload });
    expect(expectJsonError(await send(PARTNER_API.withdrawals, bodies[6]!), 400)).toHaveProperty('amount');
    expect(expectJsonError(await send(PARTNER_API.withdrawals, bodies[7]!), 400)).toHaveProperty('method');
    expect(expectJsonError(await send(PARTNER_API.links, bodies[10]!), 400)).toHaveProperty('label');
    expect([...statuses].filter((status) => ![400, 404, 409].includes(status))).toEqual([]);
  });
});

