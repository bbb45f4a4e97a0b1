// How the funnel screens refresh the data their route loaded, and show the server's messages in
// the interface language (by their codes).
import { useRouter } from '@tanstack/react-router';
import { useCallback, useEffect } from 'react';
import type { ApiFailure } from '@/api/failure';
import { currentLanguage, i18n } from '@/i18n/i18n';
import { showTopInfo } from '@/state/ui';
import type { CodedMessage } from '../../contract/errors';
import { translationOf } from './errorCodes';

/**
 * Loads the screen's data again: the route's loader runs anew (the data on screen stays until
 * the new one is there). A change made through runChange already does this once; screens call it
 * only when the server may have moved on by itself (a poll, a check that found a revoked token).
 */
export function useRefresh(): () => Promise<void> {
  const router = useRouter();
  return useCallback(() => router.invalidate(), [router]);
}

/** Loads the screen's data again every `ms` while the page is visible (people move through a running funnel). */
export function useRefreshWhile(enabled: boolean, ms: number): void {
  const refresh = useRefresh();
  useEffect(() => {
    if (!enabled) return undefined;
    const tick = () => {
      if (document.visibilityState === 'visible') void refresh();
    };
    const timer = setInterval(tick, ms);
    document.addEventListener('visibilitychange', tick);
    return () => {
      clearInterval(timer);
      document.removeEventListener('visibilitychange', tick);
    };
  }, [refresh, ms, enabled]);
}

/**
 * One server message in the interface language, by its code. A value of the wrong form
 * (`invalid`) keeps the server's precise English words in English and gets a plain sentence in
 * another language; a message without a code is shown as sent.
 */
export function translateServerMessage(message: string, coded?: CodedMessage | null): string {
  const translation = translationOf(coded);
  if (translation) return i18n.t(translation.key, translation.options);
  if (coded?.code === 'invalid' && currentLanguage() !== 'en') return i18n.t('funnels.serverErrors.invalid');
  return message;
}

export interface TranslatedFailure {
  fields: Record<string, string[]>;
  messages: string[];
}

/** A failed call's messages, per field (for the fields a form has) and for above the form. */
export function describeFailure(failure: ApiFailure, formFields: readonly string[] = []): TranslatedFailure {
  if (failure.kind !== 'http') return { fields: {}, messages: [] };
  const fields: Record<string, string[]> = {};
  const messages = failure.messages.map((message, index) => translateServerMessage(message, failure.codes?.messages[index]));
  for (const [field, list] of Object.entries(failure.fields)) {
    const translated = list.map((message, index) => translateServerMessage(message, failure.codes?.fields[field]?.[index]));
    if (formFields.includes(field)) fields[field] = translated;
    else messages.push(...translated);
  }
  if (failure.status < 500 && messages.length === 0 && Object.keys(fields).length === 0) messages.push(i18n.t('errors.unknown'));
  return { fields, messages };
}

/** For calls made outside a form: the failure's own words in the top notice. */
export function noticeFailure(failure: ApiFailure): void {
  if (failure.kind !== 'http') return; // transport problems are already in the notice
  const { fields, messages } = describeFailure(failure);
  const text = [...messages, ...Object.values(fields).flat()].join(' ');
  if (text && (failure.status < 500 || failure.status === 503)) showTopInfo({ type: 'error', text });
}

export const success = (text: string) => showTopInfo({ type: 'success', text });
