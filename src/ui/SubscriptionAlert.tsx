// The specification's alert for a gated action without an active subscription: 'Subscription
// isn't active' — 'Subscribe to use all features', with More details (/subscribe/). Fetched only
// when a call is refused with 402 (AppChrome.tsx), with its strings (the billing messages).
import { useRouter } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ROUTES } from '../../contract/routes';
import { loadMessages } from '@/i18n/i18n';
import { ConfirmDialog } from './Dialog';

export function SubscriptionAlert({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const router = useRouter();
  const [ready, setReady] = useState(() => loadMessages('billing') === undefined);
  useEffect(() => {
    if (ready) return;
    let alive = true;
    // Without its strings the alert would show raw keys: it waits for them (a failure closes it).
    void (loadMessages('billing') ?? Promise.resolve()).then(
      () => alive && setReady(true),
      () => alive && onClose(),
    );
    return () => {
      alive = false;
    };
  }, [ready, onClose]);
  if (!ready) return null;
  return (
    <ConfirmDialog
      layer="app"
      title={t('subscriptionAlert.title')}
      confirmLabel={t('subscriptionAlert.more')}
      cancelLabel={t('subscriptionAlert.close')}
      onConfirm={() => {
        onClose();
        void router.navigate({ to: ROUTES.subscribe });
      }}
      onCancel={onClose}
    >
      <p data-testid="subscription-alert">{t('subscriptionAlert.text')}</p>
    </ConfirmDialog>
  );
}
