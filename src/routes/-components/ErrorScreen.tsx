// Default error screen: says what happened in words, offers a retry and a way home.
import { Link, useRouter, type ErrorComponentProps } from '@tanstack/react-router';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { ROUTES } from '../../../contract/routes';
import { reportError } from '@/errorReporting';
import { AlertIcon } from '@/ui/statusIcons';
import { Button } from '@/ui/form';
import { EmptyState } from '@/ui/blocks';
import { Screen } from '@/ui/Screen';

export function ErrorScreen({ error, reset }: ErrorComponentProps) {
  const { t } = useTranslation();
  const router = useRouter();
  useEffect(() => {
    reportError(error);
  }, [error]);
  return (
    <Screen className="screen--center">
      <EmptyState icon={<AlertIcon />} title={t('errorScreen.title')}>
        <p>{t('errorScreen.text')}</p>
      </EmptyState>
      <div className="stack">
        <Button
          onClick={() => {
            reset();
            void router.invalidate();
          }}
        >
          {t('common.tryAgain')}
        </Button>
        <Link to={ROUTES.root} className="button button--plain">
          {t('common.toPanel')}
        </Link>
      </div>
    </Screen>
  );
}
