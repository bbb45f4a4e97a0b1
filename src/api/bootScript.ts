/// <reference lib="dom" />
// The first thing index.html runs (vite.config.ts landingPreloads inlines `landingBoot` with the
// build's plan), before the app's code has even arrived: it preloads what the landing screen needs
// (its code and its strings, in the language the app will pick) and, with a session, asks for the
// landing screen's data at once. The app takes those answers (api/landingData.ts), so that on a
// phone the data and the code travel together instead of one after the other.
//
// Self-contained on purpose: the build inlines this function's source text, so it may use nothing
// from outside itself (no imports, no helpers). The rules it repeats are the app's own:
// launch.ts (init data in the hash or kept in this tab), token.ts (the auth_token cookie or
// ?token=), authHeader.ts (Token before TG), language.ts (cookie, Telegram's language_code, the
// browser's) and landingScreens.ts (which screen, which requests). A wrong guess costs a preload
// or a request the app does not take, never a wrong answer: the app checks each answer's path.

export interface BootPlan {
  /** The build's base ('/'). */
  base: string;
  /** Chunks inside Telegram (its colours, the start path). */
  telegram: string[];
  /** Chunks any signed-in start needs (the API clients). */
  session: string[];
  /** The current user's path (/api/users/me/). */
  me: string;
  /** Languages the app has; the first is the default. */
  languages: string[];
  /** The strings' chunks: language → namespace → file. */
  messages: Record<string, Record<string, string>>;
  /**
   * Screens by address: the path's pattern, whether it needs a session, its chunks, its strings'
   * namespaces and its requests (templates: :id = the pattern's first group, {tz} = the browser's
   * time zone, {period} = the address's period or 'all').
   */
  screens: Array<{ path: string; session: boolean; chunks: string[]; messages: string[]; requests: string[] }>;
  /** Valid values of ?period= ('all' when absent or unknown). */
  periods: string[];
  /** Pages whose ?token= is not a sign-in token (the signed cancel link: state/token.ts). */
  notSignInTokenPaths: string[];
}

/** What the boot script leaves for the app: each early request by its path, and when it was sent. */
export interface EarlyRequests {
  at: number;
  requests: Record<string, Promise<Response>>;
}

export function landingBoot(plan: BootPlan): void {
  const d = document;
  const l = location;
  const add = (file: string) => {
    const link = d.createElement('link');
    link.rel = 'modulepreload';
    link.crossOrigin = '';
    link.href = plan.base + file;
    d.head.appendChild(link);
  };
  const cookie = (name: string): string | null => {
    const found = new RegExp('(?:^|;\\s*)' + name + '=([^;]*)').exec(d.cookie);
    if (!found || !found[1]) return null;
    try {
      return decodeURIComponent(found[1]);
    } catch {
      return found[1];
    }
  };
  const hash = new URLSearchParams(l.hash.slice(1));
  const search = new URLSearchParams(l.search);
  let initData = hash.get('tgWebAppData');
  try {
    initData = initData || sessionStorage.getItem('funnels/tgWebAppData');
  } catch {
    // Storage can be blocked: only the hash counts then.
  }
  const token = cookie('auth_token') || (plan.notSignInTokenPaths.indexOf(l.pathname) < 0 ? search.get('token') : null);
  let telegramLanguage = '';
  try {
    telegramLanguage = initData ? (JSON.parse(new URLSearchParams(initData).get('user') || '{}') as { language_code?: string }).language_code || '' : '';
  } catch {
    // Not JSON: the browser's language then.
  }
  const languageCookie = cookie('language');
  let language = (languageCookie ? languageCookie.split('_')[0] : (telegramLanguage || navigator.language || '').split('-')[0]).trim().toLowerCase();
  if (plan.languages.indexOf(language) < 0) language = plan.languages[0];
  const strings = (namespace: string) => {
    const file = plan.messages[language] && plan.messages[language][namespace];
    if (file) add(file);
  };
  const signedIn = Boolean(token || initData);
  // A startapp launch (t.me/<bot>?startapp=…) lands on another screen (startPath.ts): no screen's data.
  const startsElsewhere = Boolean(hash.get('tgWebAppStartParam'));
  const screen = plan.screens.filter((candidate) => new RegExp(candidate.path).test(l.pathname))[0];
  // A screen of the other kind redirects (the guard, or a guest-only screen when signed in).
  const landing = screen && screen.session === signedIn ? screen : null;
  // The landing screen's own data is asked for with a session, unless a startapp sends it elsewhere.
  const wantsData = Boolean(signedIn && landing && !startsElsewhere);
  const match = (landing && new RegExp(landing.path).exec(l.pathname)) || [];
  const period = search.get('period') || '';
  const value = (key: string): string => {
    if (key === 'id') return match[1] || '';
    if (key === 'period') return plan.periods.indexOf(period) >= 0 ? period : 'all';
    try {
      return encodeURIComponent(Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC');
    } catch {
      return 'UTC'; // no Intl time zones: the app says UTC too (api/timeZone.ts)
    }
  };
  const early: EarlyRequests = { at: Date.now(), requests: {} };
  const authorization = token ? 'Token ' + token : 'TG ' + initData;
  const send = (path: string) => {
    const request = fetch(path, { headers: { Authorization: authorization, Accept: 'application/json' } });
    // A failure is the app's business: it asks again and reports what it gets.
    request.catch(() => undefined);
    early.requests[path] = request;
  };
  /** The landing screen's requests with (`true`) or without the time zone in them. */
  const sendScreenRequests = (withTimeZone: boolean) => {
    if (!wantsData || !landing) return;
    landing.requests.forEach((template) => {
      if ((template.indexOf('{tz}') >= 0) === withTimeZone) send(template.replace(/:(id)\b|\{(\w+)\}/g, (_, id: string | undefined, key: string | undefined) => value(id || key || '')));
    });
  };
  // The data first: it is the longest way (the server, then the answer), and the code it races
  // with is already on its way (the preload scanner saw the entry).
  if (signedIn) {
    send(plan.me);
    sendScreenRequests(false);
    (window as unknown as { __funnelsEarly?: EarlyRequests }).__funnelsEarly = early;
  }
  strings('common');
  if (initData) plan.telegram.forEach(add);
  if (signedIn) plan.session.forEach(add);
  if (landing) {
    landing.chunks.forEach(add);
    landing.messages.forEach(strings);
  }
  // Last, the requests with the time zone: the first read of it starts the browser's time zone
  // data (ICU), ~165 ms of main thread on a phone, which held up every preload above it.
  sendScreenRequests(true);
}
