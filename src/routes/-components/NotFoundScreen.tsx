import { Link, useRouter } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { ROUTES } from '../../../contract/routes';
import { usePageHead } from '@/state/ui';
import { FunnelIcon } from '@/ui/brandIcon';
import { EmptyState } from '@/ui/blocks';
import { Screen } from '@/ui/Screen';

export function NotFoundScreen() {
  const { t } = useTranslation();
  const router = useRouter();
  usePageHead(t('notFound.title'));
  return (
    <Screen className="screen--center">
      <EmptyState icon={<FunnelIcon />} title={t('notFound.title')}>
        <p>{t('notFound.text')}</p>
      </EmptyState>
      {/* Where the owner came from (a deleted stage's old link, say), or the panel. */}
      {router.history.canGoBack() ? (
        <button type="button" className="button button--secondary" onClick={() => router.history.back()}>
          {t('common.back')}
        </button>
      ) : null}
      <Link to={ROUTES.root} className="button button--primary">
        {t('common.toPanel')}
      </Link>
    </Screen>
  );
}
