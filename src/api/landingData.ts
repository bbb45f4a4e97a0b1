// The first screen's data, asked for by index.html's boot script (api/bootScript.ts) before
// the app's code has arrived, instead of by the screen's loader once the guard and the code are
// there. Each answer is used once, by the first load that asks for it; a failed or unused one falls
// back to the normal call, so errors mean exactly what they mean anywhere else.
import type { EarlyRequests } from './bootScript';

/**
 * The first screen takes its answers as it loads; one it did not take (a redirect went elsewhere)
 * must not stand in for a later load, after changes: past this age they are dropped.
 */
const LANDING_DATA_MAX_AGE_MS = 10_000;

function early(): EarlyRequests | undefined {
  return (window as unknown as { __funnelsEarly?: EarlyRequests }).__funnelsEarly;
}

/** The early answer for `path` when it is there and succeeded, else `fallback()` (the normal call). */
export function landingData<T>(path: string, fallback: () => Promise<T>): Promise<T> {
  const requests = early();
  const request = requests?.requests[path];
  if (!requests || !request) return fallback();
  delete requests.requests[path];
  if (Date.now() - requests.at > LANDING_DATA_MAX_AGE_MS) return fallback();
  return request.then(
    (response) => (response.ok ? (response.json() as Promise<T>) : fallback()),
    () => fallback(),
  );
}

/**
 * `promise`, marked the way React's `use()` (and so TanStack's <Await>) reads a thenable's state:
 * once settled, a component that awaits it renders its value at once. Unmarked, React suspends on
 * its first look even at a promise that settled long ago, shows the fallback, and reveals the
 * content only after its Suspense reveal delay (300 ms), which is most of a warm open's time.
 */
export function markSettled<T>(promise: Promise<T>): Promise<T> {
  const thenable = promise as Promise<T> & { status?: 'pending' | 'fulfilled' | 'rejected'; value?: T; reason?: unknown };
  thenable.status = 'pending';
  promise.then(
    (value) => {
      thenable.status = 'fulfilled';
      thenable.value = value;
    },
    (reason: unknown) => {
      thenable.status = 'rejected';
      thenable.reason = reason;
    },
  );
  return promise;
}
