// Cheap Telegram detection and the raw init data, without loading the SDK: the page address
// (Telegram puts launch parameters in the hash), what an earlier load in this tab saved, and the
// native bridge object. Outside Telegram nothing here loads any Telegram code (nor startPath.ts).

const INIT_DATA_KEY = 'funnels/tgWebAppData';
const LAUNCH_PARAMS_KEY = 'funnels/launchParams';

export interface TelegramLaunch {
  /** True when the page runs as a Telegram Mini App. */
  inTelegram: boolean;
  /** Raw tgWebAppData (the string Telegram signs), or null. */
  initData: string | null;
}

let initDataInMemory: string | null = null;
let launchQueryInMemory: string | null = null;
let inTelegramAtBoot = false;

function session(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null; // storage can be blocked (privacy modes, sandboxed frames)
  }
}

export function hashParams(hash: string): URLSearchParams {
  return new URLSearchParams(hash.startsWith('#') ? hash.slice(1) : hash);
}

/**
 * Whether Telegram can hear the app: its native bridge (mobile, desktop), window.external.notify
 * (Windows Phone), or the page framed by web.telegram.org. The Mini App's address opened in a
 * plain browser (launch parameters copied along) has none: it is a browser, signing in as one,
 * and the Telegram SDK is not loaded (it would only throw UnknownEnvError at its first call).
 * Development plays Telegram in a plain tab (mockEnv.ts), so there the parameters are enough.
 */
function hasTelegramBridge(): boolean {
  return import.meta.env.DEV || typeof (window.external as { notify?: unknown } | undefined)?.notify === 'function' || window.parent !== window;
}

/** Reads the launch once at boot and keeps the init data (memory + sessionStorage: the hash is lost on navigation). */
export function readTelegramLaunch(): TelegramLaunch {
  const params = hashParams(window.location.hash);
  const store = session();
  if (params.has('tgWebAppPlatform') || params.has('tgWebAppVersion')) {
    launchQueryInMemory = params.toString();
    store?.setItem(LAUNCH_PARAMS_KEY, launchQueryInMemory);
  } else if (!launchQueryInMemory) {
    launchQueryInMemory = store?.getItem(LAUNCH_PARAMS_KEY) ?? null;
  }
  const fromHash = params.get('tgWebAppData');
  if (fromHash) {
    initDataInMemory = fromHash;
    store?.setItem(INIT_DATA_KEY, fromHash);
  } else if (!initDataInMemory) {
    initDataInMemory = store?.getItem(INIT_DATA_KEY) ?? null;
  }
  const launched = params.has('tgWebAppData') || params.has('tgWebAppPlatform') || Boolean(launchQueryInMemory) || Boolean(store?.getItem(INIT_DATA_KEY));
  const inTelegram = 'TelegramWebviewProxy' in window || (launched && hasTelegramBridge());
  inTelegramAtBoot = inTelegram;
  return { inTelegram, initData: initDataInMemory };
}

/** Whether the page runs inside Telegram (as found by readTelegramLaunch at boot). */
export function inTelegram(): boolean {
  return inTelegramAtBoot;
}

/** The launch parameters Telegram gave this tab (platform, version, theme), as a query string. */
export function launchQuery(): string | null {
  return launchQueryInMemory;
}

export function currentInitData(): string | null {
  return initDataInMemory;
}

/** Forgets everything read so far (tests start from a clean tab with it). */
export function clearTelegramLaunch(): void {
  initDataInMemory = null;
  launchQueryInMemory = null;
  inTelegramAtBoot = false;
}

/** After sign-out or a refused init data, this tab stops identifying itself with it. */
/** Kept after sign-out (memory only) so "Continue with Telegram" can sign in again without a relaunch. */
let signedOutInitData: string | null = null;

export function forgetInitData(): void {
  signedOutInitData = initDataInMemory ?? signedOutInitData;
  initDataInMemory = null;
  session()?.removeItem(INIT_DATA_KEY);
}

/** The init data of this launch again, after a sign-out (null when there is none to go back to). */
export function restoreInitData(): string | null {
  if (signedOutInitData) {
    initDataInMemory = signedOutInitData;
    session()?.setItem(INIT_DATA_KEY, signedOutInitData);
  }
  return initDataInMemory;
}
