import { afterEach, describe, expect, it, vi } from 'vitest';
import { SPLASH_HIDE_DELAY_MS } from '../contract/constants';
import { startCordova } from './cordova';

describe('the Cordova wrapper (spec §4)', () => {
  afterEach(() => {
    vi.useRealTimers();
    delete window.cordova;
    delete navigator.splashscreen;
  });

  it('hides the native splash screen 3 s after deviceready', () => {
    vi.useFakeTimers();
    const hide = vi.fn();
    window.cordova = {};
    navigator.splashscreen = { hide };
    startCordova();
    vi.advanceTimersByTime(SPLASH_HIDE_DELAY_MS);
    expect(hide).not.toHaveBeenCalled(); // not before the device is ready
    document.dispatchEvent(new Event('deviceready'));
    vi.advanceTimersByTime(SPLASH_HIDE_DELAY_MS - 1);
    expect(hide).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(hide).toHaveBeenCalledTimes(1);
    expect(SPLASH_HIDE_DELAY_MS).toBe(3000);
  });

  it('does nothing in a browser', () => {
    vi.useFakeTimers();
    const add = vi.spyOn(document, 'addEventListener');
    startCordova();
    expect(add).not.toHaveBeenCalledWith('deviceready', expect.anything(), expect.anything());
    add.mockRestore();
  });
});
