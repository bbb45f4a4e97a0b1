import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { currentInitData, forgetInitData, readTelegramLaunch } from './launch';
import { isRootScreen } from './TelegramBindings';

const initData = 'query_id=AA&user=%7B%22id%22%3A1%7D&auth_date=1&hash=abc';
const hash = `#${new URLSearchParams({ tgWebAppData: initData, tgWebAppVersion: '8.0', tgWebAppPlatform: 'tdesktop' })}`;

describe('Telegram detection without the SDK', () => {
  beforeEach(() => {
    forgetInitData();
    window.sessionStorage.clear();
    window.history.replaceState(null, '', '/');
  });
  afterEach(() => {
    delete (window as { TelegramWebviewProxy?: unknown }).TelegramWebviewProxy;
  });

  it('finds nothing in a plain browser', () => {
    expect(readTelegramLaunch()).toEqual({ inTelegram: false, initData: null });
  });

  it('reads the raw init data from the hash and keeps it for later loads in this tab', () => {
    window.history.replaceState(null, '', `/content/panel/${hash}`);
    expect(readTelegramLaunch()).toEqual({ inTelegram: true, initData });
    expect(currentInitData()).toBe(initData);

    // The hash is gone after navigation; a reload in the same tab still knows.
    window.history.replaceState(null, '', '/settings/');
    expect(readTelegramLaunch()).toEqual({ inTelegram: true, initData });
  });

  it('recognises the native bridge', () => {
    (window as { TelegramWebviewProxy?: unknown }).TelegramWebviewProxy = { postEvent() {} };
    expect(readTelegramLaunch().inTelegram).toBe(true);
  });

  it('forgets refused or signed-out init data', () => {
    window.history.replaceState(null, '', `/${hash}`);
    readTelegramLaunch();
    window.history.replaceState(null, '', '/sign-in/');
    forgetInitData();
    expect(readTelegramLaunch().initData).toBeNull();
  });
});

describe('root screens of the Telegram back button', () => {
  it('hides it on the panel and the auth screens, shows it elsewhere', () => {
    for (const path of ['/content/panel/', '/sign-in/', '/sign-up/', '/lost-pass/', '/content/panel']) expect(isRootScreen(path)).toBe(true);
    for (const path of ['/settings/', '/settings/language/', '/partner/dashboard/', '/subscribe/']) expect(isRootScreen(path)).toBe(false);
  });
});
