// /partner/dashboard/{uid}/: one link's way from clicks to revenue over a period, and its days
// on a chart.
import { useTranslation } from 'react-i18next';
import type { PartnerLinkStats, PartnerPeriod, PartnerTotals } from '../../../contract/partner';
import { ROUTES } from '../../../contract/routes';
import { usePageHead } from '@/state/ui';
import { BackLink } from '@/ui/BackLink';
import { ChartIcon } from '@/ui/icons';
import { EmptyState, Section } from '@/ui/blocks';
import { Screen, ScreenHeader } from '@/ui/Screen';
import { formatMonies } from './format';
import { PartnerChart } from './PartnerChart';
import { linkTitle } from './linkTitle';
import { PeriodTabs } from './PeriodTabs';
import './partner.css';

/** Clicks → sign-ups → paying → revenue, with the share of the step before. */
export function PartnerFunnel({ totals }: { totals: PartnerTotals }) {
  const { t, i18n } = useTranslation();
  const share = (part: number, whole: number) => (whole > 0 ? new Intl.NumberFormat(i18n.language, { style: 'percent', maximumFractionDigits: 1 }).format(part / whole) : null);
  const steps = [
    { key: 'clicks', label: t('partner.clicks'), value: String(totals.clicks), rate: null },
    { key: 'signups', label: t('partner.signups'), value: String(totals.signups), rate: share(totals.signups, totals.clicks) },
    { key: 'paying', label: t('partner.paying'), value: String(totals.paying), rate: share(totals.paying, totals.signups) },
    { key: 'revenue', label: t('partner.revenue'), value: formatMonies(totals.revenue, i18n.language, '0'), rate: null },
    { key: 'commission', label: t('partner.commission'), value: formatMonies(totals.commission, i18n.language, '0'), rate: null },
  ];
  return (
    <ol className="partner-funnel" aria-label={t('partner.funnelLabel')}>
      {steps.map((step) => (
        <li key={step.key} className="partner-funnel-step" data-testid={`partner-funnel-${step.key}`}>
          <span className="partner-funnel-value">{step.value}</span>
          <span className="partner-funnel-label">{step.label}</span>
          {step.rate ? <span className="partner-funnel-rate">{t('partner.rate', { rate: step.rate })}</span> : null}
        </li>
      ))}
    </ol>
  );
}

export function PartnerLinkScreen({ stats, onPeriod }: { stats: PartnerLinkStats; onPeriod: (period: PartnerPeriod) => void }) {
  const { t } = useTranslation();
  const title = linkTitle(stats, t('partner.defaultLink'));
  usePageHead(title);
  const quiet = stats.days.every((day) => day.clicks === 0 && day.signups === 0 && day.paying === 0);
  return (
    <Screen>
      <ScreenHeader title={title} subtitle={t('partnerLink.subtitle', { uid: stats.uid })} back={<BackLink to={ROUTES.partnerDashboard} label={t('common.back')} />} />
      <PeriodTabs period={stats.period} onChange={onPeriod} />
      <PartnerFunnel totals={stats.totals} />
      <Section title={t('partnerLink.chartTitle')}>
        {quiet ? (
          <EmptyState icon={<ChartIcon />} title={t('partnerLink.emptyTitle')}>
            <p>{t('partnerLink.emptyText')}</p>
          </EmptyState>
        ) : (
          <PartnerChart days={stats.days} />
        )}
      </Section>
    </Screen>
  );
}
