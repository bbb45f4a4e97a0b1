// The global elements of spec §2, driven by the ui atoms: the preloader overlay, the top notice,
// and the document title and meta tags from the stored head.
import { useAtom, useAtomValue } from 'jotai';
import { lazy, Suspense, useCallback, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { headAtom, preloaderAtom, subscriptionAlertAtom, topInfoAtom } from '@/state/ui';
import { Preloader } from '@/ui/Preloader';

// Only shown once something happened: fetched after the first paint (main.tsx) or when first needed.
const TopNotice = lazy(() => import('@/ui/TopNotice').then(({ TopNotice }) => ({ default: TopNotice })));

// Only when a gated action was refused (402): its code and strings are fetched then.
const SubscriptionAlert = lazy(() => import('@/ui/SubscriptionAlert').then(({ SubscriptionAlert }) => ({ default: SubscriptionAlert })));

export function GlobalSubscriptionAlert() {
  const [open, setOpen] = useAtom(subscriptionAlertAtom);
  const close = useCallback(() => setOpen(false), [setOpen]);
  if (!open) return null;
  return (
    <Suspense fallback={null}>
      <SubscriptionAlert onClose={close} />
    </Suspense>
  );
}

export function GlobalPreloader() {
  const on = useAtomValue(preloaderAtom);
  const { t } = useTranslation();
  return on ? <Preloader label={t('common.loading')} /> : null;
}

export function GlobalTopNotice() {
  const info = useAtomValue(topInfoAtom);
  const { t } = useTranslation();
  if (!info) return null;
  const fallback = info.type === 'success' ? t('common.done') : info.type === 'error' ? t('errors.unknown') : '';
  return (
    <Suspense fallback={null}>
      <TopNotice info={info} fallbackText={fallback} />
    </Suspense>
  );
}

function setMeta(name: string, content: string): void {
  let tag = document.head.querySelector<HTMLMetaElement>(`meta[name="${CSS.escape(name)}"]`);
  if (!tag) {
    tag = document.createElement('meta');
    tag.name = name;
    document.head.appendChild(tag);
  }
  tag.content = content;
}

export function DocumentHead() {
  const head = useAtomValue(headAtom);
  const { t } = useTranslation();
  const appName = t('app.name');
  useEffect(() => {
    document.title = head.title ? `${head.title} · ${appName}` : appName;
    setMeta('description', head.meta.description ?? t('app.description'));
    for (const [name, content] of Object.entries(head.meta)) {
      if (name !== 'description') setMeta(name, content);
    }
  }, [head, appName, t]);
  return null;
}
