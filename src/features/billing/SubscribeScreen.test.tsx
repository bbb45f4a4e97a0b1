// The Stars payment sheet's outcomes on /subscribe/ inside Telegram, with Telegram's invoice call
// mocked (the e2e billing spec plays 'paid' through the real SDK): 'cancelled' says nothing was
// charged and the plan stays choosable, 'failed' says so with a retry, 'pending' follows the
// server's subscription (asking less and less often) until it is active, or stops after a bound.
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import type * as ReactRouter from '@tanstack/react-router';
import { Provider } from 'jotai';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BILLING_API, type Plan, type Subscription } from '../../../contract/billing';
import type * as TelegramLaunch from '@/telegram/launch';
import type { InvoiceOutcome } from '@/telegram/types';
import { loadMessages } from '@/i18n/i18n';
import { tokenAtom, userAtom } from '@/state/auth';
import { appStore } from '@/state/store';
import { alice, fakeFetch, json, resetEnvironment, useLanguage, type RecordedRequest } from '@/test/support';
import { ACTIVATION_POLL_ATTEMPTS, ACTIVATION_POLL_MAX_MS, SubscribeScreen } from './SubscribeScreen';

const openInvoice = vi.fn<(url: string) => Promise<InvoiceOutcome | null>>();
const invalidate = vi.fn(async () => {});

vi.mock('@/telegram/shell', () => ({ telegramShell: () => ({ openInvoice }) }));
vi.mock('@/telegram/launch', async (importOriginal) => ({ ...(await importOriginal<typeof TelegramLaunch>()), inTelegram: () => true }));
vi.mock('@tanstack/react-router', async (importOriginal) => ({
  ...(await importOriginal<typeof ReactRouter>()),
  useRouter: () => ({ invalidate, options: { context: { auth: { telegramIsNew: () => false } } } }),
  useNavigate: () => vi.fn(),
}));
vi.mock('@/ui/BackLink', () => ({ BackLink: () => null }));

const pro: Plan = {
  id: 3,
  title: 'Pro',
  description: '',
  is_free: false,
  limits: { running_funnels: null, people: null, mailings: true, letters: true },
  price_stars: 250,
  price_card: null,
  card_currency: null,
};

const subscriptionIn = (state: Subscription['state']): Subscription => ({
  gated: true,
  state,
  plan: state === 'free' ? null : pro,
  method: state === 'free' ? null : 'stars',
  paid_until: null,
  grace_until: null,
  limits: pro.limits,
  usage: { running_funnels: 0, people: 0 },
  cancel_url: null,
});

/** The server: an invoice link for each ask, and the subscription `stateAt(n)` on the n-th ask (from 0). */
function server(stateAt: (ask: number) => Subscription['state']) {
  const asks: number[] = [];
  const requests = fakeFetch((request: RecordedRequest) => {
    if (request.path === BILLING_API.starsInvoice) return json({ invoice_link: 'https://t.me/$invoice_slug' });
    if (request.path === BILLING_API.subscription) {
      asks.push(Date.now());
      return json(subscriptionIn(stateAt(asks.length - 1)));
    }
    return json({ detail: 'Not found.' }, 404);
  });
  return { asks, requests };
}

function renderScreen() {
  render(
    <Provider store={appStore}>
      <SubscribeScreen cardPayment={false} data={{ plans: [pro], subscription: subscriptionIn('free') }} returnedFromCheckout={false} />
    </Provider>,
  );
}

const progress = () => screen.queryByTestId('payment-progress');
const choosePlan = () => screen.getByTestId('choose-plan');

/** Lets the fake clock run `ms`, and the promises each step starts. */
const advance = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));

describe('the Stars payment sheet\'s outcomes', () => {
  beforeEach(async () => {
    resetEnvironment('/subscribe/');
    await useLanguage('en');
    await loadMessages('billing');
    appStore.set(tokenAtom, 'token-of-alice');
    appStore.set(userAtom, alice);
    openInvoice.mockReset();
    invalidate.mockClear();
    vi.useFakeTimers();
  });
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('cancelled: nothing was charged and the plan can be chosen again; failed: says so, and its retry opens a new invoice that pays', async () => {
    const { requests } = server(() => 'active');
    openInvoice.mockResolvedValueOnce('cancelled').mockResolvedValueOnce('failed').mockResolvedValueOnce('paid');
    renderScreen();

    fireEvent.click(choosePlan());
    await advance(0);
    expect(progress()).toHaveProperty('textContent', 'Payment cancelled. Nothing was charged.');
    expect(progress()?.dataset.progress).toBe('cancelled');
    expect(screen.queryByTestId('retry-payment')).toBeNull();
    expect(choosePlan()).toHaveProperty('disabled', false);
    // A cancelled sheet is not followed on the server: nothing was paid.
    expect(requests.filter((r) => r.path === BILLING_API.subscription)).toHaveLength(0);

    fireEvent.click(choosePlan());
    await advance(0);
    expect(progress()?.dataset.progress).toBe('failed');
    expect(progress()?.textContent).toContain("The payment didn't go through. Please try again.");
    const retry = screen.getByTestId('retry-payment');
    expect(retry.textContent).toBe('Try again');

    fireEvent.click(retry);
    await advance(0);
    expect(openInvoice).toHaveBeenCalledTimes(3);
    expect(requests.filter((r) => r.path === BILLING_API.starsInvoice).map((r) => r.body)).toEqual([{ plan_id: pro.id }, { plan_id: pro.id }, { plan_id: pro.id }]);
    await advance(0);
    expect(progress()?.dataset.progress).toBe('active');
    expect(screen.queryByTestId('retry-payment')).toBeNull();
  });

  it('pending: says the payment is being processed, then follows the subscription, asking less often, until it is active', async () => {
    const { asks } = server((ask) => (ask < 5 ? 'free' : 'active'));
    openInvoice.mockResolvedValueOnce('pending');
    renderScreen();

    fireEvent.click(choosePlan());
    await advance(0);
    expect(progress()?.dataset.progress).toBe('pending');
    expect(progress()?.textContent).toBe('The payment is being processed. The subscription turns on as soon as it is confirmed.');
    // While it is processed, paying again is not offered (it could charge twice).
    expect(choosePlan()).toHaveProperty('disabled', true);

    await advance(60_000);
    expect(progress()?.dataset.progress).toBe('active');
    expect(progress()?.textContent).toBe('Your subscription is active. Thank you!');
    expect(invalidate).toHaveBeenCalled();
    expect(asks).toHaveLength(6);
    const gaps = asks.slice(1).map((at, index) => at - asks[index]);
    for (let i = 1; i < gaps.length; i += 1) expect(gaps[i]).toBeGreaterThan(gaps[i - 1]);
    // Active: it stops asking.
    await advance(5 * ACTIVATION_POLL_MAX_MS);
    expect(asks).toHaveLength(6);
  });

  it('pending that never turns active: asks a bounded number of times, then says it is still being confirmed', async () => {
    const { asks } = server(() => 'free');
    openInvoice.mockResolvedValueOnce('pending');
    renderScreen();

    fireEvent.click(choosePlan());
    await advance(ACTIVATION_POLL_ATTEMPTS * ACTIVATION_POLL_MAX_MS);
    expect(asks).toHaveLength(ACTIVATION_POLL_ATTEMPTS);
    expect(progress()?.dataset.progress).toBe('slow');
    expect(choosePlan()).toHaveProperty('disabled', false);
    await advance(10 * ACTIVATION_POLL_MAX_MS);
    expect(asks).toHaveLength(ACTIVATION_POLL_ATTEMPTS);
  });
});
