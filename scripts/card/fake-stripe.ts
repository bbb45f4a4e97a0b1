// A local stand-in for the few Stripe endpoints the server uses (the real one cannot be reached
// from the development machines), for tests, e2e and `npm run dev:telegram`. The official SDK talks
// to it unchanged (its host, port and protocol options), and its webhooks are signed as Stripe signs
// them (Stripe-Signature: t=…,v1=HMAC-SHA256 of `${t}.${body}`), so the SDK's own check passes or fails.
//
//   in tests:  const stripe = await startFakeStripe({ webhookUrl });      // port 0 = any free port
//              … the server makes a checkout session; then, as the payer pressing Pay:
//              await stripe.pay(sessionId);      // checkout.session.completed, then invoice.paid
//              await stripe.renew(subscriptionId); await stripe.refund(subscriptionId[, amount]);
//              await stripe.failPayment(subscriptionId);            // invoice.payment_failed (again: a retry of that invoice)
//              await stripe.setCancelAtPeriodEnd(subscriptionId, true); // as in the customer portal: customer.subscription.updated
//              await stripe.endSubscription(subscriptionId);         // customer.subscription.deleted
//              await stripe.redeliver(eventId);  // the same event again
//   by hand:   npx tsx scripts/card/fake-stripe.ts --port 8082 --webhook http://127.0.0.1:3000/api/billing/card/webhook/
//              (npm run dev:telegram and the e2e config start it so, with the keys they give the server)
//
// Stripe API:  POST /v1/checkout/sessions, GET /v1/checkout/sessions/:id, GET and POST /v1/subscriptions/:id,
//              GET /v1/invoice_payments, POST /v1/refunds, POST /v1/billing_portal/sessions
//              (form-encoded, Stripe's error bodies)
// Checkout:    GET /c/pay/:session (the page with the amount, Pay and a cancel link), POST /c/pay/:session
// Control:     JSON under /control/ (see CONTROL_ROUTES), for e2e and playing by hand.
import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';

/** What the server is given to talk to this fake (the same values as `npm run dev:telegram` passes). */
export const FAKE_STRIPE_SECRET_KEY = 'sk_test_fake_stripe_local_key_0000000000000000';
export const FAKE_STRIPE_WEBHOOK_SECRET = 'whsec_fake_stripe_local_secret_000000000000000';
/** The API version the events say they were rendered with (the SDK's own). */
const API_VERSION = '2026-10-28.endive';
const MODES = ['payment', 'setup', 'subscription'] as const;
const RECURRING_INTERVALS = ['day', 'week', 'month', 'year'] as const;
/** Enough of Stripe's currencies to refuse a typo; all are two-decimal but JPY/KRW. */
const CURRENCIES = new Set(['usd', 'eur', 'gbp', 'rub', 'uah', 'kzt', 'jpy', 'krw', 'chf', 'cad', 'aud', 'pln', 'try', 'inr', 'brl']);
const ZERO_DECIMAL = new Set(['jpy', 'krw']);

export interface FakeStripeOptions {
  port?: number;
  host?: string;
  secretKey?: string;
  webhookSecret?: string;
  /** Where events are POSTed; events are kept (and can be redelivered) without one too. */
  webhookUrl?: string;
}

type Metadata = Record<string, string>;

interface Price {
  currency: string;
  unit_amount: number;
  recurring: { interval: string; interval_count: number } | null;
  product_name: string;
}

export interface FakeSession {
  id: string;
  object: 'checkout.session';
  mode: string;
  status: 'open' | 'complete';
  payment_status: 'unpaid' | 'paid';
  url: string;
  success_url: string | null;
  cancel_url: string | null;
  client_reference_id: string | null;
  customer: string | null;
  customer_email: string | null;
  subscription: string | null;
  metadata: Metadata;
  amount_total: number;
  currency: string;
  created: number;
  livemode: false;
}

export interface FakeSubscription {
  id: string;
  object: 'subscription';
  customer: string;
  status: 'active' | 'past_due' | 'canceled';
  cancel_at_period_end: boolean;
  canceled_at: number | null;
  ended_at: number | null;
  metadata: Metadata;
  current_period_start: number;
  current_period_end: number;
  latest_invoice: string;
  created: number;
  livemode: false;
}

/** A session as the fake keeps it: also its price and the metadata its subscription will carry. */
type StoredSession = FakeSession & { price: Price; subscriptionMetadata: Metadata };
type StoredSubscription = FakeSubscription & { price: Price; invoices: string[] };

/** The rendered invoice's fields a failed charge's retries change. */
type StoredInvoiceRendering = { id: string; attempt_count: number; next_payment_attempt: number | null };

interface FakeInvoice {
  id: string;
  object: 'invoice';
  subscription: string;
  payment_intent: string;
  charge: string;
}

interface FakeCharge {
  id: string;
  object: 'charge';
  amount: number;
  amount_refunded: number;
  refunded: boolean;
  currency: string;
  customer: string;
  payment_intent: string;
  paid: boolean;
  status: 'succeeded' | 'failed';
  failure_code?: string;
  failure_message?: string;
  metadata: Metadata;
  created: number;
  livemode: false;
}

export interface FakeEvent {
  id: string;
  object: 'event';
  api_version: string;
  created: number;
  type: string;
  data: { object: object; previous_attributes?: object };
  livemode: false;
  pending_webhooks: number;
  request: { id: null; idempotency_key: null };
}

/** One POST of an event to the webhook endpoint, and what it answered (0: nothing answered). */
export interface FakeDelivery {
  eventId: string;
  type: string;
  status: number;
  answer: string;
}

/** Stripe's error body: `{ error: { type, message, param?, code? } }` with an HTTP status. */
export class StripeApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly param?: string,
    readonly code?: string,
  ) {
    super(message);
  }
  body() {
    return { error: { type: 'invalid_request_error', message: this.message, ...(this.param && { param: this.param }), ...(this.code && { code: this.code }) } };
  }
}

const missing = (param: string) => new StripeApiError(400, `Missing required param: ${param}.`, param, 'parameter_missing');
const unknownParam = (param: string) => new StripeApiError(400, `Received unknown parameter: ${param}`, param, 'parameter_unknown');
const noSuch = (kind: string, id: string, param = 'id') => new StripeApiError(404, `No such ${kind}: '${id}'`, param, 'resource_missing');

const nowS = () => Math.floor(Date.now() / 1000);
const newId = (prefix: string) => `${prefix}_${randomBytes(18).toString('base64url').replace(/[-_]/g, '').slice(0, 24)}`;
/** The same day next month, as Stripe's monthly billing goes. */
function addInterval(startS: number, interval: string, count: number): number {
  const date = new Date(startS * 1000);
  if (interval === 'day') date.setUTCDate(date.getUTCDate() + count);
  else if (interval === 'week') date.setUTCDate(date.getUTCDate() + 7 * count);
  else if (interval === 'year') date.setUTCFullYear(date.getUTCFullYear() + count);
  else date.setUTCMonth(date.getUTCMonth() + count);
  return Math.floor(date.getTime() / 1000);
}

// ------------------------------------------------------------------ form decoding

type FormValue = string | FormObject;
interface FormObject {
  [key: string]: FormValue;
}

/** Stripe's form encoding (`line_items[0][price_data][currency]=usd`) → nested objects. */
export function decodeForm(text: string): FormObject {
  const root: FormObject = {};
  for (const [key, value] of new URLSearchParams(text)) {
    const parts = key.replace(/\]/g, '').split('[');
    let node = root;
    parts.forEach((part, index) => {
      if (index === parts.length - 1) node[part] = value;
      else {
        const next = node[part];
        node = typeof next === 'object' ? next : (node[part] = {});
      }
    });
  }
  return root;
}

const asObject = (value: FormValue | undefined): FormObject | undefined => (typeof value === 'object' ? value : undefined);
/** `line_items[0]…`, `line_items[1]…` as a list. */
const asList = (value: FormValue | undefined): FormObject[] =>
  typeof value === 'object' ? Object.keys(value).sort((a, b) => Number(a) - Number(b)).map((key) => asObject(value[key]) ?? {}) : [];

function integerParam(value: FormValue | undefined, param: string): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !/^-?\d+$/.test(value)) throw new StripeApiError(400, `Invalid integer: ${typeof value === 'string' ? value : 'object'}`, param, 'parameter_invalid_integer');
  return Number(value);
}

function urlParam(value: FormValue | undefined, param: string): string | null {
  if (value === undefined) return null;
  if (typeof value !== 'string' || !/^https?:\/\/[^\s]+$/.test(value)) throw new StripeApiError(400, 'Not a valid URL', param, 'url_invalid');
  return value;
}

function metadataParam(value: FormValue | undefined, param: string): Metadata {
  if (value === undefined) return {};
  const object = asObject(value);
  if (!object) throw new StripeApiError(400, `Invalid object`, param, 'parameter_invalid_object');
  const out: Metadata = {};
  for (const [key, item] of Object.entries(object)) {
    if (typeof item !== 'string') throw new StripeApiError(400, 'Invalid metadata value', `${param}[${key}]`);
    if (item.length > 500) throw new StripeApiError(400, 'Metadata values can have up to 500 characters', `${param}[${key}]`);
    out[key] = item;
  }
  return out;
}

// ------------------------------------------------------------------ the fake

export class FakeStripeState {
  readonly sessions = new Map<string, StoredSession>();
  readonly subscriptions = new Map<string, StoredSubscription>();
  readonly invoices = new Map<string, FakeInvoice & { rendered: object }>();
  readonly charges = new Map<string, FakeCharge>();
  readonly events: FakeEvent[] = [];
  readonly deliveries: FakeDelivery[] = [];
  readonly refunds: object[] = [];
  readonly portalSessions: Array<{ id: string; object: 'billing_portal.session'; customer: string; return_url: string | null; url: string; created: number; livemode: false }> = [];
  /** The open (unpaid) invoice of each subscription whose last charge failed: its retries fail the same invoice. */
  private readonly failing = new Map<string, string>();
  webhookUrl: string | null;

  constructor(
    readonly baseUrl: () => string,
    readonly secretKey: string,
    readonly webhookSecret: string,
    webhookUrl: string | null,
  ) {
    this.webhookUrl = webhookUrl;
  }

  // ---- Stripe API

  createCheckoutSession(form: FormObject): FakeSession {
    const known = new Set(['mode', 'line_items', 'success_url', 'cancel_url', 'client_reference_id', 'customer_email', 'metadata', 'subscription_data', 'expand']);
    for (const key of Object.keys(form)) if (!known.has(key)) throw unknownParam(key);
    const mode = form.mode;
    if (mode === undefined) throw missing('mode');
    if (typeof mode !== 'string' || !(MODES as readonly string[]).includes(mode)) {
      throw new StripeApiError(400, `Invalid mode: must be one of ${MODES.slice(0, -1).join(', ')}, or ${MODES.at(-1)}`, 'mode');
    }
    if (mode !== 'subscription') throw new StripeApiError(400, `This fake only makes sessions in subscription mode, not ${mode}.`, 'mode');
    const items = asList(form.line_items);
    if (items.length === 0) throw missing('line_items');
    if (items.length > 1) throw new StripeApiError(400, 'This fake takes one line item.', 'line_items');
    const item = items[0];
    const at = 'line_items[0]';
    if (item.price !== undefined) throw new StripeApiError(400, 'This fake takes price_data, not a saved price.', `${at}[price]`);
    const priceData = asObject(item.price_data);
    if (!priceData) throw new StripeApiError(400, 'You must specify either `price` or `price_data` for each line item.', `${at}[price_data]`);
    const currency = priceData.currency;
    if (currency === undefined) throw missing(`${at}[price_data][currency]`);
    if (typeof currency !== 'string' || !CURRENCIES.has(currency.toLowerCase())) {
      throw new StripeApiError(400, `Invalid currency: ${String(currency)}. Stripe currently supports these currencies: ${[...CURRENCIES].join(', ')}`, `${at}[price_data][currency]`);
    }
    const unitAmount = integerParam(priceData.unit_amount, `${at}[price_data][unit_amount]`);
    if (unitAmount === undefined) throw missing(`${at}[price_data][unit_amount]`);
    if (unitAmount < 0) throw new StripeApiError(400, 'This value must be greater than or equal to 0.', `${at}[price_data][unit_amount]`);
    const product = asObject(priceData.product_data);
    if (!product && priceData.product === undefined) throw new StripeApiError(400, 'You must specify either `product` or `product_data` when creating a price.', `${at}[price_data][product_data]`);
    if (product && (typeof product.name !== 'string' || product.name === '')) throw missing(`${at}[price_data][product_data][name]`);
    const recurringForm = asObject(priceData.recurring);
    if (!recurringForm) throw new StripeApiError(400, 'You must provide at least one recurring price in `subscription` mode when using prices.', 'line_items');
    const interval = recurringForm.interval;
    if (interval === undefined) throw missing(`${at}[price_data][recurring][interval]`);
    if (typeof interval !== 'string' || !(RECURRING_INTERVALS as readonly string[]).includes(interval)) {
      throw new StripeApiError(400, `Invalid recurring[interval]: must be one of ${RECURRING_INTERVALS.join(', ')}`, `${at}[price_data][recurring][interval]`);
    }
    const quantity = integerParam(item.quantity, `${at}[quantity]`) ?? 1;
    if (quantity !== 1) throw new StripeApiError(400, 'This fake takes a quantity of 1.', `${at}[quantity]`);
    const subscriptionData = asObject(form.subscription_data);
    const id = newId('cs_test');
    const price: Price = {
      currency: currency.toLowerCase(),
      unit_amount: unitAmount,
      recurring: { interval, interval_count: integerParam(recurringForm.interval_count, `${at}[price_data][recurring][interval_count]`) ?? 1 },
      product_name: typeof product?.name === 'string' ? product.name : 'Subscription',
    };
    const session: StoredSession = {
      id,
      object: 'checkout.session' as const,
      mode,
      status: 'open' as const,
      payment_status: 'unpaid' as const,
      url: `${this.baseUrl()}/c/pay/${id}`,
      success_url: urlParam(form.success_url, 'success_url'),
      cancel_url: urlParam(form.cancel_url, 'cancel_url'),
      client_reference_id: typeof form.client_reference_id === 'string' ? form.client_reference_id : null,
      customer: null,
      customer_email: typeof form.customer_email === 'string' ? form.customer_email : null,
      subscription: null,
      metadata: metadataParam(form.metadata, 'metadata'),
      amount_total: unitAmount,
      currency: price.currency,
      created: nowS(),
      livemode: false as const,
      price,
      subscriptionMetadata: metadataParam(subscriptionData?.metadata, 'subscription_data[metadata]'),
    };
    this.sessions.set(id, session);
    return this.publicSession(session);
  }

  retrieveCheckoutSession(id: string): FakeSession {
    const session = this.sessions.get(id);
    if (!session) throw noSuch('checkout.session', id, 'session');
    return this.publicSession(session);
  }

  retrieveSubscription(id: string): FakeSubscription {
    const subscription = this.subscriptions.get(id);
    if (!subscription) throw noSuch('subscription', id);
    return this.publicSubscription(subscription);
  }

  updateSubscription(id: string, form: FormObject): FakeSubscription {
    const subscription = this.subscriptions.get(id);
    if (!subscription) throw noSuch('subscription', id);
    for (const key of Object.keys(form)) if (!['cancel_at_period_end', 'metadata', 'expand'].includes(key)) throw unknownParam(key);
    const cancel = form.cancel_at_period_end;
    if (cancel !== undefined && cancel !== 'true' && cancel !== 'false') throw new StripeApiError(400, 'Invalid boolean: ' + String(cancel), 'cancel_at_period_end');
    if (subscription.status === 'canceled') throw new StripeApiError(400, 'A canceled subscription can only update its cancellation_details and metadata.', 'cancel_at_period_end');
    if (form.metadata !== undefined) Object.assign(subscription.metadata, metadataParam(form.metadata, 'metadata'));
    if (cancel !== undefined) {
      // Stripe tells the endpoint of the change as of any other, after answering the call.
      const event = this.changeCancelAtPeriodEnd(subscription, cancel === 'true');
      if (event) void this.deliver(event);
    }
    return this.publicSubscription(subscription);
  }

  createPortalSession(form: FormObject) {
    for (const key of Object.keys(form)) if (!['customer', 'return_url', 'expand'].includes(key)) throw unknownParam(key);
    const customer = form.customer;
    if (customer === undefined) throw missing('customer');
    if (typeof customer !== 'string' || ![...this.subscriptions.values()].some((sub) => sub.customer === customer)) throw noSuch('customer', String(customer), 'customer');
    const id = newId('bps');
    const session = { id, object: 'billing_portal.session' as const, customer, return_url: urlParam(form.return_url, 'return_url'), url: `${this.baseUrl()}/p/session/${id}`, created: nowS(), livemode: false as const };
    this.portalSessions.push(session);
    return session;
  }

  listInvoicePayments(query: URLSearchParams) {
    const paymentIntent = query.get('payment[payment_intent]');
    const invoiceId = query.get('invoice');
    const data = [...this.invoices.values()]
      .filter((invoice) => this.charges.get(invoice.charge)!.paid)
      .filter((invoice) => (paymentIntent ? invoice.payment_intent === paymentIntent : true) && (invoiceId ? invoice.id === invoiceId : true))
      .map((invoice) => {
        const charge = this.charges.get(invoice.charge)!;
        return {
          id: newId('inpay'),
          object: 'invoice_payment',
          invoice: invoice.id,
          amount_paid: charge.amount,
          amount_requested: charge.amount,
          currency: charge.currency,
          is_default: true,
          livemode: false,
          payment: { type: 'payment_intent', payment_intent: invoice.payment_intent },
          status: 'paid',
        };
      });
    return { object: 'list', data, has_more: false, url: '/v1/invoice_payments' };
  }

  async createRefund(form: FormObject) {
    const chargeId = typeof form.charge === 'string' ? form.charge : null;
    const paymentIntent = typeof form.payment_intent === 'string' ? form.payment_intent : null;
    if (!chargeId && !paymentIntent) throw new StripeApiError(400, 'One of the following params should be provided for this request: payment_intent or charge.', 'charge');
    const charge = chargeId ? this.charges.get(chargeId) : [...this.charges.values()].find((c) => c.payment_intent === paymentIntent);
    if (!charge) throw chargeId ? noSuch('charge', chargeId, 'charge') : noSuch('payment_intent', paymentIntent!, 'payment_intent');
    const amount = integerParam(form.amount, 'amount') ?? charge.amount - charge.amount_refunded;
    if (amount <= 0 || amount > charge.amount - charge.amount_refunded) {
      throw new StripeApiError(400, `Refund amount (${amount}) is greater than unrefunded amount on charge (${charge.amount - charge.amount_refunded})`, 'amount', 'amount_too_large');
    }
    return (await this.refundCharge(charge, amount)).refund;
  }

  // ---- what the payer and the tests do

  /** The payer presses Pay on the checkout page: the events Stripe sends, in its order. */
  async pay(sessionId: string): Promise<{ session: FakeSession; subscription: FakeSubscription; events: FakeEvent[] }> {
    const session = this.sessions.get(sessionId);
    if (!session) throw noSuch('checkout.session', sessionId, 'session');
    if (session.status === 'complete') throw new StripeApiError(400, 'This Checkout Session is no longer active.', 'session', 'checkout_session_completed');
    const customer = newId('cus');
    const subscriptionId = newId('sub');
    const start = nowS();
    const interval = session.price.recurring ?? { interval: 'month', interval_count: 1 };
    const subscription: StoredSubscription = {
      id: subscriptionId,
      object: 'subscription' as const,
      customer,
      status: 'active' as const,
      cancel_at_period_end: false,
      canceled_at: null,
      ended_at: null,
      metadata: { ...session.subscriptionMetadata },
      current_period_start: start,
      current_period_end: addInterval(start, interval.interval, interval.interval_count),
      latest_invoice: '',
      created: start,
      livemode: false as const,
      price: session.price,
      invoices: [] as string[],
    };
    this.subscriptions.set(subscriptionId, subscription);
    Object.assign(session, { status: 'complete', payment_status: 'paid', customer, subscription: subscriptionId });
    const completed = this.addEvent('checkout.session.completed', this.publicSession(session));
    const invoice = this.invoiceFor(subscription, 'subscription_create');
    const paid = this.addEvent('invoice.paid', invoice);
    // Stripe delivers each event on its own; the endpoint usually sees them in this order.
    await this.deliver(completed);
    await this.deliver(paid);
    return { session: this.publicSession(session), subscription: this.publicSubscription(subscription), events: [completed, paid] };
  }

  /** The next period is charged: invoice.paid (subscription_cycle), under a new event id. */
  async renew(subscriptionId: string): Promise<FakeEvent> {
    const subscription = this.subscriptions.get(subscriptionId);
    if (!subscription) throw noSuch('subscription', subscriptionId);
    if (subscription.cancel_at_period_end) throw new StripeApiError(400, 'This subscription is cancelled at period end: it does not renew.', 'subscription');
    if (subscription.status === 'canceled') throw new StripeApiError(400, 'This subscription is canceled: it does not renew.', 'subscription');
    // A renewal after failed attempts is the failed invoice paid at last (a new one here, for simplicity).
    this.failing.delete(subscriptionId);
    subscription.status = 'active';
    const interval = subscription.price.recurring ?? { interval: 'month', interval_count: 1 };
    subscription.current_period_start = subscription.current_period_end;
    subscription.current_period_end = addInterval(subscription.current_period_start, interval.interval, interval.interval_count);
    const event = this.addEvent('invoice.paid', this.invoiceFor(subscription, 'subscription_cycle'));
    await this.deliver(event);
    return event;
  }

  /** The latest paid invoice of the subscription is refunded, in full or `amount` of it (as in the dashboard): charge.refunded. */
  async refund(subscriptionId: string, amount?: number): Promise<FakeEvent> {
    const subscription = this.subscriptions.get(subscriptionId);
    if (!subscription) throw noSuch('subscription', subscriptionId);
    const paidId = subscription.invoices.filter((id) => this.charges.get(this.invoices.get(id)!.charge)!.paid).at(-1);
    if (!paidId) throw new StripeApiError(400, 'This subscription has no paid invoice to refund.', 'subscription');
    const charge = this.charges.get(this.invoices.get(paidId)!.charge)!;
    const left = charge.amount - charge.amount_refunded;
    const refunded = amount ?? left;
    if (!Number.isInteger(refunded) || refunded <= 0 || refunded > left) {
      throw new StripeApiError(400, `Refund amount (${refunded}) is greater than unrefunded amount on charge (${left})`, 'amount', 'amount_too_large');
    }
    return (await this.refundCharge(charge, refunded)).event;
  }

  /**
   * The next period's charge fails (the card was declined): invoice.payment_failed, the
   * subscription past_due. Called again before a renewal succeeds: Stripe's retry of the same
   * invoice, failing again under a new event id (attempt_count goes up).
   */
  async failPayment(subscriptionId: string): Promise<FakeEvent> {
    const subscription = this.liveSubscription(subscriptionId);
    const openId = this.failing.get(subscriptionId);
    let rendered: StoredInvoiceRendering;
    if (openId) {
      rendered = this.invoices.get(openId)!.rendered as StoredInvoiceRendering;
      rendered.attempt_count += 1;
    } else {
      rendered = this.invoiceFor(subscription, 'subscription_cycle', 'open') as StoredInvoiceRendering;
      this.failing.set(subscriptionId, rendered.id);
    }
    rendered.next_payment_attempt = nowS() + 3 * 86_400;
    subscription.status = 'past_due';
    const event = this.addEvent('invoice.payment_failed', { ...rendered });
    await this.deliver(event);
    return event;
  }

  /** As the customer does in the portal: renewal cancelled (true) or resumed (false): customer.subscription.updated. */
  async setCancelAtPeriodEnd(subscriptionId: string, cancel: boolean): Promise<FakeEvent | null> {
    const event = this.changeCancelAtPeriodEnd(this.liveSubscription(subscriptionId), cancel);
    if (event) await this.deliver(event);
    return event;
  }

  /** Stripe ends the subscription (its cancelled period is over, or it stayed unpaid): customer.subscription.deleted. */
  async endSubscription(subscriptionId: string): Promise<FakeEvent> {
    const subscription = this.liveSubscription(subscriptionId);
    const at = nowS();
    Object.assign(subscription, { status: 'canceled', canceled_at: subscription.canceled_at ?? at, ended_at: at });
    this.failing.delete(subscriptionId);
    const event = this.addEvent('customer.subscription.deleted', this.publicSubscription(subscription));
    await this.deliver(event);
    return event;
  }

  /** The same event again, as Stripe does when it did not see a 2xx (or just does). */
  async redeliver(eventId: string): Promise<FakeDelivery> {
    const event = this.events.find((e) => e.id === eventId);
    if (!event) throw noSuch('event', eventId);
    return this.deliver(event);
  }

  // ---- internals

  private liveSubscription(subscriptionId: string): StoredSubscription {
    const subscription = this.subscriptions.get(subscriptionId);
    if (!subscription) throw noSuch('subscription', subscriptionId);
    if (subscription.status === 'canceled') throw new StripeApiError(400, `This subscription is canceled: ${subscriptionId}`, 'subscription');
    return subscription;
  }

  /** customer.subscription.updated with the previous value in previous_attributes, as Stripe sends it (null: nothing changed). */
  private changeCancelAtPeriodEnd(subscription: StoredSubscription, cancel: boolean): FakeEvent | null {
    if (subscription.cancel_at_period_end === cancel) return null;
    subscription.cancel_at_period_end = cancel;
    subscription.canceled_at = cancel ? nowS() : null;
    return this.addEvent('customer.subscription.updated', this.publicSubscription(subscription), { cancel_at_period_end: !cancel, canceled_at: cancel ? null : nowS() });
  }

  private async refundCharge(charge: FakeCharge, amount: number) {
    charge.amount_refunded += amount;
    charge.refunded = charge.amount_refunded >= charge.amount;
    const refund = { id: newId('re'), object: 'refund', amount, charge: charge.id, payment_intent: charge.payment_intent, currency: charge.currency, status: 'succeeded', created: nowS() };
    this.refunds.push(refund);
    const event = this.addEvent('charge.refunded', { ...charge });
    await this.deliver(event);
    return { refund, event };
  }

  /** A new invoice of the subscription's current period: paid (its charge succeeded) or open (its charge failed). */
  private invoiceFor(subscription: StoredSubscription, billingReason: string, status: 'paid' | 'open' = 'paid'): object {
    const id = newId('in');
    const paymentIntent = newId('pi');
    const paid = status === 'paid';
    const charge: FakeCharge = {
      id: newId('ch'),
      object: 'charge',
      amount: subscription.price.unit_amount,
      amount_refunded: 0,
      refunded: false,
      currency: subscription.price.currency,
      customer: subscription.customer,
      payment_intent: paymentIntent,
      paid,
      status: paid ? 'succeeded' : 'failed',
      ...(paid ? {} : { failure_code: 'card_declined', failure_message: 'Your card was declined.' }),
      metadata: {},
      created: nowS(),
      livemode: false,
    };
    this.charges.set(charge.id, charge);
    const rendered = {
      id,
      object: 'invoice',
      amount_due: charge.amount,
      amount_paid: paid ? charge.amount : 0,
      amount_remaining: paid ? 0 : charge.amount,
      attempt_count: 1,
      attempted: true,
      next_payment_attempt: null,
      billing_reason: billingReason,
      currency: charge.currency,
      customer: subscription.customer,
      status,
      created: nowS(),
      livemode: false,
      metadata: {},
      period_start: subscription.current_period_start,
      period_end: subscription.current_period_start,
      parent: {
        type: 'subscription_details',
        quote_details: null,
        subscription_details: { metadata: { ...subscription.metadata }, subscription: subscription.id },
      },
      lines: {
        object: 'list',
        has_more: false,
        url: `/v1/invoices/${id}/lines`,
        data: [
          {
            id: newId('il'),
            object: 'line_item',
            amount: charge.amount,
            currency: charge.currency,
            description: `1 × ${subscription.price.product_name}`,
            period: { start: subscription.current_period_start, end: subscription.current_period_end },
          },
        ],
      },
    };
    this.invoices.set(id, { id, object: 'invoice', subscription: subscription.id, payment_intent: paymentIntent, charge: charge.id, rendered });
    subscription.invoices.push(id);
    subscription.latest_invoice = id;
    return rendered;
  }

  private addEvent(type: string, object: object, previousAttributes?: object): FakeEvent {
    const event: FakeEvent = {
      id: newId('evt'),
      object: 'event',
      api_version: API_VERSION,
      created: nowS(),
      type,
      data: previousAttributes ? { object, previous_attributes: previousAttributes } : { object },
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
    };
    this.events.push(event);
    return event;
  }

  /** Stripe's signature: t=<seconds>,v1=<hex HMAC-SHA256 of `${t}.${payload}` with the endpoint's secret>. */
  signature(payload: string, timestamp = nowS(), secret = this.webhookSecret): string {
    const v1 = createHmac('sha256', secret).update(`${timestamp}.${payload}`, 'utf8').digest('hex');
    return `t=${timestamp},v1=${v1}`;
  }

  private async deliver(event: FakeEvent): Promise<FakeDelivery> {
    const delivery: FakeDelivery = { eventId: event.id, type: event.type, status: 0, answer: '' };
    if (this.webhookUrl) {
      const payload = JSON.stringify(event, null, 2);
      try {
        const response = await fetch(this.webhookUrl, {
          method: 'POST',
          headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': this.signature(payload), 'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)' },
          body: payload,
          signal: AbortSignal.timeout(20_000),
        });
        delivery.status = response.status;
        delivery.answer = await response.text();
      } catch (error) {
        delivery.answer = error instanceof Error ? error.message : String(error);
      }
    }
    this.deliveries.push(delivery);
    return delivery;
  }

  private publicSession(session: FakeSession): FakeSession {
    const { id, object, mode, status, payment_status, url, success_url, cancel_url, client_reference_id, customer, customer_email, subscription, metadata, amount_total, currency, created, livemode } = session;
    return { id, object, mode, status, payment_status, url: status === 'open' ? url : (null as unknown as string), success_url, cancel_url, client_reference_id, customer, customer_email, subscription, metadata, amount_total, currency, created, livemode };
  }

  private publicSubscription(subscription: StoredSubscription): FakeSubscription & { items: object } {
    const { price, invoices: _invoices, ...rest } = subscription;
    return {
      ...rest,
      items: {
        object: 'list',
        has_more: false,
        data: [
          {
            object: 'subscription_item',
            quantity: 1,
            current_period_start: subscription.current_period_start,
            current_period_end: subscription.current_period_end,
            price: { object: 'price', currency: price.currency, unit_amount: price.unit_amount, recurring: price.recurring },
          },
        ],
      },
    };
  }
}

// ------------------------------------------------------------------ HTTP

export interface FakeStripe extends FakeStripeState {
  /** http://127.0.0.1:<port> */
  readonly url: string;
  readonly host: string;
  readonly port: number;
  close(): Promise<void>;
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  if (res.writableEnded || res.destroyed) return;
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), 'request-id': newId('req') });
  res.end(text);
}

async function readText(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > 1024 * 1024) throw new StripeApiError(413, 'Request too large');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function formatAmount(amount: number, currency: string): string {
  const major = ZERO_DECIMAL.has(currency) ? String(amount) : (amount / 100).toFixed(2);
  return `${major} ${currency.toUpperCase()}`;
}

function checkoutPage(session: StoredSession): string {
  const amount = formatAmount(session.amount_total, session.currency);
  const interval = session.price.recurring?.interval ?? 'month';
  const body =
    session.status === 'open'
      ? `<p class="amount" data-testid="fake-stripe-amount">${escapeHtml(amount)} / ${escapeHtml(interval)}</p>
  <form method="post" action="/c/pay/${escapeHtml(session.id)}"><button type="submit">Pay</button></form>
  ${session.cancel_url ? `<p><a href="${escapeHtml(session.cancel_url)}">Cancel</a></p>` : ''}`
      : `<p>This checkout session is complete.</p>`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Pay ${escapeHtml(session.price.product_name)} — fake Stripe Checkout</title>
<style>body{font:16px system-ui,sans-serif;max-width:24rem;margin:3rem auto;padding:0 1rem}.amount{font-size:2rem}button{font-size:1.2rem;padding:.6rem 2rem}</style>
</head><body><h1>${escapeHtml(session.price.product_name)}</h1>
  <p>Fake Stripe Checkout (local, no real card).</p>
  ${body}
</body></html>`;
}

type ControlHandler = (state: FakeStripeState, params: string[], body: () => Promise<Record<string, unknown>>) => unknown;

/** Control API: JSON in, JSON out (a StripeApiError's body on failure). */
const CONTROL_ROUTES: Array<[method: string, pattern: RegExp, handler: ControlHandler]> = [
  ['GET', /^\/control\/sessions$/, (state) => [...state.sessions.values()]],
  ['GET', /^\/control\/subscriptions$/, (state) => [...state.subscriptions.values()]],
  ['GET', /^\/control\/events$/, (state) => state.events],
  ['GET', /^\/control\/deliveries$/, (state) => state.deliveries],
  ['POST', /^\/control\/sessions\/([^/]+)\/pay$/, (state, [id]) => state.pay(id)],
  ['POST', /^\/control\/subscriptions\/([^/]+)\/renew$/, (state, [id]) => state.renew(id)],
  [
    'POST',
    /^\/control\/subscriptions\/([^/]+)\/refund$/,
    async (state, [id], body) => {
      const { amount } = await body();
      return state.refund(id, typeof amount === 'number' ? amount : undefined);
    },
  ],
  ['POST', /^\/control\/subscriptions\/([^/]+)\/fail-payment$/, (state, [id]) => state.failPayment(id)],
  [
    'POST',
    /^\/control\/subscriptions\/([^/]+)\/cancel-at-period-end$/,
    async (state, [id], body) => {
      const { cancel } = await body();
      return state.setCancelAtPeriodEnd(id, cancel !== false);
    },
  ],
  ['POST', /^\/control\/subscriptions\/([^/]+)\/end$/, (state, [id]) => state.endSubscription(id)],
  ['POST', /^\/control\/events\/([^/]+)\/redeliver$/, (state, [id]) => state.redeliver(id)],
  [
    'POST',
    /^\/control\/webhook$/,
    async (state, _params, body) => {
      const { url } = await body();
      state.webhookUrl = typeof url === 'string' && url ? url : null;
      return { url: state.webhookUrl };
    },
  ],
];

async function handle(state: FakeStripeState, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://fake.local');
  const method = req.method ?? 'GET';
  const path = url.pathname.replace(/\/+$/, '') || '/';

  if (path.startsWith('/v1/')) {
    const auth = req.headers.authorization ?? '';
    const key = /^Bearer (.+)$/.exec(auth)?.[1];
    if (!key) throw new StripeApiError(401, 'You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. \'Authorization: Bearer YOUR_SECRET_KEY\').');
    if (key !== state.secretKey) throw new StripeApiError(401, `Invalid API Key provided: ${key.slice(0, 8)}${'*'.repeat(Math.max(0, key.length - 12))}${key.slice(-4)}`);
    const form = () => readText(req).then(decodeForm);
    let match: RegExpExecArray | null;
    if (method === 'POST' && path === '/v1/checkout/sessions') return sendJson(res, 200, state.createCheckoutSession(await form()));
    if (method === 'GET' && (match = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(path))) return sendJson(res, 200, state.retrieveCheckoutSession(match[1]));
    if (method === 'GET' && (match = /^\/v1\/subscriptions\/([^/]+)$/.exec(path))) return sendJson(res, 200, state.retrieveSubscription(match[1]));
    if (method === 'POST' && (match = /^\/v1\/subscriptions\/([^/]+)$/.exec(path))) return sendJson(res, 200, state.updateSubscription(match[1], await form()));
    if (method === 'GET' && path === '/v1/invoice_payments') return sendJson(res, 200, state.listInvoicePayments(url.searchParams));
    if (method === 'POST' && path === '/v1/refunds') return sendJson(res, 200, await state.createRefund(await form()));
    if (method === 'POST' && path === '/v1/billing_portal/sessions') return sendJson(res, 200, state.createPortalSession(await form()));
    throw new StripeApiError(404, `Unrecognized request URL (${method}: ${url.pathname}). This fake knows only the few endpoints the server uses.`);
  }

  const payMatch = /^\/c\/pay\/([^/]+)$/.exec(path);
  if (payMatch) {
    const session = state.sessions.get(payMatch[1]);
    if (!session) {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
      res.end('Something went wrong: this checkout session does not exist.');
      return;
    }
    if (method === 'POST' && session.status === 'open') {
      await state.pay(session.id);
      const target = (session.success_url ?? `${state.baseUrl()}/c/pay/${session.id}`).replace('{CHECKOUT_SESSION_ID}', session.id);
      res.writeHead(303, { location: target });
      res.end();
      return;
    }
    const page = checkoutPage(session);
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-length': Buffer.byteLength(page) });
    res.end(page);
    return;
  }

  const portalMatch = /^\/p\/session\/([^/]+)$/.exec(path);
  if (portalMatch && method === 'GET') {
    const session = state.portalSessions.find((p) => p.id === portalMatch[1]);
    res.writeHead(session ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' });
    res.end(
      session
        ? `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Fake Stripe customer portal</title></head><body><h1>Customer portal</h1><p>Fake Stripe (local): the card of ${escapeHtml(session.customer)} would be updated here.</p>${session.return_url ? `<p><a href="${escapeHtml(session.return_url)}">Return</a></p>` : ''}</body></html>`
        : 'Something went wrong: this portal session does not exist.',
    );
    return;
  }

  if (path.startsWith('/control/')) {
    for (const [routeMethod, pattern, handler] of CONTROL_ROUTES) {
      const match = pattern.exec(path);
      if (match && routeMethod === method) {
        const body = async () => {
          const text = await readText(req);
          return text ? (JSON.parse(text) as Record<string, unknown>) : {};
        };
        return sendJson(res, 200, await handler(state, match.slice(1).map(decodeURIComponent), body));
      }
    }
  }
  if (path === '/' && method === 'GET') return sendJson(res, 200, { fake: 'stripe', webhook: state.webhookUrl, sessions: state.sessions.size });
  throw new StripeApiError(404, `Unrecognized request URL (${method}: ${url.pathname}).`);
}

/** Starts the fake on host:port (127.0.0.1, any free port by default). */
export async function startFakeStripe(options: FakeStripeOptions = {}): Promise<FakeStripe> {
  const host = options.host ?? '127.0.0.1';
  let base = '';
  const state = new FakeStripeState(() => base, options.secretKey ?? FAKE_STRIPE_SECRET_KEY, options.webhookSecret ?? FAKE_STRIPE_WEBHOOK_SECRET, options.webhookUrl ?? null);
  const server = createServer((req, res) => {
    handle(state, req, res).catch((error: unknown) => {
      if (error instanceof StripeApiError) return sendJson(res, error.status, error.body());
      console.error('fake Stripe: unexpected failure', error);
      sendJson(res, 500, { error: { type: 'api_error', message: 'An unknown error occurred' } });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const urlHost = host === '0.0.0.0' ? '127.0.0.1' : host;
  base = `http://${urlHost}:${port}`;
  let closing: Promise<void> | undefined;
  return Object.assign(state, {
    url: base,
    host: urlHost,
    port,
    close(): Promise<void> {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closing;
    },
  });
}

// ------------------------------------------------------------------ CLI

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const options: FakeStripeOptions = { port: 8082 };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = () => {
      const next = argv[++i];
      if (next === undefined) throw new Error(`${arg} needs a value`);
      return next;
    };
    if (arg === '--port') options.port = Number(value());
    else if (arg === '--host') options.host = value();
    else if (arg === '--webhook') options.webhookUrl = value();
    else if (arg === '--secret-key') options.secretKey = value();
    else if (arg === '--webhook-secret') options.webhookSecret = value();
    else if (arg === '--help' || arg === '-h') {
      console.log('Usage: tsx scripts/card/fake-stripe.ts [--port 8082] [--host 127.0.0.1] [--webhook URL] [--secret-key sk_…] [--webhook-secret whsec_…]');
      process.exit(0);
    } else throw new Error(`Unknown argument ${arg} (try --help)`);
  }
  if (!Number.isInteger(options.port) || (options.port ?? 0) < 0) throw new Error('--port must be a whole number');
  const fake = await startFakeStripe(options);
  console.log(`Fake Stripe on ${fake.url} (webhooks to ${fake.webhookUrl ?? 'nowhere yet'})`);
  console.log(`  point the server at: STRIPE_API_HOST=${fake.host} STRIPE_API_PORT=${fake.port} STRIPE_API_PROTOCOL=http`);
  console.log(`  STRIPE_SECRET_KEY=${fake.secretKey} STRIPE_WEBHOOK_SECRET=${fake.webhookSecret}`);
  const stop = () => {
    void fake.close().then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
