// The card provider as Stripe: Checkout in subscription mode with the plan's price inline
// (price_data, monthly), cancel at period end, and webhooks checked with the SDK's own
// constructEvent. Who pays for which plan travels in the subscription's metadata, which Stripe
// copies onto every invoice of it (invoice.parent.subscription_details.metadata).
import Stripe from 'stripe';
import type { CardPayer, CardPlan, CardProvider, CardWebhookEvent, CardWebhookRefusal, CheckoutUrls } from './provider';

export interface StripeSettings {
  secretKey: string;
  webhookSecret: string;
  /** Only to point the SDK at the local fake (scripts/card/fake-stripe.ts); Stripe itself otherwise. */
  api: { host: string; port: number; protocol: 'http' | 'https' } | null;
}

/** The metadata keys this server writes on a subscription and reads back from its invoices. */
export const STRIPE_METADATA = { userId: 'user_id', planId: 'plan_id' } as const;

const positiveInt = (value: string | undefined): number | null => (value && /^[1-9][0-9]{0,14}$/.test(value) ? Number(value) : null);
const idOf = (value: string | { id: string } | null | undefined): string | null => (value == null ? null : typeof value === 'string' ? value : value.id);

/** Who pays for which plan, from an invoice of a subscription this server sold (null: not one of ours). */
function invoiceSubscription(invoice: Stripe.Invoice): { subscriptionId: string; userId: number; planId: number } | null {
  const details = invoice.parent?.subscription_details ?? null;
  const subscriptionId = idOf(details?.subscription);
  const userId = positiveInt(details?.metadata?.[STRIPE_METADATA.userId]);
  const planId = positiveInt(details?.metadata?.[STRIPE_METADATA.planId]);
  return subscriptionId && userId !== null && planId !== null ? { subscriptionId, userId, planId } : null;
}

function invoicePaymentFailed(eventId: string, invoice: Stripe.Invoice): CardWebhookEvent {
  const ours = invoiceSubscription(invoice);
  if (!ours) return { type: 'ignored', eventId, providerType: 'invoice.payment_failed' };
  return {
    type: 'payment_failed',
    eventId,
    ...ours,
    invoiceId: invoice.id,
    customerId: idOf(invoice.customer),
    amount: invoice.amount_due,
    currency: invoice.currency.toUpperCase(),
  };
}

function invoicePaid(eventId: string, invoice: Stripe.Invoice): CardWebhookEvent {
  const ours = invoiceSubscription(invoice);
  // An invoice of something this server did not sell (no subscription, or none of our metadata).
  if (!ours) return { type: 'ignored', eventId, providerType: 'invoice.paid' };
  const { subscriptionId, userId, planId } = ours;
  const periodEnd = invoice.lines?.data?.[0]?.period?.end;
  return {
    type: 'invoice_paid',
    eventId,
    userId,
    planId,
    subscriptionId,
    invoiceId: invoice.id,
    first: invoice.billing_reason === 'subscription_create',
    amount: invoice.amount_paid,
    currency: invoice.currency.toUpperCase(),
    periodEnd: typeof periodEnd === 'number' ? new Date(periodEnd * 1000) : null,
  };
}

export function createStripeProvider(settings: StripeSettings): CardProvider {
  const stripe = new Stripe(settings.secretKey, {
    ...(settings.api ?? {}),
    // A webhook's answer waits on these calls: fail fast rather than hold Stripe's delivery.
    timeout: 15_000,
    maxNetworkRetries: 1,
    telemetry: false,
  });

  /** The invoice a refunded payment paid (Stripe's charges no longer name it: ask the invoice payments). */
  async function invoiceOfPayment(paymentIntentId: string | null): Promise<string | null> {
    if (!paymentIntentId) return null;
    const payments = await stripe.invoicePayments.list({ payment: { type: 'payment_intent', payment_intent: paymentIntentId }, limit: 1 });
    return idOf(payments.data[0]?.invoice);
  }

  return {
    async createCheckout(payer: CardPayer, plan: CardPlan, urls: CheckoutUrls) {
      const metadata = { [STRIPE_METADATA.userId]: String(payer.id), [STRIPE_METADATA.planId]: String(plan.id) };
      const session = await stripe.checkout.sessions.create({
        mode: 'subscription',
        line_items: [
          {
            quantity: 1,
            price_data: {
              currency: plan.cardCurrency.toLowerCase(),
              unit_amount: plan.priceCard,
              recurring: { interval: 'month' },
              product_data: { name: plan.title },
            },
          },
        ],
        client_reference_id: String(payer.id),
        ...(payer.email ? { customer_email: payer.email } : {}),
        metadata,
        subscription_data: { metadata },
        success_url: urls.successUrl,
        cancel_url: urls.cancelUrl,
      });
      if (!session.url) throw new Error(`Stripe made checkout session ${session.id} without a url`);
      return { url: session.url };
    },

    async cancelAtPeriodEnd(subscriptionId: string) {
      await stripe.subscriptions.update(subscriptionId, { cancel_at_period_end: true });
    },

    async customerPortal(customerId: string, returnUrl: string) {
      const session = await stripe.billingPortal.sessions.create({ customer: customerId, return_url: returnUrl });
      return { url: session.url };
    },

    async subscriptionCustomer(subscriptionId: string) {
      const subscription = await stripe.subscriptions.retrieve(subscriptionId);
      return typeof subscription.customer === 'string' ? subscription.customer : subscription.customer.id;
    },

    async parseWebhook(rawBody: Buffer, signatureHeader: string | undefined): Promise<CardWebhookEvent | CardWebhookRefusal> {
      if (!signatureHeader) return { refused: true, reason: 'No Stripe-Signature header.' };
      let event: Stripe.Event;
      try {
        event = stripe.webhooks.constructEvent(rawBody, signatureHeader, settings.webhookSecret);
      } catch (error) {
        return { refused: true, reason: error instanceof Error ? error.message : 'The signature does not match.' };
      }
      switch (event.type) {
        case 'invoice.paid':
          return invoicePaid(event.id, event.data.object);
        case 'charge.refunded': {
          const charge = event.data.object;
          return {
            type: 'payment_refunded',
            eventId: event.id,
            invoiceId: await invoiceOfPayment(idOf(charge.payment_intent)),
            amount: charge.amount_refunded,
            chargeAmount: charge.amount,
            currency: charge.currency.toUpperCase(),
          };
        }
        case 'invoice.payment_failed':
          return invoicePaymentFailed(event.id, event.data.object);
        case 'customer.subscription.deleted':
          return { type: 'subscription_ended', eventId: event.id, subscriptionId: event.data.object.id };
        case 'customer.subscription.updated': {
          // Only a change of cancel_at_period_end is news here (Stripe sends this event for any change).
          const previous = event.data.previous_attributes as { cancel_at_period_end?: boolean } | undefined;
          const subscription = event.data.object;
          if (previous?.cancel_at_period_end === undefined || previous.cancel_at_period_end === subscription.cancel_at_period_end) {
            return { type: 'ignored', eventId: event.id, providerType: event.type };
          }
          return { type: 'renewal_changed', eventId: event.id, subscriptionId: subscription.id, renews: !subscription.cancel_at_period_end };
        }
        default:
          return { type: 'ignored', eventId: event.id, providerType: event.type };
      }
    },
  };
}
