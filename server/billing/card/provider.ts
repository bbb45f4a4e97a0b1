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
  amount: number;
  currency: string;
}

/** A well-signed event that changes nothing here (checkout.session.completed, …): answered 200. */
export interface CardEventIgnored {
  type: 'ignored';
  eventId: string;
  providerType: string;
}

export type CardWebhookEvent = CardInvoicePaid | CardPaymentRefunded | CardEventIgnored;

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
  /**
   * Checks the signature over the exact bytes received, then reads the event. May ask the
   * provider what a refunded payment paid for (never before the signature has been checked).
   */
  parseWebhook(rawBody: Buffer, signatureHeader: string | undefined): Promise<CardWebhookEvent | CardWebhookRefusal>;
}

export const isRefusal = (parsed: CardWebhookEvent | CardWebhookRefusal): parsed is CardWebhookRefusal => 'refused' in parsed;
