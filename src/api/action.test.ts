import { createStore } from 'jotai';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { preloaderAtom, subscriptionAlertAtom, topInfoAtom } from '@/state/ui';
import { resetEnvironment, useLanguage } from '@/test/support';
import { runChange, runRead } from './action';
import { onApiChange } from './afterChange';

describe('a change reloads what the router loaded once, a read never', () => {
  const reloads = vi.fn();

  beforeEach(async () => {
    resetEnvironment();
    await useLanguage('en');
    reloads.mockReset();
    onApiChange(reloads);
  });

  it('a change that went through reloads once and says its notice', async () => {
    const store = createStore();
    const result = await runChange(async () => ({ id: 7, name: 'Renamed' }), { notice: (funnel) => `${funnel.name} saved`, store });
    expect(result).toEqual({ ok: true, value: { id: 7, name: 'Renamed' } });
    expect(reloads).toHaveBeenCalledTimes(1);
    expect(store.get(topInfoAtom)).toMatchObject({ type: 'success', text: 'Renamed saved' });
    expect(store.get(preloaderAtom)).toBe(false);
  });

  it('a change that failed reloads nothing and says what went wrong', async () => {
    const store = createStore();
    const result = await runChange(
      async () => {
        throw new TypeError('Failed to fetch');
      },
      { notice: 'Saved', store },
    );
    expect(result.ok).toBe(false);
    expect(reloads).not.toHaveBeenCalled();
    expect(store.get(topInfoAtom)?.type).toBe('error');
  });

  it('a read reloads nothing, even when it went through', async () => {
    const store = createStore();
    const result = await runRead(async () => ({ count: 3 }), store);
    expect(result).toEqual({ ok: true, value: { count: 3 } });
    expect(reloads).not.toHaveBeenCalled();
    expect(store.get(topInfoAtom)).toBeNull();
  });
});

describe("a gated action refused with 402 opens the 'Subscription isn't active' alert", () => {
  beforeEach(async () => {
    resetEnvironment();
    await useLanguage('en');
  });

  const refusal = (status: number, body: unknown) => {
    const error = new Error('Request failed') as Error & { response: Response };
    error.name = 'HTTPError';
    error.response = new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
    return error;
  };

  it('opens it for 402 subscription_inactive, from a change or a read, and for no other refusal', async () => {
    const store = createStore();
    await runChange(
      async () => {
        throw refusal(400, { detail: 'The mailing has no audience.', code: 'empty_audience' });
      },
      { store },
    );
    await runChange(
      async () => {
        throw refusal(402, { detail: 'Payment required' });
      },
      { store },
    );
    expect(store.get(subscriptionAlertAtom)).toBe(false);
    await runChange(
      async () => {
        throw refusal(402, { detail: "Subscription isn't active", code: 'subscription_inactive' });
      },
      { store },
    );
    expect(store.get(subscriptionAlertAtom)).toBe(true);
    // The alert says it: no top notice on top of it.
    expect(store.get(topInfoAtom)).toBeNull();
    const other = createStore();
    await runRead(async () => {
      throw refusal(402, { detail: "Subscription isn't active", code: 'subscription_inactive' });
    }, other);
    expect(other.get(subscriptionAlertAtom)).toBe(true);
  });
});
