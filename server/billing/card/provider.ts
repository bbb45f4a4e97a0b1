// Card payments in the browser go through one provider behind this interface: it makes a hosted
// checkout page, cancels a subscription at the end of its period, and turns its signed webhooks
// into provider-neutral events (server/billing/card/card.ts records them in the billing ledger).
// The one implementation is Stripe (stripe.ts); the tests and `npm run dev:telegram` point it at a
// local fake (scripts/card/fake-stripe.ts).

/** Who pays: the signed-in user. */
export interface CardPayer {
  id: number;
  /** Prefills the checkout page; Telegram-only accounts have none. */
  email: string | null;
}

/** What they pay for: a plan with a card price, in minor units of its currency. */
export interface CardPlan {
  id: number;
  title: string;
  priceCard: number;
  /** ISO 4217, upper case (USD). */
  cardCurrency: string;
}

/** Where the checkout page sends the payer back. */
export interface CheckoutUrls {
  successUrl: string;
  cancelUrl: string;
}

/** An invoice of a subscription was paid: the first (a payment) or a later one (a renewal). */
export interface CardInvoicePaid {
  type: 'invoice_paid';
  /** The provider's event id: the ledger's idempotency key is made from it. */
  eventId: string;
  userId: number;
  planId: number;
  /** The provider's subscription: what cancelAtPeriodEnd takes. */
  subscriptionId: string;
  invoiceId: string;
  /** true for the invoice that started the subscription. */
  first: boolean;
  amount: number;
  currency: string;
  /** The end of the period this invoice paid for (the provider's own, so both sides agree). */
  periodEnd: Date | null;
}

/** A payment was refunded (wholly or in part): the invoice it paid, when the provider knows it. */
export interface CardPaymentRefunded {
  type: 'payment_refunded';
  eventId: string;
  invoiceId: string | null;
  /** All that was refunded of the charge so far (the provider's running total). */
  amount: number;
  /** What the charge was: the refund is whole once `amount` reaches it. */
  chargeAmount: number;
  currency: string;
}

/** A subscription's invoice could not be charged (the provider retries it on its schedule). */
export interface CardPaymentFailed {
  type: 'payment_failed';
  eventId: string;
  userId: number;
  planId: number;
  subscriptionId: string;
  invoiceId: string;
  /** The provider's customer: its portal is where the card is updated. */
  customerId: string | null;
  amount: number;
  currency: string;
}

/** The provider ended the subscription (cancelled at period end and reached it, or unpaid). */
export interface CardSubscriptionEnded {
  type: 'subscription_ended';
  eventId: string;
  subscriptionId: string;
}

/** The renewal was cancelled (renews false) or resumed (true) at the provider, as in its portal. */
export interface CardRenewalChanged {
  type: 'renewal_changed';
  eventId: string;
  subscriptionId: string;
  renews: boolean;
}

/** A well-signed event that changes nothing here (checkout.session.completed, …): answered 200. */
export interface CardEventIgnored {
  type: 'ignored';
  eventId: string;
  providerType: string;
}

export type CardWebhookEvent = CardInvoicePaid | CardPaymentRefunded | CardPaymentFailed | CardSubscriptionEnded | CardRenewalChanged | CardEventIgnored;

/** A webhook the provider did not sign with our secret, or that is not one of its events. */
export interface CardWebhookRefusal {
  refused: true;
  reason: string;
}

export interface CardProvider {
  /** A hosted checkout page for a monthly subscription to the plan. */
  createCheckout(payer: CardPayer, plan: CardPlan, urls: CheckoutUrls): Promise<{ url: string }>;
  /** Stops renewal; the subscription stays paid to the end of its period. */
  cancelAtPeriodEnd(subscriptionId: string): Promise<void>;
  /** A page at the provider where the customer updates their card (null: the provider has none). */
  customerPortal(customerId: string, returnUrl: string): Promise<{ url: string } | null>;
  /** The provider's customer who pays for the subscription. */
  subscriptionCustomer(subscriptionId: string): Promise<string>;
  /**
   * Checks the signature over the exact bytes received, then reads the event. May ask the
   * provider what a refunded payment paid for (never before the signature has been checked).
   */
  parseWebhook(rawBody: Buffer, signatureHeader: string | undefined): Promise<CardWebhookEvent | CardWebhookRefusal>;
}

export const isRefusal = (parsed: CardWebhookEvent | CardWebhookRefusal): parsed is CardWebhookRefusal => 'refused' in parsed;
