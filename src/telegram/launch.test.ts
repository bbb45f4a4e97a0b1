import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { clearTelegramLaunch, currentInitData, forgetInitData, inTelegram, readTelegramLaunch } from './launch';
import { startPathFrom } from './startPath';
import { applyLaunchTheme } from './theme';
import { isRootScreen } from './TelegramBindings';

const initData = 'query_id=AA&user=%7B%22id%22%3A1%7D&auth_date=1&hash=abc';
const hash = `#${new URLSearchParams({ tgWebAppData: initData, tgWebAppVersion: '8.0', tgWebAppPlatform: 'tdesktop' })}`;

describe('Telegram detection without the SDK', () => {
  beforeEach(() => {
    clearTelegramLaunch();
    window.sessionStorage.clear();
    window.history.replaceState(null, '', '/');
  });
  afterEach(() => {
    delete (window as { TelegramWebviewProxy?: unknown }).TelegramWebviewProxy;
  });

  it('finds nothing in a plain browser', () => {
    expect(readTelegramLaunch()).toEqual({ inTelegram: false, initData: null });
    expect(inTelegram()).toBe(false);
  });

  it('reads the raw init data from the hash and keeps it for later loads in this tab', () => {
    window.history.replaceState(null, '', `/content/panel/${hash}`);
    expect(readTelegramLaunch()).toEqual({ inTelegram: true, initData });
    expect(currentInitData()).toBe(initData);
    expect(inTelegram()).toBe(true);

    // The hash is gone after navigation; a reload in the same tab (fresh memory) still knows.
    clearTelegramLaunch();
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

describe("Telegram's theme before the SDK loads", () => {
  beforeEach(() => {
    clearTelegramLaunch();
    window.sessionStorage.clear();
  });

  it('puts the launch theme on <html> as --tg-theme-* variables and picks the colour scheme', () => {
    const theme = { bg_color: '#17212b', text_color: '#f5f5f5', secondary_bg_color: '#232e3c', button_color: 'red; x: y' };
    window.history.replaceState(null, '', `/#${new URLSearchParams({ tgWebAppPlatform: 'android', tgWebAppVersion: '8.0', tgWebAppThemeParams: JSON.stringify(theme) })}`);
    readTelegramLaunch();
    const root = document.createElement('html');
    expect(applyLaunchTheme(root)).toBe(true);
    expect(root.style.getPropertyValue('--tg-theme-bg-color')).toBe('#17212b');
    expect(root.style.getPropertyValue('--tg-theme-text-color')).toBe('#f5f5f5');
    expect(root.style.getPropertyValue('--tg-theme-secondary-bg-color')).toBe('#232e3c');
    expect(root.style.getPropertyValue('--tg-theme-button-color')).toBe(''); // not a colour: ignored
    expect(root.dataset.colorScheme).toBe('dark');
  });

  it('does nothing without a theme', () => {
    window.history.replaceState(null, '', '/');
    readTelegramLaunch();
    const root = document.createElement('html');
    expect(applyLaunchTheme(root)).toBe(false);
    expect(root.getAttribute('style')).toBeNull();
  });
});

describe('root screens of the Telegram back button', () => {
  it('hides it on the panel and the auth screens, shows it elsewhere', () => {
    for (const path of ['/content/panel/', '/sign-in/', '/sign-up/', '/lost-pass/', '/content/panel']) expect(isRootScreen(path)).toBe(true);
    for (const path of ['/settings/', '/settings/language/', '/partner/dashboard/', '/subscribe/']) expect(isRootScreen(path)).toBe(false);
  });
});

describe('startapp links', () => {
  it('open a template preview from tgWebAppStartParam or the init data, nothing else', () => {
    expect(startPathFrom('#tgWebAppStartParam=tpl_42&tgWebAppVersion=8.0')).toBe('/templates/42/');
    expect(startPathFrom(`#tgWebAppData=${encodeURIComponent('user=%7B%7D&start_param=tpl_7&hash=x')}`)).toBe('/templates/7/');
    expect(startPathFrom('#tgWebAppStartParam=tpl_0')).toBeNull();
    expect(startPathFrom('#tgWebAppStartParam=tpl_7%2F..%2Fadmin')).toBeNull();
    expect(startPathFrom('#tgWebAppStartParam=uid_12')).toBeNull();
    expect(startPathFrom('')).toBeNull();
  });

  it('open a template shared with its publisher’s partner ref at the template, and nothing else after it', () => {
    expect(startPathFrom('#tgWebAppStartParam=tpl_42_ref_AbC123xyz0')).toBe('/templates/42/');
    expect(startPathFrom('#tgWebAppStartParam=tpl_42_ref_Ab%2F..')).toBeNull();
    expect(startPathFrom('#tgWebAppStartParam=tpl_42_other_AbC123')).toBeNull();
  });
});
