import { useTranslation } from 'react-i18next';
import { ROUTES } from '../../../contract/routes';
import { usePageHead } from '@/state/ui';
import { BackLink } from '@/ui/BackLink';
import { WalletIcon } from '@/ui/icons';
import { EmptyState, Section } from '@/ui/blocks';
import { Screen, ScreenHeader } from '@/ui/Screen';
import { formatAmount } from './format';

export function PartnerWithdrawScreen() {
  const { t, i18n } = useTranslation();
  usePageHead(t('partnerWithdraw.title'));
  return (
    <Screen>
      <ScreenHeader title={t('partnerWithdraw.title')} subtitle={t('partnerWithdraw.subtitle')} back={<BackLink to={ROUTES.partnerDashboard} label={t('common.back')} />} />
      <div className="balance-card">
        <span className="balance-label">{t('partnerWithdraw.available')}</span>
        <span className="balance-value">{formatAmount(0, i18n.language)}</span>
      </div>
      <Section>
        <EmptyState icon={<WalletIcon />} title={t('partnerWithdraw.emptyTitle')}>
          <p>{t('partnerWithdraw.emptyText')}</p>
        </EmptyState>
      </Section>
    </Screen>
  );
}
