// Leaving a form with unsaved changes asks first: a link or Back in the app, the browser's Back,
// Telegram's back button (it navigates the router too), reloading or closing the tab, and
// closing the Mini App (Telegram's own closing confirmation).
import { useBlocker } from '@tanstack/react-router';
import { useCallback, useEffect, useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { telegramShell } from '@/telegram/shell';
import { ConfirmDialog } from './Dialog';

/**
 * `dirty`: the form differs from what is saved. Returns the dialog to render and `release`, to
 * call right before navigating away after a save (the change is no longer unsaved).
 */
export function useUnsavedGuard(dirty: boolean): { dialog: ReactNode; release: () => void } {
  const { t } = useTranslation();
  const released = useRef(false);
  const guarded = dirty && !released.current;
  const guardedRef = useRef(guarded);
  guardedRef.current = guarded;
  const blocker = useBlocker({
    shouldBlockFn: () => guardedRef.current && !released.current,
    enableBeforeUnload: () => guardedRef.current && !released.current,
    withResolver: true,
  });

  useEffect(() => {
    const shell = telegramShell();
    shell?.setClosingConfirmation(guarded);
    return () => shell?.setClosingConfirmation(false);
  }, [guarded]);

  const release = useCallback(() => {
    released.current = true;
    telegramShell()?.setClosingConfirmation(false);
  }, []);

  const dialog =
    blocker.status === 'blocked' ? (
      <ConfirmDialog
        title={t('editor.leaveTitle')}
        confirmLabel={t('editor.leave')}
        cancelLabel={t('editor.stay')}
        destructive
        onConfirm={blocker.proceed}
        onCancel={blocker.reset}
      >
        <p>{t('editor.leaveText')}</p>
      </ConfirmDialog>
    ) : null;
  return { dialog, release };
}
