// Runs an API call for the UI — the one way every screen does it: a change (runChange) or a read
// (runRead). Preloader on while it runs (and always off afterwards), transport and server failures
// in the top notice, the rest handed back for the form to show.
import { reportError } from '@/errorReporting';
import { i18n } from '@/i18n/i18n';
import { appStore, type AppStore } from '@/state/store';
import { setPreloader, showSubscriptionAlert, showTopInfo } from '@/state/ui';
import { announceApiChange } from './afterChange';
import { isTransportFailure, type ApiFailure } from './failure';

/**
 * What a failed call means (api/errors.ts). The mapping comes in the API module's chunk, which the
 * call itself has loaded; when that chunk is what could not be fetched, the connection is down.
 */
export async function failureOf(error: unknown): Promise<ApiFailure> {
  const mapping = await import('./errors').catch(() => null);
  return mapping ? mapping.toApiFailure(error) : { kind: 'network' };
}

export type ApiResult<T> = { ok: true; value: T } | { ok: false; failure: ApiFailure };

/**
 * The top-notice text for failures that are not about the form's input, else null. A 503 that
 * says why (Telegram not answering) is the screen's to show where it matters, not the notice's.
 */
export function noticeFor(failure: ApiFailure): string | null {
  if (isTransportFailure(failure)) return i18n.t(`errors.${failure.kind}`);
  if (failure.kind === 'unknown') return i18n.t('errors.unknown');
  if (failure.status === 503 && failure.messages.length > 0) return null;
  if (failure.status >= 500) return i18n.t('errors.server');
  return null;
}

/** A gated action the server refused: 402 with the code `subscription_inactive` (billing). */
export function isSubscriptionInactive(failure: ApiFailure): boolean {
  return failure.kind === 'http' && failure.status === 402 && failure.codes?.messages.some((coded) => coded?.code === 'subscription_inactive') === true;
}

export function notifyFailure(failure: ApiFailure, store: AppStore = appStore): void {
  if (failure.kind === 'unknown') reportError(failure.error);
  // Wherever it happens, the same alert: 'Subscription isn't active', with the way to subscribe.
  if (isSubscriptionInactive(failure)) showSubscriptionAlert(store);
  const text = noticeFor(failure);
  if (text) showTopInfo({ type: 'error', text }, store);
}

/** The call itself: preloader on while it runs (and always off afterwards), failures in the top notice. */
async function runApiCall<T>(work: () => Promise<T>, store: AppStore): Promise<ApiResult<T>> {
  setPreloader(true, store);
  try {
    return { ok: true, value: await work() };
  } catch (error) {
    const failure = await failureOf(error);
    notifyFailure(failure, store);
    return { ok: false, failure };
  } finally {
    setPreloader(false, store);
  }
}

export interface ChangeOptions<T> {
  /** The success notice, said once the server has the change (from what it answered, if a function). */
  notice?: string | ((value: T) => string);
  store?: AppStore;
}

/**
 * A call that changes data on the server. On success: the notice, then the router reloads what it
 * loaded, once (the screen calls nothing else to refresh: a second reload would fetch it all again).
 */
export async function runChange<T>(work: () => Promise<T>, { notice, store = appStore }: ChangeOptions<T> = {}): Promise<ApiResult<T>> {
  const result = await runApiCall(work, store);
  if (result.ok) {
    if (notice !== undefined) showTopInfo({ type: 'success', text: typeof notice === 'function' ? notice(result.value) : notice }, store);
    announceApiChange();
  }
  return result;
}

/** A call that changes nothing the router loaded (a read, a check, a download): nothing reloads. */
export function runRead<T>(work: () => Promise<T>, store: AppStore = appStore): Promise<ApiResult<T>> {
  return runApiCall(work, store);
}
