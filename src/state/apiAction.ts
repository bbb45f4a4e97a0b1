// Runs an API call for the UI: preloader on while it runs (and always off afterwards), transport
// and server failures in the top notice, the rest handed back for the form to show.
import { i18n } from '../i18n/i18n';
import { isTransportFailure, toApiFailure, type ApiFailure } from '../api/errors';
import { reportError } from '../errorReporting';
import { appStore, type AppStore } from './store';
import { setPreloader, showTopInfo } from './ui';

export type ApiResult<T> = { ok: true; value: T } | { ok: false; failure: ApiFailure };

/** The top-notice text for failures that are not about the form's input, else null. */
export function noticeFor(failure: ApiFailure): string | null {
  if (isTransportFailure(failure)) return i18n.t(`errors.${failure.kind}`);
  if (failure.kind === 'unknown') return i18n.t('errors.unknown');
  if (failure.status >= 500) return i18n.t('errors.server');
  return null;
}

export function notifyFailure(failure: ApiFailure, store: AppStore = appStore): void {
  if (failure.kind === 'unknown') reportError(failure.error);
  const text = noticeFor(failure);
  if (text) showTopInfo({ type: 'error', text }, store);
}

export async function runApiAction<T>(work: () => Promise<T>, store: AppStore = appStore): Promise<ApiResult<T>> {
  setPreloader(true, store);
  try {
    return { ok: true, value: await work() };
  } catch (error) {
    const failure = await toApiFailure(error);
    notifyFailure(failure, store);
    return { ok: false, failure };
  } finally {
    setPreloader(false, store);
  }
}
