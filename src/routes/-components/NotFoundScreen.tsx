import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { ROUTES } from '../../../contract/routes';
import { usePageHead } from '@/state/ui';
import { FunnelIcon } from '@/ui/brandIcon';
import { EmptyState } from '@/ui/blocks';
import { Screen } from '@/ui/Screen';

export function NotFoundScreen() {
  const { t } = useTranslation();
  usePageHead(t('notFound.title'));
  return (
    <Screen className="screen--center">
      <EmptyState icon={<FunnelIcon />} title={t('notFound.title')}>
        <p>{t('notFound.text')}</p>
      </EmptyState>
      <Link to={ROUTES.root} className="button button--primary">
        {t('common.toPanel')}
      </Link>
    </Screen>
  );
}
