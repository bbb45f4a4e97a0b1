import { useTranslation } from 'react-i18next';
import { ROUTES } from '../../../contract/routes';
import { usePageHead } from '@/state/ui';
import { BackLink } from '@/ui/BackLink';
import { ChartIcon } from '@/ui/icons';
import { EmptyState, Section, Stat, StatGrid } from '@/ui/blocks';
import { Screen, ScreenHeader } from '@/ui/Screen';

export function PartnerStatisticsScreen() {
  const { t } = useTranslation();
  usePageHead(t('partnerStatistics.title'));
  return (
    <Screen>
      <ScreenHeader title={t('partnerStatistics.title')} subtitle={t('partnerStatistics.subtitle')} back={<BackLink to={ROUTES.partnerDashboard} label={t('common.back')} />} />
      <StatGrid>
        <Stat label={t('partnerStatistics.visits')} value={0} />
        <Stat label={t('partnerStatistics.signUps')} value={0} />
        <Stat label={t('partnerStatistics.payments')} value={0} />
      </StatGrid>
      <Section>
        <EmptyState icon={<ChartIcon />} title={t('partnerStatistics.emptyTitle')}>
          <p>{t('partnerStatistics.emptyText')}</p>
        </EmptyState>
      </Section>
    </Screen>
  );
}
