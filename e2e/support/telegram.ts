// A Telegram Mini App environment in plain Chromium: the launch parameters Telegram puts in the
// page address, and the native bridge (TelegramWebviewProxy) that records what the app asks of it.
import type { APIRequestContext, Page } from '@playwright/test';
import { API } from '../../contract/auth';
import { signInitData, type InitDataUser } from '../../scripts/telegram/init-data';
import { BASE_URL, SERVICE_BOT_TOKEN } from './env';

export const DARK_THEME = {
  bg_color: '#17212b',
  secondary_bg_color: '#232e3c',
  text_color: '#f5f5f5',
  hint_color: '#708499',
  link_color: '#6ab3f3',
  button_color: '#5288c1',
  button_text_color: '#ffffff',
  header_bg_color: '#17212b',
  accent_text_color: '#6ab2f2',
  section_bg_color: '#17212b',
  section_header_text_color: '#6ab3f3',
  subtitle_text_color: '#708499',
  destructive_text_color: '#ec3942',
};

export const LIGHT_THEME = {
  bg_color: '#ffffff',
  secondary_bg_color: '#efeff4',
  text_color: '#000000',
  hint_color: '#999999',
  link_color: '#2481cc',
  button_color: '#2481cc',
  button_text_color: '#ffffff',
  header_bg_color: '#ffffff',
  accent_text_color: '#2481cc',
  section_bg_color: '#ffffff',
  section_header_text_color: '#6d6d72',
  subtitle_text_color: '#999999',
  destructive_text_color: '#ff3b30',
};

export function telegramUser(id = 700000000 + Math.floor(Math.random() * 1_000_000)): InitDataUser {
  return { id, first_name: 'Tanya', last_name: 'Grams', username: `tanya${id}`, language_code: 'en' };
}

export function signedInitData(user: InitDataUser, botToken = SERVICE_BOT_TOKEN): string {
  return signInitData({ botToken, user });
}

/**
 * "Start here" on an earlier first open: the Telegram identity of `initData` has its account
 * (the API then answers `Authorization: TG <initData>`). Nothing to do if it has one already.
 */
export async function startAsTelegramUser(request: APIRequestContext, initData: string): Promise<void> {
  const started = await request.post(`${BASE_URL}${API.telegramStart}`, { data: { init_data: initData } });
  // 400: this identity has its account already (or the init data is not genuine: the test says what it expects).
  if (started.status() !== 201 && started.status() !== 400) throw new Error(`Start here: ${started.status()} ${await started.text()}`);
}

/**
 * Opens `path` the way Telegram opens a Mini App, and records the events the app posts. The
 * Telegram identity has an account already ("Start here" was chosen on an earlier open), unless
 * `firstOpen`: then the app meets an identity no account knows and offers the choice.
 */
export async function openAsMiniApp(page: Page, path: string, initData: string, theme = DARK_THEME, options: { firstOpen?: boolean } = {}): Promise<void> {
  if (!options.firstOpen) await startAsTelegramUser(page.request, initData);
  await page.addInitScript(() => {
    const w = window as unknown as { __tgEvents: Array<[string, unknown]>; TelegramWebviewProxy: unknown };
    w.__tgEvents = [];
    w.TelegramWebviewProxy = {
      postEvent(type: string, data?: string) {
        w.__tgEvents.push([type, data ? JSON.parse(data) : undefined]);
      },
    };
  });
  const hash = new URLSearchParams({
    tgWebAppData: initData,
    tgWebAppVersion: '8.0',
    tgWebAppPlatform: 'android',
    tgWebAppThemeParams: JSON.stringify(theme),
  }).toString();
  await page.goto(`${path}#${hash}`);
}

export async function telegramEvents(page: Page): Promise<string[]> {
  return page.evaluate(() => (window as unknown as { __tgEvents: Array<[string, unknown]> }).__tgEvents.map(([t]) => t));
}
