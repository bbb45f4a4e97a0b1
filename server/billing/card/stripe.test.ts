// The Stripe adapter through the official SDK against the local fake (scripts/card/fake-stripe.ts):
// what the checkout asks of Stripe, what the signed webhooks become, and that a webhook not signed
// with the endpoint's secret is refused by the SDK's own check.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeStripe, type FakeStripe } from '../../../scripts/card/fake-stripe';
import { loadConfig } from '../../config';
import { tempDir } from '../../test/helpers';
import { eventually } from '../../test/eventually';
import { isRefusal, type CardProvider, type CardWebhookEvent, type CardWebhookRefusal } from './provider';
import { createStripeProvider } from './stripe';

let fake: FakeStripe;
let provider: CardProvider;
let receiver: Server;
/** What the adapter made of each webhook the fake delivered, in order of arrival. */
const parsed: Array<CardWebhookEvent | CardWebhookRefusal> = [];

const plan = { id: 7, title: 'Pro', priceCard: 1299, cardCurrency: 'USD' };
const urls = { successUrl: 'https://funnels.test/sbscrb/?paid=1', cancelUrl: 'https://funnels.test/sbscrb/' };

beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const signature = req.headers['stripe-signature'];
      void provider.parseWebhook(Buffer.concat(chunks), typeof signature === 'string' ? signature : undefined).then((result) => {
        parsed.push(result);
        res.writeHead(isRefusal(result) ? 400 : 200).end();
      });
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  fake = await startFakeStripe({ webhookUrl: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/` });
  provider = createStripeProvider({
    secretKey: fake.secretKey,
    webhookSecret: fake.webhookSecret,
    api: { host: fake.host, port: fake.port, protocol: 'http' },
  });
});

afterAll(async () => {
  await fake?.close();
  await new Promise((resolve) => receiver?.close(resolve));
});

const sessionIdOf = (url: string) => url.split('/').at(-1)!;
const lastParsed = () => parsed.at(-1);

describe('Stripe adapter through the fake', () => {
  it('makes a monthly subscription checkout with the plan\'s price and comes back to /sbscrb/', async () => {
    const { url } = await provider.createCheckout({ id: 42, email: 'ann@example.com' }, plan, urls);
    expect(url.startsWith(`${fake.url}/c/pay/`)).toBe(true);
    const session = fake.sessions.get(sessionIdOf(url))!;
    expect(session).toMatchObject({ mode: 'subscription', amount_total: 1299, currency: 'usd', success_url: urls.successUrl, cancel_url: urls.cancelUrl, customer_email: 'ann@example.com' });
    expect(session.price.recurring).toEqual({ interval: 'month', interval_count: 1 });
    const page = await (await fetch(url)).text();
    expect(page).toContain('12.99 USD');
    expect(page).toContain('>Pay</button>');
  });

  it('turns the first paid invoice into a payment for the user and plan, with the period Stripe charged', async () => {
    const { url } = await provider.createCheckout({ id: 42, email: null }, plan, urls);
    const before = parsed.length;
    const { subscription, events } = await fake.pay(sessionIdOf(url));
    expect(events.map((event) => event.type)).toEqual(['checkout.session.completed', 'invoice.paid']);
    await eventually(() => parsed.length, (n) => n === before + 2, 'both webhooks parsed');
    expect(parsed[before]).toEqual({ type: 'ignored', eventId: events[0].id, providerType: 'checkout.session.completed' });
    expect(parsed[before + 1]).toMatchObject({
      type: 'invoice_paid',
      eventId: events[1].id,
      userId: 42,
      planId: 7,
      subscriptionId: subscription.id,
      first: true,
      amount: 1299,
      currency: 'USD',
      periodEnd: new Date(subscription.current_period_end * 1000),
    });

    const renewal = await fake.renew(subscription.id);
    await eventually(lastParsed, (last) => !!last && !isRefusal(last) && last.eventId === renewal.id, 'the renewal parsed');
    expect(lastParsed()).toMatchObject({ type: 'invoice_paid', first: false, subscriptionId: subscription.id, amount: 1299 });
    expect((lastParsed() as { periodEnd: Date }).periodEnd.getTime()).toBeGreaterThan(subscription.current_period_end * 1000);

    const refund = await fake.refund(subscription.id);
    await eventually(lastParsed, (last) => !!last && !isRefusal(last) && last.eventId === refund.id, 'the refund parsed');
    const renewalInvoice = (renewal.data.object as { id: string }).id;
    expect(lastParsed()).toEqual({ type: 'payment_refunded', eventId: refund.id, invoiceId: renewalInvoice, amount: 1299, chargeAmount: 1299, currency: 'USD' });
  });

  it('refuses a webhook signed with another secret, a tampered body and one without a signature', async () => {
    const body = JSON.stringify({ id: 'evt_forged', object: 'event', type: 'invoice.paid', data: { object: {} } });
    const otherSecret = fake.signature(body, Math.floor(Date.now() / 1000), 'whsec_someone_else');
    expect(await provider.parseWebhook(Buffer.from(body), otherSecret)).toMatchObject({ refused: true });
    const signed = fake.signature(body);
    expect(await provider.parseWebhook(Buffer.from(body.replace('evt_forged', 'evt_forged2')), signed)).toMatchObject({ refused: true });
    expect(await provider.parseWebhook(Buffer.from(body), undefined)).toMatchObject({ refused: true });
    // The same bytes with the right signature pass: the check is the signature, not the event.
    expect(await provider.parseWebhook(Buffer.from(body), signed)).toMatchObject({ type: 'ignored', eventId: 'evt_forged' });
  });

  it('cancels a subscription at the end of its period', async () => {
    const { url } = await provider.createCheckout({ id: 43, email: null }, plan, urls);
    const { subscription } = await fake.pay(sessionIdOf(url));
    await provider.cancelAtPeriodEnd(subscription.id);
    expect(fake.subscriptions.get(subscription.id)?.cancel_at_period_end).toBe(true);
  });

  it('a refund made through the API (POST /v1/refunds) comes back as the refund of the invoice it paid', async () => {
    const { url } = await provider.createCheckout({ id: 44, email: null }, plan, urls);
    const { events } = await fake.pay(sessionIdOf(url));
    const invoiceId = (events[1].data.object as { id: string }).id;
    const paymentIntent = fake.invoices.get(invoiceId)!.payment_intent;
    const res = await fetch(`${fake.url}/v1/refunds`, {
      method: 'POST',
      headers: { authorization: `Bearer ${fake.secretKey}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: `payment_intent=${paymentIntent}&amount=300`,
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ object: 'refund', amount: 300, payment_intent: paymentIntent, status: 'succeeded' });
    await eventually(lastParsed, (last) => !!last && !isRefusal(last) && last.type === 'payment_refunded' && last.invoiceId === invoiceId, 'the refund parsed');
    expect(lastParsed()).toMatchObject({ amount: 300, currency: 'USD' });
    const tooMuch = await fetch(`${fake.url}/v1/refunds`, {
      method: 'POST',
      headers: { authorization: `Bearer ${fake.secretKey}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: `payment_intent=${paymentIntent}&amount=5000`,
    });
    expect(tooMuch.status).toBe(400);
  });

  it('turns the provider\'s other subscription events, sent through the fake\'s control API, into neutral events', async () => {
    const { url } = await provider.createCheckout({ id: 45, email: null }, plan, urls);
    const { subscription } = await fake.pay(sessionIdOf(url));
    const control = async <T>(path: string, body: object = {}): Promise<T> => {
      const res = await fetch(`${fake.url}/control/subscriptions/${subscription.id}/${path}`, { method: 'POST', body: JSON.stringify(body) });
      expect(res.status, await res.clone().text()).toBe(200);
      return (await res.json()) as T;
    };
    const parsedAs = (eventId: string) => eventually(lastParsed, (last) => !!last && !isRefusal(last) && last.eventId === eventId, `event ${eventId} parsed`);

    const failed = await control<{ id: string; type: string }>('fail-payment');
    expect(failed.type).toBe('invoice.payment_failed');
    const failure = await parsedAs(failed.id);
    expect(failure).toMatchObject({ type: 'payment_failed', userId: 45, planId: 7, subscriptionId: subscription.id, customerId: subscription.customer, amount: 1299, currency: 'USD' });
    // Its retry fails the same invoice under a new event id.
    const retry = await control<{ id: string }>('fail-payment');
    expect(await parsedAs(retry.id)).toMatchObject({ type: 'payment_failed', invoiceId: (failure as { invoiceId: string }).invoiceId });
    const portal = await provider.customerPortal(subscription.customer, urls.cancelUrl);
    expect(portal?.url.startsWith(`${fake.url}/p/session/`)).toBe(true);
    expect((await fetch(portal!.url)).status).toBe(200);

    const cancelled = await control<{ id: string; type: string }>('cancel-at-period-end', { cancel: true });
    expect(cancelled.type).toBe('customer.subscription.updated');
    expect(await parsedAs(cancelled.id)).toEqual({ type: 'renewal_changed', eventId: cancelled.id, subscriptionId: subscription.id, renews: false });
    const resumed = await control<{ id: string }>('cancel-at-period-end', { cancel: false });
    expect(await parsedAs(resumed.id)).toEqual({ type: 'renewal_changed', eventId: resumed.id, subscriptionId: subscription.id, renews: true });

    const part = await control<{ id: string }>('refund', { amount: 300 });
    expect(await parsedAs(part.id)).toMatchObject({ type: 'payment_refunded', amount: 300, chargeAmount: 1299 });

    const ended = await control<{ id: string; type: string }>('end');
    expect(ended.type).toBe('customer.subscription.deleted');
    expect(await parsedAs(ended.id)).toEqual({ type: 'subscription_ended', eventId: ended.id, subscriptionId: subscription.id });
    expect(fake.subscriptions.get(subscription.id)?.status).toBe('canceled');
  });

  it('gets Stripe\'s own validation errors from the fake', async () => {
    const post = (form: string) =>
      fetch(`${fake.url}/v1/checkout/sessions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${fake.secretKey}`, 'content-type': 'application/x-www-form-urlencoded' },
        body: form,
      }).then(async (res) => ({ status: res.status, body: (await res.json()) as { error: { message: string; param?: string } } }));
    expect(await post('mode=subscription')).toMatchObject({ status: 400, body: { error: { message: 'Missing required param: line_items.', param: 'line_items' } } });
    expect(await post('mode=monthly')).toMatchObject({ status: 400, body: { error: { param: 'mode', message: 'Invalid mode: must be one of payment, setup, or subscription' } } });
    const oneOff = 'mode=subscription&line_items[0][quantity]=1&line_items[0][price_data][currency]=usd&line_items[0][price_data][unit_amount]=100&line_items[0][price_data][product_data][name]=X';
    expect((await post(oneOff)).body.error.message).toContain('recurring price');
    const wrongKey = await fetch(`${fake.url}/v1/checkout/sessions`, { method: 'POST', headers: { authorization: 'Bearer sk_test_wrong' } });
    expect(wrongKey.status).toBe(401);
    await expect(provider.cancelAtPeriodEnd('sub_nope')).rejects.toThrow("No such subscription: 'sub_nope'");
  });
});

describe('STRIPE_* configuration', () => {
  const env = (extra: Record<string, string>) => ({ DATA_DIR: tempDir(), SECRET_KEY: 'k', ...extra });
  it('is off without a key, refuses a key without its webhook secret, and points at a fake only when told', () => {
    expect(loadConfig(env({})).stripe).toBeNull();
    expect(() => loadConfig(env({ STRIPE_SECRET_KEY: 'sk_test_x' }))).toThrow(/STRIPE_WEBHOOK_SECRET/);
    expect(loadConfig(env({ STRIPE_SECRET_KEY: 'sk_test_x', STRIPE_WEBHOOK_SECRET: 'whsec_y' })).stripe).toEqual({ secretKey: 'sk_test_x', webhookSecret: 'whsec_y', api: null });
    const local = loadConfig(env({ STRIPE_SECRET_KEY: 'sk_test_x', STRIPE_WEBHOOK_SECRET: 'whsec_y', STRIPE_API_HOST: '127.0.0.1', STRIPE_API_PORT: '8082', STRIPE_API_PROTOCOL: 'http' }));
    expect(local.stripe?.api).toEqual({ host: '127.0.0.1', port: 8082, protocol: 'http' });
    expect(() => loadConfig(env({ STRIPE_SECRET_KEY: 'sk_test_x', STRIPE_WEBHOOK_SECRET: 'whsec_y', STRIPE_API_HOST: 'h', STRIPE_API_PROTOCOL: 'ftp' }))).toThrow(/STRIPE_API_PROTOCOL/);
  });
});
