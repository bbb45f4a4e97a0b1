// The partner ledger under 10,000 random events — payments, renewals, refunds, withdrawal
// requests and rejections — in random order, each delivered twice, against a model of the rules
// kept in the test (a seeded PRNG: a failure replays exactly). After every step the checks hold:
// each balance is the sum of the model's lines (so no event counted twice and none was lost),
// what a withdrawal may take is never below zero, and an accepted withdrawal never took more
// than was available. A clawback after a payout may leave a debt (the sum below zero), shown
// apart from the available balance, which then reads 0.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, testClock, type TestDb } from '../test/helpers';
import { commissionOf } from './ledger';
import { createPartnerService, type PartnerService } from './partner';

const SEED = Number(process.env.PARTNER_PROPERTY_SEED ?? 20261126);
/** 10,000 by default; PARTNER_PROPERTY_EVENTS runs a shorter replay while working on the rules. */
const EVENTS = Number(process.env.PARTNER_PROPERTY_EVENTS ?? 10_000);
const HOLD_S = 14 * 86_400;
const PERCENT = 30;
const MINIMUM = { XTR: 100, USD: 500 } as const;
type Currency = keyof typeof MINIMUM;
const CURRENCIES: Currency[] = ['XTR', 'USD'];
const PARTNERS = 3;
const PAYERS_PER_PARTNER = 4;
/** Payers nobody referred: their payments earn nothing. */
const STRANGERS = 2;
/** The balances are compared with the model every this many deliveries (and after the last). */
const CHECK_EVERY = 50;

/** mulberry32: small, fast, and the same sequence for the same seed. */
function prng(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let x = state;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4_294_967_296;
  };
}

type LogicalEvent =
  | { kind: 'payment'; key: string; payer: number; amount: number; currency: Currency }
  | { kind: 'refund'; key: string; payer: number }
  | { kind: 'withdrawal'; partner: number; amount: number; currency: Currency; ordinal: number }
  | { kind: 'reject'; partner: number; ordinal: number };

interface ModelLine {
  key: string;
  partner: number;
  currency: string;
  amount: number;
  availableAtMs: number;
}

/** The rules, written again plainly: what the ledger must hold. */
class LedgerModel {
  readonly lines = new Map<string, ModelLine>();
  readonly refunded = new Set<string>();
  readonly withdrawals = new Map<number, { partner: number; amount: number; currency: string; state: 'requested' | 'rejected' }>();
  constructor(private readonly partnerOfPayer: Map<number, number>) {}

  payment(event: { key: string; payer: number; amount: number; currency: string }, atMs: number) {
    const partner = this.partnerOfPayer.get(event.payer);
    const key = `commission:${event.key}`;
    if (partner === undefined || this.lines.has(key) || this.refunded.has(event.key)) return;
    this.lines.set(key, { key, partner, currency: event.currency, amount: commissionOf(event.amount, PERCENT), availableAtMs: atMs + HOLD_S * 1000 });
  }

  refund(paymentKey: string, atMs: number) {
    this.refunded.add(paymentKey);
    const commission = this.lines.get(`commission:${paymentKey}`);
    const key = `reversal:${paymentKey}`;
    if (!commission || this.lines.has(key)) return;
    const within = atMs < commission.availableAtMs;
    this.lines.set(key, { key, partner: commission.partner, currency: commission.currency, amount: -commission.amount, availableAtMs: within ? commission.availableAtMs : atMs });
  }

  sums(partner: number, currency: string, atMs: number) {
    let available = 0;
    let pending = 0;
    for (const line of this.lines.values()) {
      if (line.partner !== partner || line.currency !== currency) continue;
      if (line.availableAtMs <= atMs) available += line.amount;
      else pending += line.amount;
    }
    return { available, pending };
  }
}

let testDb: TestDb;
let partner: PartnerService;
const clock = testClock(new Date('2030-01-01T00:00:00Z'));

beforeAll(async () => {
  testDb = await createTestDb();
  partner = createPartnerService({
    db: testDb.db,
    config: { publicUrl: 'https://funnels.test', partner: { commissionPercent: PERCENT, holdSeconds: HOLD_S, minimumWithdrawal: { ...MINIMUM } } },
    now: clock.now,
  });
});
afterAll(async () => {
  await testDb?.drop();
});

async function newUser(label: string): Promise<number> {
  const [row] = await testDb.db.query<{ id: number }>(`insert into users (email, is_active) values ($1, true) returning id`, [`${label}@property.test`]);
  return Number(row.id);
}

describe('the partner ledger, replayed', () => {
  it(`${EVENTS} random events in random order, each delivered twice, keep every balance equal to its lines and never below zero`, { timeout: 600_000 }, async () => {
    const random = prng(SEED);
    const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)];

    const partners: number[] = [];
    const payers: number[] = [];
    const partnerOfPayer = new Map<number, number>();
    for (let p = 0; p < PARTNERS; p++) {
      const id = await newUser(`partner-${p}`);
      partners.push(id);
      const uid = await partner.defaultUid(id);
      for (let n = 0; n < PAYERS_PER_PARTNER; n++) {
        const payer = await newUser(`payer-${p}-${n}`);
        expect(await partner.attributeSignup({ id: payer, email: `payer-${p}-${n}@property.test`, telegramId: null }, { uid })).toBe(true);
        payers.push(payer);
        partnerOfPayer.set(payer, id);
      }
    }
    for (let n = 0; n < STRANGERS; n++) payers.push(await newUser(`stranger-${n}`));

    // The events, as they happened: payments (a payer's first is a payment, later ones renewals),
    // refunds of earlier payments, withdrawal requests and rejections of earlier requests.
    const events: LogicalEvent[] = [];
    const paymentsSoFar: Array<{ key: string; payer: number }> = [];
    const requestsSoFar = new Map<number, number>(partners.map((id) => [id, 0]));
    for (let i = 0; events.length < EVENTS; i++) {
      const roll = random();
      if (roll < 0.55 || paymentsSoFar.length === 0) {
        const payer = pick(payers);
        const key = `stars:charge:p${i}`;
        events.push({ kind: 'payment', key, payer, amount: 1 + Math.floor(random() * 3000), currency: pick(CURRENCIES) });
        paymentsSoFar.push({ key, payer });
      } else if (roll < 0.7) {
        const { key, payer } = pick(paymentsSoFar);
        events.push({ kind: 'refund', key, payer });
      } else if (roll < 0.9) {
        const id = pick(partners);
        const currency = pick(CURRENCIES);
        const ordinal = requestsSoFar.get(id)!;
        requestsSoFar.set(id, ordinal + 1);
        events.push({ kind: 'withdrawal', partner: id, currency, amount: MINIMUM[currency] + Math.floor(random() * 1500), ordinal });
      } else {
        const id = pick(partners);
        const made = requestsSoFar.get(id)!;
        if (made === 0) continue;
        events.push({ kind: 'reject', partner: id, ordinal: Math.floor(random() * made) });
      }
    }
    // Each delivered twice, the whole lot in random order (Fisher-Yates).
    const deliveries = [...events, ...events];
    for (let i = deliveries.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [deliveries[i], deliveries[j]] = [deliveries[j], deliveries[i]];
    }

    const model = new LedgerModel(partnerOfPayer);
    /** Withdrawal ids by partner and the request's ordinal, once the request was accepted. */
    const requestIds = new Map<string, number>();
    const counts = { accepted: 0, refused: 0, voids: 0, clawbacks: 0, rejected: 0, debts: 0 };

    async function check(atMs: number) {
      for (const id of partners) {
        const { balances } = await partner.balance(id);
        for (const currency of CURRENCIES) {
          const expected = model.sums(id, currency, atMs);
          const actual = balances.find((b) => b.currency === currency) ?? { available: 0, pending: 0, debt: 0 };
          // The balance is the sum of its lines; what can be withdrawn is never below zero.
          expect({ available: actual.available - actual.debt, pending: actual.pending }).toEqual(expected);
          expect(actual.available).toBeGreaterThanOrEqual(0);
          if (actual.debt > 0) counts.debts++;
        }
      }
      const [{ n }] = await testDb.db.query<{ n: number }>('select count(*)::int as n from partner_ledger');
      expect(Number(n)).toBe(model.lines.size);
    }

    for (const [index, event] of deliveries.entries()) {
      // Time moves on between deliveries (about 50 minutes on average): some refunds fall within a hold, some after.
      clock.advance(Math.floor(random() * 6000));
      const at = clock.now();
      const atMs = at.getTime();
      switch (event.kind) {
        case 'payment':
          await partner.onPayment({ payerUserId: event.payer, paymentKey: event.key, amount: event.amount, currency: event.currency, at });
          model.payment(event, atMs);
          break;
        case 'refund': {
          const before = model.lines.size;
          await partner.onRefund({ payerUserId: event.payer, paymentKey: event.key, at });
          model.refund(event.key, atMs);
          if (model.lines.size > before) {
            if (model.lines.get(`reversal:${event.key}`)!.availableAtMs > atMs) counts.voids++;
            else counts.clawbacks++;
          }
          break;
        }
        case 'withdrawal': {
          const { available } = model.sums(event.partner, event.currency, atMs);
          const shouldPass = event.amount <= available;
          const outcome = await partner.requestWithdrawal(event.partner, { amount: event.amount, currency: event.currency, method: 'wallet' }).then(
            (withdrawal) => withdrawal,
            (error: unknown) => error,
          );
          if (shouldPass) {
            expect(outcome, `withdrawal ${event.amount} ${event.currency} with ${available} available`).toMatchObject({ state: 'requested' });
            const { id } = outcome as { id: number };
            model.lines.set(`withdrawal:${id}`, { key: `withdrawal:${id}`, partner: event.partner, currency: event.currency, amount: -event.amount, availableAtMs: atMs });
            model.withdrawals.set(id, { partner: event.partner, amount: event.amount, currency: event.currency, state: 'requested' });
            // The first delivery of a request is the one that counts for its rejections.
            const slot = `${event.partner}:${event.ordinal}`;
            if (!requestIds.has(slot)) requestIds.set(slot, id);
            expect(model.sums(event.partner, event.currency, atMs).available).toBeGreaterThanOrEqual(0);
            counts.accepted++;
          } else {
            expect(outcome).toMatchObject({ kind: 'invalid', fields: { amount: [{ code: 'above_available' }] } });
            counts.refused++;
          }
          break;
        }
        case 'reject': {
          const id = requestIds.get(`${event.partner}:${event.ordinal}`);
          if (id === undefined) break; // not requested yet (or refused): nothing to reject
          const held = model.withdrawals.get(id)!;
          const outcome = await partner.actOnWithdrawal(id, 'reject').then(
            (withdrawal) => withdrawal,
            (error: unknown) => error,
          );
          if (held.state === 'requested') {
            expect(outcome).toMatchObject({ state: 'rejected' });
            held.state = 'rejected';
            model.lines.set(`withdrawal_returned:${id}`, { key: `withdrawal_returned:${id}`, partner: held.partner, currency: held.currency, amount: held.amount, availableAtMs: atMs });
            counts.rejected++;
          } else {
            expect(outcome).toMatchObject({ kind: 'conflict', detail: { code: 'withdrawal_state' } });
          }
          break;
        }
      }
      if (index % CHECK_EVERY === 0 || index === deliveries.length - 1) await check(atMs);
    }
    // The run exercised every path (a seed that did not would prove little).
    expect(counts.accepted).toBeGreaterThan(50);
    expect(counts.refused).toBeGreaterThan(50);
    expect(counts.voids).toBeGreaterThan(10);
    expect(counts.clawbacks).toBeGreaterThan(10);
    expect(counts.rejected).toBeGreaterThan(10);
  });
});
