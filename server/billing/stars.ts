// Telegram Stars: the invoice link for a plan (the service bot's createInvoiceLink), the answer to
// pre_checkout_query, successful_payment and refunded_payment into the billing ledger (exactly
// once: the key is the charge id) and the admin's refund. Cancelling renewal
// (editUserStarSubscription) is billing's stars PaymentMethodPort (./stars-cancel.ts). Access changes on successful_payment alone; the Mini App's invoice
// status only decides what the screen says. No HTTP and no grammY context here: the service bot
// and the routes hand in plain values.
import type { Api } from 'grammy';
import type { PreCheckoutQuery, RefundedPayment, SuccessfulPayment } from 'grammy/types';
import { STARS_CURRENCY, STARS_SUBSCRIPTION_PERIOD_SECONDS } from '../../contract/billing';
import type { Db } from '../db';
import { COMMON_ERRORS, type DomainMessage, invalidField, unavailable } from '../domain-error';
import { telegramRefusal } from '../funnels/bot-api';
import type { BillingEvent } from './ports';


/** The Bot API methods Stars payments call, with the service bot's token. */
export type StarsBotApi = Pick<Api, 'createInvoiceLink' | 'refundStarPayment'>;

export const STARS_ERRORS = {
  planNotSold: { code: 'invalid', text: 'This plan cannot be bought with Stars.' },
  noStarsPayment: { code: 'invalid', text: 'This user has no Stars payment to refund.' },
  notSetUp: { code: 'invalid', text: 'Stars payments are not set up on this server (no service bot).' },
  telegramDown: { code: 'telegram_down', text: 'Telegram is not answering. Try again in a minute.' },
  telegramRefused: (description: string): DomainMessage => ({ code: 'invalid', text: `Telegram refused: ${description}`, detail: description }),
} as const satisfies Record<string, DomainMessage | ((...args: never[]) => DomainMessage)>;

/** Why a pre-checkout is refused; the service bot words it in the payer's language. */
export type PreCheckoutRefusal = 'plan_unavailable' | 'price_changed' | 'wrong_account';
export type PreCheckoutDecision = { ok: true } | { ok: false; reason: PreCheckoutRefusal };

/** What an invoice's payload carries: whose it is, which plan, at what price. */
export interface StarsInvoicePayload {
  userId: number;
  planId: number;
  price: number;
}

const PAYLOAD_PREFIX = 'sub1';

/** `sub1:<user>:<plan>:<price>`: well under Telegram's 128 bytes, and readable in getStarTransactions. */
export function starsInvoicePayload({ userId, planId, price }: StarsInvoicePayload): string {
  return `${PAYLOAD_PREFIX}:${userId}:${planId}:${price}`;
}

export function readStarsInvoicePayload(payload: string): StarsInvoicePayload | null {
  const match = /^sub1:(\d{1,15}):(\d{1,15}):(\d{1,9})$/.exec(payload);
  if (!match) return null;
  return { userId: Number(match[1]), planId: Number(match[2]), price: Number(match[3]) };
}

export const starsChargeKey = (chargeId: string) => `stars:charge:${chargeId}`;
export const starsRefundKey = (chargeId: string) => `stars:refund:${chargeId}`;

interface PlanForSale {
  id: number;
  title: string;
  description: string;
  price_stars: number | null;
  archived: boolean;
}

export interface StarsDeps {
  db: Db;
  /** The service bot's Bot API client (services.ts makes it); null when TELEGRAM_BOT_TOKEN is not set. */
  api: StarsBotApi | null;
  billing: { applyEvent(event: BillingEvent): Promise<{ applied: boolean }> };
}

export function createStarsService({ db, api, billing }: StarsDeps) {
  function requireApi(): StarsBotApi {
    if (!api) throw unavailable(STARS_ERRORS.notSetUp);
    return api;
  }

  /** A Bot API failure as the domain's (503 either way): Telegram unreachable, or what Telegram said. */
  function telegramFailure(error: unknown): Error {
    const refusal = telegramRefusal(error);
    if (!refusal || refusal.error_code >= 500 || refusal.error_code === 429) return unavailable(STARS_ERRORS.telegramDown);
    return unavailable(STARS_ERRORS.telegramRefused(refusal.description));
  }

  async function planForSale(planId: number): Promise<PlanForSale | undefined> {
    const [plan] = await db.query<PlanForSale>(
      'select id, title, description, price_stars, archived from plans where id = $1',
      [planId],
    );
    return plan;
  }

  async function telegramIdOf(userId: number): Promise<number | null> {
    const [user] = await db.query<{ telegram_id: string | number | null }>('select telegram_id from users where id = $1', [userId]);
    return user?.telegram_id == null ? null : Number(user.telegram_id);
  }

  return {
    /** An invoice link for a plan's monthly Stars subscription, made out to this user. */
    async createInvoice(userId: number, planId: number): Promise<{ invoice_link: string }> {
      const plan = await planForSale(planId);
      if (!plan) throw invalidField('plan_id', COMMON_ERRORS.doesNotExist(planId));
      if (plan.archived || plan.price_stars === null) throw invalidField('plan_id', STARS_ERRORS.planNotSold);
      const bot = requireApi();
      const payload = starsInvoicePayload({ userId, planId: plan.id, price: plan.price_stars });
      try {
        const link = await bot.createInvoiceLink(
          plan.title.slice(0, 32),
          (plan.description.trim() || plan.title).slice(0, 255),
          payload,
          '',
          STARS_CURRENCY,
          [{ label: plan.title.slice(0, 32), amount: plan.price_stars }],
          { subscription_period: STARS_SUBSCRIPTION_PERIOD_SECONDS },
        );
        return { invoice_link: link };
      } catch (error) {
        throw telegramFailure(error);
      }
    },

    /**
     * Whether to take this payment: the plan is still sold at the invoice's price, in Stars, and
     * the payer is the Telegram account of the user the invoice was made out to. One statement.
     */
    async checkPreCheckout(query: Pick<PreCheckoutQuery, 'from' | 'currency' | 'total_amount' | 'invoice_payload'>): Promise<PreCheckoutDecision> {
      const invoice = readStarsInvoicePayload(query.invoice_payload);
      if (!invoice || query.currency !== STARS_CURRENCY) return { ok: false, reason: 'plan_unavailable' };
      const [row] = await db.query<{ price_stars: number | null; archived: boolean | null; telegram_id: string | number | null }>(
        `select p.price_stars, p.archived, u.telegram_id
           from users u left join plans p on p.id = $2
          where u.id = $1 and u.is_active`,
        [invoice.userId, invoice.planId],
      );
      if (!row || row.telegram_id == null || Number(row.telegram_id) !== query.from.id) return { ok: false, reason: 'wrong_account' };
      if (row.archived !== false || row.price_stars === null) return { ok: false, reason: 'plan_unavailable' };
      if (row.price_stars !== invoice.price || query.total_amount !== invoice.price) return { ok: false, reason: 'price_changed' };
      return { ok: true };
    },

    /** successful_payment: a first payment or a renewal into the ledger, once per charge id. */
    async recordPayment(payment: SuccessfulPayment): Promise<{ applied: boolean }> {
      const invoice = readStarsInvoicePayload(payment.invoice_payload);
      // Not one of ours (no other invoices are made with this bot): nothing to record.
      if (!invoice || payment.currency !== STARS_CURRENCY) return { applied: false };
      const chargeId = payment.telegram_payment_charge_id;
      const renewal = payment.is_recurring === true && payment.is_first_recurring !== true;
      return billing.applyEvent({
        key: starsChargeKey(chargeId),
        userId: invoice.userId,
        kind: renewal ? 'renewal' : 'payment',
        method: 'stars',
        planId: invoice.planId,
        amount: payment.total_amount,
        currency: STARS_CURRENCY,
        paidUntil: payment.subscription_expiration_date ? new Date(payment.subscription_expiration_date * 1000) : null,
        // The first charge id names the subscription for editUserStarSubscription; a renewal keeps it.
        externalId: renewal ? null : chargeId,
        chargeId,
      });
    },

    /** refunded_payment (or the admin's refund): the period ends now; once per charge id. */
    async recordRefund(refund: Pick<RefundedPayment, 'invoice_payload' | 'telegram_payment_charge_id' | 'total_amount' | 'currency'>): Promise<{ applied: boolean }> {
      const invoice = readStarsInvoicePayload(refund.invoice_payload);
      if (!invoice || refund.currency !== STARS_CURRENCY) return { applied: false };
      const chargeId = refund.telegram_payment_charge_id;
      return billing.applyEvent({
        key: starsRefundKey(chargeId),
        userId: invoice.userId,
        kind: 'refund',
        method: 'stars',
        planId: invoice.planId,
        amount: refund.total_amount,
        currency: STARS_CURRENCY,
        paidUntil: null,
        chargeId,
        refundOfKey: starsChargeKey(chargeId),
      });
    },

    /**
     * An admin refunds the user's last Stars payment not refunded yet (refundStarPayment), and
     * records it; the refunded_payment Telegram then sends changes nothing more.
     */
    async refundLastPayment(userId: number): Promise<{ user_id: number; charge_id: string; amount: number; currency: string }> {
      const telegramId = await telegramIdOf(userId);
      const [last] = await db.query<{ charge_id: string; amount: number; plan_id: number | null }>(
        `select e.charge_id, e.amount, e.plan_id
           from billing_events e
          where e.user_id = $1 and e.method = 'stars' and e.kind in ('payment', 'renewal') and e.charge_id is not null
            and not exists (select 1 from billing_events r where r.key = 'stars:refund:' || e.charge_id)
          order by e.created_at desc, e.id desc
          limit 1`,
        [userId],
      );
      if (!last || telegramId === null) {
        const [exists] = await db.query('select 1 from users where id = $1', [userId]);
        throw invalidField('user_id', exists ? STARS_ERRORS.noStarsPayment : COMMON_ERRORS.doesNotExist(userId));
      }
      const bot = requireApi();
      try {
        await bot.refundStarPayment(telegramId, last.charge_id);
      } catch (error) {
        // Refunded already on Telegram's side (its refunded_payment not seen yet): record it all the same.
        const alreadyRefunded = telegramRefusal(error)?.description === 'Bad Request: CHARGE_ALREADY_REFUNDED';
        if (!alreadyRefunded) throw telegramFailure(error);
      }
      await billing.applyEvent({
        key: starsRefundKey(last.charge_id),
        userId,
        kind: 'refund',
        method: 'stars',
        planId: last.plan_id,
        amount: last.amount,
        currency: STARS_CURRENCY,
        paidUntil: null,
        chargeId: last.charge_id,
        refundOfKey: starsChargeKey(last.charge_id),
      });
      return { user_id: userId, charge_id: last.charge_id, amount: last.amount, currency: STARS_CURRENCY };
    },

  };
}

export type StarsService = ReturnType<typeof createStarsService>;
