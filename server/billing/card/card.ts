// Paying by card in a browser (/sbscrb/): a checkout page at the provider, and its webhooks
// recorded in the billing ledger (services.billing.applyEvent) under `card:event:<provider event id>`,
// so the same webhook twice changes nothing. The first paid invoice of a subscription is a payment,
// every later one a renewal; a charge refunded whole ends the period (a part refunded does not).
// A failed renewal charge is recorded and told to the owner once per invoice (access stays to
// paid_until, then the grace applies); the provider ending the subscription, or its renewal being
// cancelled or resumed in the provider's portal, sets whether it renews. Cancelling renewal here
// reaches the provider through the `card` PaymentMethodPort (cancel at period end).
import { BILLING_PATHS, CARD_SUBSCRIBE_ROUTE, SUBSCRIBE_ROUTE, type SubscriptionState } from '../../../contract/billing';
import type { Db } from '../../db';
import { COMMON_ERRORS, conflict, invalid, invalidField, unavailable } from '../../domain-error';
import type { ServiceLog } from '../../services';
import { signPortalToken, verifyPortalToken } from '../cancel-token';
import { BILLING_ERRORS } from '../errors';
import type { PaymentFailedNoticeSender } from '../notices';
import type { BillingEvent, PaymentMethodPort } from '../ports';
import { CARD_ERRORS } from './errors';
import { isRefusal, type CardPaymentFailed, type CardPaymentRefunded, type CardProvider, type CardRenewalChanged, type CardSubscriptionEnded } from './provider';

/** The ledger's key of a card webhook event (its idempotency). */
export const cardEventKey = (providerEventId: string) => `card:event:${providerEventId}`;

/** What card payments need of the billing core. */
export interface CardBillingPort {
  applyEvent(event: BillingEvent): Promise<{ applied: boolean; firstFailure?: boolean }>;
  entitlements(userId: number): Promise<{ state: SubscriptionState }>;
}

/** What became of a webhook; the route answers by it. */
export type CardWebhookOutcome =
  | { outcome: 'refused'; reason: string }
  | { outcome: 'recorded' }
  /** Seen before (the ledger already has its key): nothing changed. */
  | { outcome: 'replayed' }
  | { outcome: 'ignored' }
  /** Not to be decided now (a refund before its payment, the provider unreachable): the provider delivers it again later. */
  | { outcome: 'retry_later' };

export interface CardPaymentsDeps {
  db: Db;
  publicUrl: string;
  /** The server's secret: it signs the portal links of notices. */
  secretKey: string;
  /** null: card payment is off (no STRIPE_SECRET_KEY). */
  provider: CardProvider | null;
  billing: CardBillingPort;
  log: ServiceLog;
  /** Tells the owner that a renewal's charge failed (none: nobody is told). */
  paymentFailedNotice?: PaymentFailedNoticeSender;
  /** Runs work after the answer (services.ts: its background tasks); none: started, not awaited. */
  background?: (task: () => Promise<void>) => void;
}

interface CardSubscriptionRow {
  user_id: number;
  plan_id: number | null;
  renews: boolean;
  paid_until: Date | string;
  card_currency: string | null;
}

interface PlanRow {
  id: number;
  title: string;
  price_card: number | null;
  card_currency: string | null;
  archived: boolean;
}

interface PaidRow {
  user_id: number;
  key: string;
  plan_id: number | null;
}

export function createCardPayments({ db, publicUrl, secretKey, provider, billing, log, paymentFailedNotice, background }: CardPaymentsDeps) {
  const successUrl = `${publicUrl}${CARD_SUBSCRIBE_ROUTE}?paid=1`;
  const cancelUrl = `${publicUrl}${CARD_SUBSCRIBE_ROUTE}`;
  const subscribeUrl = `${publicUrl}${SUBSCRIBE_ROUTE}`;

  /** The subscription this server holds for the provider's subscription id (card only). */
  async function subscriptionOf(subscriptionId: string): Promise<CardSubscriptionRow | undefined> {
    const [row] = await db.query<CardSubscriptionRow>(
      `select s.user_id, s.plan_id, s.renews, s.paid_until, p.card_currency
         from subscriptions s left join plans p on p.id = s.plan_id
        where s.method = 'card' and s.external_id = $1`,
      [subscriptionId],
    );
    return row;
  }

  /**
   * The provider ended the subscription, or its renewal was cancelled or resumed there: renews
   * follows it (access lasts to paid_until). Nothing to change (renews already so, as after a
   * cancel by our own link): nothing recorded.
   */
  async function renewal(event: CardSubscriptionEnded | CardRenewalChanged): Promise<CardWebhookOutcome> {
    const renews = event.type === 'renewal_changed' ? event.renews : false;
    const current = await subscriptionOf(event.subscriptionId);
    // Not (or no longer) the subscription this server holds: it is over or replaced; nothing to do.
    if (!current) return { outcome: 'ignored' };
    if (current.renews === renews) return { outcome: 'ignored' };
    const { applied } = await billing.applyEvent({
      key: cardEventKey(event.eventId),
      userId: current.user_id,
      kind: renews ? 'resume' : 'cancel',
      method: 'card',
      planId: current.plan_id,
      amount: 0,
      currency: current.card_currency ?? '',
      paidUntil: new Date(current.paid_until),
      externalId: event.subscriptionId,
    });
    return { outcome: applied ? 'recorded' : 'replayed' };
  }

  /** A renewal's charge failed: recorded; access stays to paid_until; the owner is told once per invoice. */
  async function paymentFailed(event: CardPaymentFailed): Promise<CardWebhookOutcome> {
    const current = await subscriptionOf(event.subscriptionId);
    if (!current || current.user_id !== event.userId) return { outcome: 'ignored' };
    const { applied, firstFailure } = await billing.applyEvent({
      key: cardEventKey(event.eventId),
      userId: event.userId,
      kind: 'payment_failed',
      method: 'card',
      planId: event.planId,
      amount: event.amount,
      currency: event.currency,
      paidUntil: new Date(current.paid_until),
      externalId: event.subscriptionId,
      chargeId: event.invoiceId,
    });
    if (applied && firstFailure) tellPaymentFailed(event, new Date(current.paid_until));
    return { outcome: applied ? 'recorded' : 'replayed' };
  }

  /** The user's subscription as the portal link needs it (one row per user). */
  async function portalSubscriptionOf(userId: number) {
    const [row] = await db.query<{ cancel_generation: number; method: string; external_id: string | null }>(
      'select cancel_generation, method, external_id from subscriptions where user_id = $1 limit 1',
      [userId],
    );
    return row;
  }

  /**
   * Our signed link that opens a fresh portal session when followed: a provider's session URL is
   * short-lived (it expires unvisited), so a notice read an hour later must not carry one.
   */
  async function portalLink(userId: number): Promise<string> {
    const current = await portalSubscriptionOf(userId);
    const token = signPortalToken(secretKey, { userId, generation: current?.cancel_generation ?? 0 });
    return `${publicUrl}${BILLING_PATHS.cardPortal}?token=${encodeURIComponent(token)}`;
  }

  /** After the answer: the notice with our portal link; a failure is logged. */
  function tellPaymentFailed(event: CardPaymentFailed, paidUntil: Date): void {
    const send = paymentFailedNotice;
    if (!send) return;
    const task = async () => {
      try {
        const updateLink = provider ? await portalLink(event.userId) : subscribeUrl;
        await send(event.userId, { planId: event.planId, amount: event.amount, currency: event.currency, paidUntil, updateLink });
      } catch (error) {
        log.warn({ error: error instanceof Error ? error.message : String(error), user_id: event.userId }, 'the "payment failed" notice failed');
      }
    };
    if (background) background(task);
    else void task();
  }

  async function refund(event: CardPaymentRefunded): Promise<CardWebhookOutcome> {
    // A refund of something this server never sold (not an invoice of a subscription): nothing to undo.
    if (!event.invoiceId) return { outcome: 'ignored' };
    const [paid] = await db.query<PaidRow>(
      `select user_id, key, plan_id from billing_events
        where method = 'card' and charge_id = $1 and kind in ('payment', 'renewal')
        order by created_at limit 1`,
      [event.invoiceId],
    );
    if (!paid) return { outcome: 'retry_later' };
    // The provider's amount is the charge's running total: this event's refund is what it adds to
    // the refunds recorded before it. Whole once the total reaches the charge (the period ends);
    // a part given back is recorded and the period stays.
    const [before] = await db.query<{ refunded: number | string | null }>(
      `select sum(amount) as refunded from billing_events where method = 'card' and charge_id = $1 and kind in ('refund', 'partial_refund')`,
      [event.invoiceId],
    );
    const whole = event.amount >= event.chargeAmount;
    const { applied } = await billing.applyEvent({
      key: cardEventKey(event.eventId),
      userId: paid.user_id,
      kind: whole ? 'refund' : 'partial_refund',
      method: 'card',
      planId: paid.plan_id,
      amount: Math.max(0, event.amount - Number(before?.refunded ?? 0)),
      currency: event.currency,
      paidUntil: null,
      chargeId: event.invoiceId,
      refundOfKey: paid.key,
    });
    return { outcome: applied ? 'recorded' : 'replayed' };
  }

  return {
    /** Whether card payment is set up (the API says so when it is not). */
    enabled: provider !== null,

    /** The provider's checkout page for a monthly subscription of the user to the plan. */
    async checkout(userId: number, planId: number): Promise<{ url: string }> {
      if (!provider) throw invalid(CARD_ERRORS.cardOff);
      const [plan] = await db.query<PlanRow>('select id, title, price_card, card_currency, archived from plans where id = $1', [planId]);
      if (!plan || plan.archived) throw invalidField('plan_id', COMMON_ERRORS.doesNotExist(planId));
      if (plan.price_card === null || plan.card_currency === null) throw invalidField('plan_id', CARD_ERRORS.notSoldByCard);
      // A second renewing subscription would charge the payer twice a period (the first one, by
      // card or Stars, keeps renewing at its provider): its renewal is cancelled first.
      if ((await billing.entitlements(userId)).state === 'active') throw conflict(CARD_ERRORS.alreadySubscribed);
      const [payer] = await db.query<{ email: string | null }>('select email from users where id = $1', [userId]);
      try {
        return await provider.createCheckout(
          { id: userId, email: payer?.email ?? null },
          { id: plan.id, title: plan.title, priceCard: plan.price_card, cardCurrency: plan.card_currency },
          { successUrl, cancelUrl },
        );
      } catch (error) {
        log.error({ error: error instanceof Error ? error.message : String(error), planId }, 'card checkout: the provider refused or was unreachable');
        throw unavailable(CARD_ERRORS.providerDown);
      }
    },

    /** A webhook as it arrived: the exact bytes and the signature header. */
    async receiveWebhook(rawBody: Buffer, signatureHeader: string | undefined): Promise<CardWebhookOutcome> {
      if (!provider) return { outcome: 'refused', reason: 'Card payment is off.' };
      let parsed;
      try {
        parsed = await provider.parseWebhook(rawBody, signatureHeader);
      } catch (error) {
        // Signed, but what it refers to could not be looked up at the provider now: it delivers again.
        log.warn({ error: error instanceof Error ? error.message : String(error) }, 'card webhook: the provider could not be asked about it');
        return { outcome: 'retry_later' };
      }
      if (isRefusal(parsed)) return { outcome: 'refused', reason: parsed.reason };
      if (parsed.type === 'ignored') return { outcome: 'ignored' };
      if (parsed.type === 'payment_refunded') return refund(parsed);
      if (parsed.type === 'payment_failed') return paymentFailed(parsed);
      if (parsed.type === 'subscription_ended' || parsed.type === 'renewal_changed') return renewal(parsed);
      const [payer] = await db.query<{ id: number }>('select id from users where id = $1', [parsed.userId]);
      if (!payer) {
        // Signed by the provider, but for an account that no longer exists: nothing to give access to.
        log.warn({ eventId: parsed.eventId, userId: parsed.userId }, 'card webhook: a payment of an unknown user');
        return { outcome: 'ignored' };
      }
      const { applied } = await billing.applyEvent({
        key: cardEventKey(parsed.eventId),
        userId: parsed.userId,
        kind: parsed.first ? 'payment' : 'renewal',
        method: 'card',
        planId: parsed.planId,
        amount: parsed.amount,
        currency: parsed.currency,
        paidUntil: parsed.periodEnd,
        externalId: parsed.subscriptionId,
        chargeId: parsed.invoiceId,
      });
      return { outcome: applied ? 'recorded' : 'replayed' };
    },

    /**
     * GET /api/billing/card/portal/?token=: where to send the holder of a portal link. A token this
     * server did not sign: 400 on `token`. Otherwise a fresh portal session of the customer paying
     * for the user's card subscription; when the link is of an earlier subscription, there is no
     * card subscription, or the provider fails: /subscribe/ (never an error page for a genuine link).
     */
    async portalRedirect(token: string): Promise<string> {
      const claims = verifyPortalToken(secretKey, token);
      if (!claims) throw invalidField('token', BILLING_ERRORS.badCancelToken);
      const current = await portalSubscriptionOf(claims.userId);
      if (!provider || !current || current.cancel_generation !== claims.generation || current.method !== 'card' || !current.external_id) return subscribeUrl;
      try {
        const customerId = await provider.subscriptionCustomer(current.external_id);
        const portal = await provider.customerPortal(customerId, cancelUrl);
        return portal?.url ?? subscribeUrl;
      } catch (error) {
        log.warn({ error: error instanceof Error ? error.message : String(error), user_id: claims.userId }, 'card: no customer portal session; sent to /subscribe/');
        return subscribeUrl;
      }
    },

    /** The `card` PaymentMethodPort: renewal stops at the provider; access lasts to the period's end. */
    paymentMethod: {
      async cancelRenewal(subscription): Promise<void> {
        if (!provider) throw unavailable(CARD_ERRORS.cardOff);
        if (!subscription.externalId) return;
        await provider.cancelAtPeriodEnd(subscription.externalId);
      },
    } satisfies PaymentMethodPort,
  };
}

export type CardPayments = ReturnType<typeof createCardPayments>;
