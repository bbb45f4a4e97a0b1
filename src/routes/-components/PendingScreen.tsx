// Shown while a screen's code or data loads for longer than a moment.
import { useAtomValue } from 'jotai';
import { useTranslation } from 'react-i18next';
import { preloaderAtom } from '@/state/ui';
import { Spinner } from '@/ui/Preloader';

export function PendingScreen() {
  const { t } = useTranslation();
  // The full-screen preloader already says "loading": do not say it twice.
  const overlayShown = useAtomValue(preloaderAtom);
  return <main className="screen screen--center">{overlayShown ? null : <Spinner label={t('common.loading')} />}</main>;
}
