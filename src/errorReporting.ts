// Error reporting with @sentry/browser, kept off the first paint: until the SDK is loaded (after
// first paint, and only when VITE_SENTRY_DSN is set) errors are buffered here; without a DSN no
// Sentry code is fetched and nothing leaves the page.

import type { captureException } from '@sentry/browser';

interface SentryModule {
  captureException: typeof captureException;
}

const MAX_BUFFERED = 20;
const buffered: unknown[] = [];
let sentry: SentryModule | null = null;

function onWindowError(event: ErrorEvent): void {
  remember(event.error ?? event.message);
}

function onUnhandledRejection(event: PromiseRejectionEvent): void {
  remember(event.reason);
}

function remember(error: unknown): void {
  if (buffered.length < MAX_BUFFERED) buffered.push(error);
}

function sentryDsn(): string | undefined {
  const dsn: unknown = import.meta.env.VITE_SENTRY_DSN;
  return typeof dsn === 'string' && dsn.trim() ? dsn.trim() : undefined;
}

/** First step of the boot: start catching errors (cheap: two listeners). */
export function startErrorReporting(): void {
  if (!sentryDsn()) return;
  window.addEventListener('error', onWindowError);
  window.addEventListener('unhandledrejection', onUnhandledRejection);
}

/** Loads and initialises Sentry; call after the first paint. */
export async function loadErrorReporting(): Promise<void> {
  const dsn = sentryDsn();
  if (!dsn || sentry) return;
  // Destructured so the bundler keeps only what is used (a namespace would keep all of Sentry).
  const { init, captureException } = await import('@sentry/browser');
  init({ dsn, debug: true, environment: import.meta.env.MODE });
  sentry = { captureException };
  // Sentry installs its own global handlers from now on.
  window.removeEventListener('error', onWindowError);
  window.removeEventListener('unhandledrejection', onUnhandledRejection);
  for (const error of buffered.splice(0)) captureException(error);
}

/** Reports an error we caught ourselves (error screens, unexpected failures). */
export function reportError(error: unknown): void {
  if (sentry) sentry.captureException(error);
  else if (sentryDsn()) remember(error);
  console.error(error);
}
