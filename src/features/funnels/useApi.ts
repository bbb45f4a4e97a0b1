// How the funnel screens talk to the product API: a loaded resource with its reload, calls with
// the preloader and the top notice, and the server's messages in the interface language.
import { useCallback, useEffect, useRef, useState } from 'react';
import type { ApiFailure } from '@/api/failure';
import { i18n } from '@/i18n/i18n';
import { failureOf, notifyFailure } from '@/api/action';
import { showTopInfo } from '@/state/ui';
import type { CodedMessage } from '../../../contract/errors';
import { translationOf } from './errorCodes';

export interface Resource<T> {
  data: T | undefined;
  failure: ApiFailure | null;
  /** Loads again; `quiet` keeps the current data on screen and any failure out of the notice. */
  reload: (quiet?: boolean) => Promise<void>;
  set: (data: T) => void;
}

/** Loads `load()` when the screen opens and whenever `key` changes. */
export function useResource<T>(key: string, load: () => Promise<T>): Resource<T> {
  const [state, setState] = useState<{ key: string; data: T | undefined; failure: ApiFailure | null }>({ key, data: undefined, failure: null });
  const loadRef = useRef(load);
  loadRef.current = load;
  const generation = useRef(0);

  const reload = useCallback(
    async (quiet = false) => {
      const mine = ++generation.current;
      try {
        const data = await loadRef.current();
        if (mine === generation.current) setState({ key, data, failure: null });
      } catch (error) {
        const failure = await failureOf(error);
        if (mine !== generation.current) return;
        if (!quiet) notifyFailure(failure);
        setState((current) => (quiet && current.data !== undefined ? current : { key, data: undefined, failure }));
      }
    },
    [key],
  );

  useEffect(() => {
    void reload();
    return () => {
      generation.current += 1;
    };
  }, [reload]);

  const set = useCallback((data: T) => setState({ key, data, failure: null }), [key]);
  const current = state.key === key ? state : { data: undefined, failure: null };
  return { data: current.data, failure: current.failure, reload, set };
}

/** Reloads every `ms` while the page is visible (people move through a running funnel). */
export function usePolling(reload: (quiet: boolean) => Promise<void>, ms: number, enabled = true): void {
  useEffect(() => {
    if (!enabled) return undefined;
    const tick = () => {
      if (document.visibilityState === 'visible') void reload(true);
    };
    const timer = setInterval(tick, ms);
    document.addEventListener('visibilitychange', tick);
    return () => {
      clearInterval(timer);
      document.removeEventListener('visibilitychange', tick);
    };
  }, [reload, ms, enabled]);
}

/** One server message in the interface language (as sent when it is not one we know). */
/** One server message in the interface language, by its code (as sent when it has none we know). */
export function translateServerMessage(message: string, coded?: CodedMessage | null): string {
  const translation = translationOf(coded);
  return translation ? i18n.t(translation.key, translation.options) : message;
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
