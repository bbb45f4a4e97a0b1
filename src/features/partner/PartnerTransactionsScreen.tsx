import { useTranslation } from 'react-i18next';
import { ROUTES } from '../../../contract/routes';
import { usePageHead } from '@/state/ui';
import { BackLink } from '@/ui/BackLink';
import { ListIcon } from '@/ui/icons';
import { EmptyState, Section } from '@/ui/blocks';
import { Screen, ScreenHeader } from '@/ui/Screen';

export function PartnerTransactionsScreen() {
  const { t } = useTranslation();
  usePageHead(t('partnerTransactions.title'));
  return (
    <Screen>
      <ScreenHeader title={t('partnerTransactions.title')} subtitle={t('partnerTransactions.subtitle')} back={<BackLink to={ROUTES.partnerDashboard} label={t('common.back')} />} />
      <Section>
        <EmptyState icon={<ListIcon />} title={t('partnerTransactions.emptyTitle')}>
          <p>{t('partnerTransactions.emptyText')}</p>
        </EmptyState>
      </Section>
    </Screen>
  );
}
