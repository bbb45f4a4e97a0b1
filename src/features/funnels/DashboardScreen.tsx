// /content/dashboard/: the overview of the user's funnels.
import { useTranslation } from '../../i18n/useTranslation';
import { ROUTES } from '../../../contract/routes';
import { usePageHead } from '../../state/ui';
import { BackLink } from '../../ui/BackLink';
import { BotIcon } from '../../ui/icons';
import { EmptyState, Stat, StatGrid } from '../../ui/blocks';
import { Screen, ScreenHeader } from '../../ui/Screen';

export function DashboardScreen() {
  const { t } = useTranslation();
  usePageHead(t('dashboard.title'));
  return (
    <Screen>
      <ScreenHeader title={t('dashboard.title')} subtitle={t('dashboard.subtitle')} back={<BackLink to={ROUTES.panel} label={t('common.back')} />} />
      <StatGrid>
        <Stat label={t('dashboard.funnels')} value={0} />
        <Stat label={t('dashboard.people')} value={0} />
        <Stat label={t('dashboard.sent')} value={0} />
      </StatGrid>
      <EmptyState icon={<BotIcon />} title={t('dashboard.emptyTitle')}>
        <p>{t('dashboard.emptyText')}</p>
      </EmptyState>
    </Screen>
  );
}
