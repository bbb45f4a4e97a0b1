// /partner/dashboard/: the partner balance and links.
import { Link, type LinkComponentProps } from '@tanstack/react-router';
import { useId, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ROUTES } from '../../../contract/routes';
import { usePageHead } from '@/state/ui';
import { BackLink } from '@/ui/BackLink';
import { ChartIcon, LinkIcon, ListIcon, WalletIcon } from '@/ui/icons';
import { EmptyState, RowContent, RowIcon, Section, type Tint } from '@/ui/blocks';
import { Screen, ScreenHeader } from '@/ui/Screen';
import { formatAmount } from './format';

function NavRow({ to, icon, tint, title }: { to: LinkComponentProps['to']; icon: ReactNode; tint: Tint; title: string }) {
  const id = useId();
  return (
    <Link to={to} className="row" aria-labelledby={id}>
      <RowContent icon={<RowIcon tint={tint}>{icon}</RowIcon>} title={title} titleId={id} />
    </Link>
  );
}

export function PartnerDashboardScreen() {
  const { t, i18n } = useTranslation();
  usePageHead(t('partner.title'));
  return (
    <Screen>
      <ScreenHeader title={t('partner.title')} subtitle={t('partner.subtitle')} back={<BackLink to={ROUTES.panel} label={t('common.back')} />} />
      <div className="balance-card">
        <span className="balance-label">{t('partner.balance')}</span>
        <span className="balance-value" data-testid="partner-balance">
          {formatAmount(0, i18n.language)}
        </span>
      </div>
      <Section>
        <NavRow to={ROUTES.partnerTransactions} icon={<ListIcon />} tint="blue" title={t('partner.transactions')} />
        <NavRow to={ROUTES.partnerStatistics} icon={<ChartIcon />} tint="green" title={t('partner.statistics')} />
        <NavRow to={ROUTES.partnerWithdraw} icon={<WalletIcon />} tint="orange" title={t('partner.withdraw')} />
      </Section>
      <Section title={t('partner.linksTitle')}>
        <EmptyState icon={<LinkIcon />} title={t('partner.linksEmptyTitle')}>
          <p>{t('partner.linksEmptyText')}</p>
        </EmptyState>
      </Section>
    </Screen>
  );
}
