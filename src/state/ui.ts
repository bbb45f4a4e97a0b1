// Global UI state (spec §3, §4): the preloader flag, the top-info notice and the page head.
import { atom, useSetAtom } from 'jotai';
import { useEffect } from 'react';
import { TOP_INFO_MS } from '../../contract/constants';
import { appStore, type AppStore } from './store';

export const preloaderAtom = atom(false);

export type TopInfoType = 'success' | 'error' | 'info';
export interface TopInfo {
  type: TopInfoType;
  text?: string;
}
export const topInfoAtom = atom<TopInfo | null>(null);

const topInfoTimers = new WeakMap<AppStore, ReturnType<typeof setTimeout>>();

/** Shows the top notice; it disappears by itself after TOP_INFO_MS (a newer one restarts the clock). */
export function showTopInfo(info: TopInfo, store: AppStore = appStore): void {
  const previous = topInfoTimers.get(store);
  if (previous !== undefined) clearTimeout(previous);
  store.set(topInfoAtom, info);
  topInfoTimers.set(
    store,
    setTimeout(() => {
      topInfoTimers.delete(store);
      store.set(topInfoAtom, null);
    }, TOP_INFO_MS),
  );
}

/** The 'Subscription isn't active' alert is open (a gated action was refused with 402). */
export const subscriptionAlertAtom = atom(false);

export function showSubscriptionAlert(store: AppStore = appStore): void {
  store.set(subscriptionAlertAtom, true);
}

export function setPreloader(on: boolean, store: AppStore = appStore): void {
  store.set(preloaderAtom, on);
}

/** Runs `work` with the preloader on, and always turns it off again. */
export async function withPreloader<T>(work: () => Promise<T>, store: AppStore = appStore): Promise<T> {
  setPreloader(true, store);
  try {
    return await work();
  } finally {
    setPreloader(false, store);
  }
}

export interface PageHead {
  title: string;
  meta: Record<string, string>;
}
export const headAtom = atom<PageHead>({ title: '', meta: {} });

/** Each screen stores its title and meta tags here; <DocumentHead> writes them into the page. */
export function usePageHead(title: string, description?: string): void {
  const setHead = useSetAtom(headAtom);
  useEffect(() => {
    setHead({ title, meta: description ? { description } : {} });
  }, [setHead, title, description]);
}
