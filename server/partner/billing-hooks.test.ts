// The two halves joined in services.ts: a payment billing applies for a referred user becomes
// the partner's pending commission (once, however often it is delivered), and its refund voids
// it. The rules themselves are tested in http/partner/partner.test.ts, on services.partner.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { API } from '../../contract/auth';
import { PARTNER_API, REF_COOKIE, type PartnerBalances, type PartnerLink, type PartnerTransactionsPage } from '../../contract/partner';
import type { BillingEvent } from '../billing/ports';
import type { Services } from '../services';
import { auth, createTestAppWithServices, createTestDb, GOOD_PASSWORD, post, signedInUser, uniqueEmail, type TestApp, type TestDb } from '../test/helpers';

let testDb: TestDb;
let t: TestApp & { services: Services };
let services: Services;

beforeAll(async () => {
  testDb = await createTestDb();
  t = await createTestAppWithServices(testDb.db, { partner: { commissionPercent: 30, holdSeconds: 14 * 86_400, minimumWithdrawal: { USD: 5000 } } });
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

it("a referred user's card payment applied by billing is the partner's pending commission, once; its refund voids it", async () => {
  const partner = await signedInUser(t);
  const [link] = await get<PartnerLink[]>(PARTNER_API.links, partner.key);
  const registered = await post(t.app, API.register, { email: uniqueEmail('referred'), password: GOOD_PASSWORD, re_password: GOOD_PASSWORD }, { cookie: `${REF_COOKIE}=${link.uid}` });
  expect(registered.statusCode, registered.body).toBe(201);
  const payerId = registered.json().id as number;
  const plan = await services.billing.createPlan({ title: 'Pro', limits: { running_funnels: null, people: null, mailings: true, letters: true }, price_card: 1299, card_currency: 'USD' });

  const payment: BillingEvent = { key: 'card:event:evt_hooks_1', userId: payerId, kind: 'payment', method: 'card', planId: plan.id, amount: 1299, currency: 'USD', paidUntil: null, externalId: 'sub_hooks_1' };
  expect(await services.billing.applyEvent(payment)).toEqual({ applied: true });
  expect(await services.billing.applyEvent(payment)).toEqual({ applied: false }); // the webhook delivered again

  const balance = await get<PartnerBalances>(PARTNER_API.balance, partner.key);
  expect(balance.balances).toEqual([expect.objectContaining({ currency: 'USD', pending: 389, available: 0 })]);
  const ledger = await get<PartnerTransactionsPage>(PARTNER_API.transactions, partner.key);
  expect(ledger.results).toEqual([expect.objectContaining({ kind: 'commission', amount: 389, currency: 'USD', state: 'pending' })]);

  const refund: BillingEvent = { key: 'card:event:evt_hooks_2', userId: payerId, kind: 'refund', method: 'card', planId: plan.id, amount: 1299, currency: 'USD', paidUntil: null, refundOfKey: payment.key };
  expect(await services.billing.applyEvent(refund)).toEqual({ applied: true });
  const after = await get<PartnerBalances>(PARTNER_API.balance, partner.key);
  expect(after.balances.find((line) => line.currency === 'USD')).toMatchObject({ pending: 0, available: 0 });
});
