// The app's cookies (auth token, language). Reading happens at start-up, before the first paint,
// so it is a few lines over document.cookie (js-cookie's own read rule). Writing goes through
// js-cookie, loaded on demand: it stays off the first paint (issue 21 §3, the 122 KB budget).
import type Cookies from 'js-cookie';

type CookiesStatic = typeof Cookies;
type CookieAttributes = NonNullable<Parameters<CookiesStatic['set']>[2]>;

/** The cookie's value (decodeURIComponent, as js-cookie reads what it wrote), or undefined. */
export function readCookie(name: string): string | undefined {
  for (const pair of document.cookie.split('; ')) {
    const at = pair.indexOf('=');
    if (pair.slice(0, at) !== name) continue;
    try {
      return decodeURIComponent(pair.slice(at + 1));
    } catch {
      return undefined; // not written by this app (a broken escape): as if it were not there
    }
  }
  return undefined;
}

let library: Promise<CookiesStatic> | undefined;

/** Loads js-cookie once (main.tsx starts it after the first paint); a failed load is tried again next time. */
export function loadCookieLibrary(): Promise<CookiesStatic> {
  library ??= import('js-cookie').then(
    (module) => module.default,
    (error: unknown) => {
      library = undefined;
      throw error;
    },
  );
  return library;
}

// Writes and removals run one after another in the order they were asked for, so a set followed
// at once by a remove leaves no cookie whatever the loading of js-cookie takes.
let queue: Promise<void> = Promise.resolve();
// Deferred writes (and whatever is queued after them) wait for this: a start-up write-back must
// not pull js-cookie into the first paint.
let held: Promise<void> = Promise.resolve();

function enqueue(change: (cookies: CookiesStatic) => void, deferred = false): Promise<void> {
  const done = queue
    .then(() => (deferred ? held : undefined))
    .then(loadCookieLibrary)
    .then(change);
  // One failed write (js-cookie could not be fetched) does not stop the ones after it.
  queue = done.catch(() => undefined);
  return done;
}

/** `deferred`: a write that can wait for holdCookieWrites' release (it keeps its place in the order). */
export function writeCookie(name: string, value: string, attributes: CookieAttributes, deferred = false): Promise<void> {
  return enqueue((cookies) => {
    cookies.set(name, value, attributes);
  }, deferred);
}

export function removeCookie(name: string, attributes: CookieAttributes): Promise<void> {
  return enqueue((cookies) => cookies.remove(name, attributes));
}

/** Settles once every write and removal asked for so far has landed (or failed). */
export function cookieWritesSettled(): Promise<void> {
  return queue;
}

/** Holds deferred cookie writes back until the returned function is called (main.tsx: after the first paint). */
export function holdCookieWrites(): () => void {
  let release = () => {};
  held = new Promise<void>((resolve) => {
    release = resolve;
  });
  return release;
}
