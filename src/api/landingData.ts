// The first screen's data, asked for by main.tsx as soon as the app's code runs (in parallel with
// the screen's code), instead of by the screen's loader once the guard and the code have arrived.
// Each answer is used once, by the first load that asks for it; a failed or unused one falls back
// to the normal call, so errors mean exactly what they mean anywhere else.

const early = new Map<string, Promise<Response>>();

/** Starts GET `paths` (API paths with their query) with `authorization`, the header the clients send. */
export function startLandingRequests(paths: readonly string[], authorization: string): void {
  for (const path of paths) {
    const request = fetch(path, { headers: { Authorization: authorization, Accept: 'application/json' } });
    // A failure is the fallback's business (it asks again and reports what it gets).
    request.catch(() => {});
    early.set(path, request);
  }
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

/** Once the first screen is shown, early answers nobody took are out of date: later loads ask anew. */
export function dropLandingData(): void {
  early.clear();
}
