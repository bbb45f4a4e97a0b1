import { useTranslation } from 'react-i18next';
import { ROUTES } from '../../../contract/routes';
import { usePageHead } from '@/state/ui';
import { BackLink } from '@/ui/BackLink';
import { ChartIcon } from '@/ui/icons';
import { EmptyState, Section, Stat, StatGrid } from '@/ui/blocks';
import { Screen, ScreenHeader } from '@/ui/Screen';

export function PartnerLinkScreen({ uid }: { uid: string }) {
  const { t } = useTranslation();
  usePageHead(t('partnerLink.title'));
  return (
    <Screen>
      <ScreenHeader title={t('partnerLink.title')} subtitle={t('partnerLink.subtitle', { uid })} back={<BackLink to={ROUTES.partnerDashboard} label={t('common.back')} />} />
      <StatGrid>
        <Stat label={t('partnerLink.visits')} value={0} />
        <Stat label={t('partnerLink.signUps')} value={0} />
        <Stat label={t('partnerLink.payments')} value={0} />
      </StatGrid>
      <Section>
        <EmptyState icon={<ChartIcon />} title={t('partnerLink.emptyTitle')}>
          <p>{t('partnerLink.emptyText')}</p>
        </EmptyState>
      </Section>
    </Screen>
  );
}
