// The first screen's data, asked for by main.tsx as soon as the app's code runs (in parallel with
// the screen's code), instead of by the screen's loader once the guard and the code have arrived.
// Each answer is used once, by the first load that asks for it; a failed or unused one falls back
// to the normal call, so errors mean exactly what they mean anywhere else.

const early = new Map<string, Promise<Response>>();
/**
 * The first screen takes its answers as it loads; one it did not take (a redirect went elsewhere)
 * must not stand in for a later load, after changes: past this age they are dropped.
 */
const LANDING_DATA_MAX_AGE_MS = 10_000;

/** Starts GET `paths` (API paths with their query) with `authorization`, the header the clients send. */
export function startLandingRequests(paths: readonly string[], authorization: string): void {
  for (const path of paths) {
    const request = fetch(path, { headers: { Authorization: authorization, Accept: 'application/json' } });
    // A failure is the fallback's business (it asks again and reports what it gets).
    request.catch(() => {});
    early.set(path, request);
  }
  setTimeout(() => {
    for (const path of paths) early.delete(path);
  }, LANDING_DATA_MAX_AGE_MS);
}

/** The early answer for `path` when it is there and succeeded, else `fallback()` (the normal call). */
export function landingData<T>(path: string, fallback: () => Promise<T>): Promise<T> {
  const request = early.get(path);
  if (!request) return fallback();
  early.delete(path);
  return request.then(
    (response) => (response.ok ? (response.json() as Promise<T>) : fallback()),
    () => fallback(),
  );
}
