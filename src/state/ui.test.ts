import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TOP_INFO_MS } from '../../contract/constants';
import { createStore } from 'jotai';
import { preloaderAtom, showTopInfo, topInfoAtom, withPreloader } from './ui';

describe('the top notice (spec §4)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('disappears by itself after 2 seconds', () => {
    const store = createStore();
    showTopInfo({ type: 'success', text: 'Saved' }, store);
    expect(store.get(topInfoAtom)).toEqual({ type: 'success', text: 'Saved' });
    vi.advanceTimersByTime(TOP_INFO_MS - 1);
    expect(store.get(topInfoAtom)).not.toBeNull();
    vi.advanceTimersByTime(1);
    expect(store.get(topInfoAtom)).toBeNull();
    expect(TOP_INFO_MS).toBe(2000);
  });

  it('restarts the clock for a newer notice', () => {
    const store = createStore();
    showTopInfo({ type: 'info', text: 'first' }, store);
    vi.advanceTimersByTime(1500);
    showTopInfo({ type: 'error', text: 'second' }, store);
    vi.advanceTimersByTime(1500);
    expect(store.get(topInfoAtom)).toEqual({ type: 'error', text: 'second' });
    vi.advanceTimersByTime(500);
    expect(store.get(topInfoAtom)).toBeNull();
  });
});

describe('the preloader', () => {
  it('is on while work runs and off afterwards, even when the work fails', async () => {
    const store = createStore();
    let seen = false;
    await withPreloader(async () => {
      seen = store.get(preloaderAtom);
    }, store);
    expect(seen).toBe(true);
    expect(store.get(preloaderAtom)).toBe(false);

    await expect(
      withPreloader(async () => {
        throw new Error('boom');
      }, store),
    ).rejects.toThrow('boom');
    expect(store.get(preloaderAtom)).toBe(false);
  });
});
