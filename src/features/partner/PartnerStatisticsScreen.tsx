// /partner/statistics/: all the partner's links together over a period (the funnel and the
// chart), and each link's figures, as a table on a wide window.
import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import type { PartnerPeriod, PartnerStatistics } from '../../../contract/partner';
import { ROUTES } from '../../../contract/routes';
import { usePageHead } from '@/state/ui';
import { BackLink } from '@/ui/BackLink';
import { RowContent, EmptyState, Section } from '@/ui/blocks';
import { DataTable } from '@/ui/DataTable';
import { ChartIcon } from '@/ui/icons';
import { Screen, ScreenHeader } from '@/ui/Screen';
import { useWideLayout } from '@/ui/useWideLayout';
import { formatMonies } from './format';
import { linkTitle } from './linkTitle';
import { PartnerChart } from './PartnerChart';
import { PartnerFunnel } from './PartnerLinkScreen';
import { PeriodTabs } from './PeriodTabs';
import './partner.css';

type LinkFigures = PartnerStatistics['links'][number];

export function PartnerStatisticsScreen({ statistics, onPeriod }: { statistics: PartnerStatistics; onPeriod: (period: PartnerPeriod) => void }) {
  const { t, i18n } = useTranslation();
  usePageHead(t('partnerStatistics.title'));
  const wide = useWideLayout();
  const quiet = statistics.days.every((day) => day.clicks === 0 && day.signups === 0 && day.paying === 0);
  const title = (link: LinkFigures) => linkTitle(link, t('partner.defaultLink'));
  return (
    <Screen wide={wide}>
      <ScreenHeader title={t('partnerStatistics.title')} subtitle={t('partnerStatistics.subtitle')} back={<BackLink to={ROUTES.partnerDashboard} label={t('common.back')} />} />
      <PeriodTabs period={statistics.period} onChange={onPeriod} />
      <PartnerFunnel totals={statistics.totals} />
      <Section title={t('partnerStatistics.chartTitle')}>
        {quiet ? (
          <EmptyState icon={<ChartIcon />} title={t('partnerStatistics.emptyTitle')}>
            <p>{t('partnerStatistics.emptyText')}</p>
          </EmptyState>
        ) : (
          <PartnerChart days={statistics.days} />
        )}
      </Section>
      {wide ? (
        <DataTable
          label={t('partnerStatistics.linksTitle')}
          rows={statistics.links}
          rowKey={(link) => link.uid}
          rowTestId="partner-statistics-link"
          columns={[
            {
              key: 'link',
              header: t('partnerStatistics.link'),
              cell: (link) => (
                <Link to="/partner/dashboard/$uid/" params={{ uid: link.uid }} search={{ period: statistics.period }}>
                  {title(link)}
                </Link>
              ),
            },
            { key: 'clicks', header: t('partner.clicks'), numeric: true, width: '12%', cell: (link) => link.totals.clicks },
            { key: 'signups', header: t('partner.signups'), numeric: true, width: '12%', cell: (link) => link.totals.signups },
            { key: 'paying', header: t('partner.paying'), numeric: true, width: '12%', cell: (link) => link.totals.paying },
            { key: 'revenue', header: t('partner.revenue'), numeric: true, width: '18%', cell: (link) => formatMonies(link.totals.revenue, i18n.language, '—') },
            { key: 'commission', header: t('partner.commission'), numeric: true, width: '18%', cell: (link) => formatMonies(link.totals.commission, i18n.language, '—') },
          ]}
        />
      ) : (
        <Section title={t('partnerStatistics.linksTitle')}>
          {statistics.links.map((link) => (
            <Link key={link.uid} to="/partner/dashboard/$uid/" params={{ uid: link.uid }} search={{ period: statistics.period }} className="row" data-testid="partner-statistics-link">
              <RowContent
                title={title(link)}
                description={t('partner.linkTotals', {
                  clicks: link.totals.clicks,
                  signups: link.totals.signups,
                  paying: link.totals.paying,
                  commission: formatMonies(link.totals.commission, i18n.language, '0'),
                })}
              />
            </Link>
          ))}
        </Section>
      )}
    </Screen>
  );
}
