// /content/dashboard/: per funnel, what happened today (new people, messages sent, stage moves)
// and per stage who is in it now, who reached it in the chosen period, how many moved on from it
// next and what a payment stage sold (refunds not counted), from GET /api/dashboard/.
import { Link } from '@tanstack/react-router';
import type { DashboardFunnel, StatsPeriod } from '../../../contract/funnels';
import { ROUTES } from '../../../contract/routes';
import { useTranslation } from 'react-i18next';
import { usePageHead } from '@/state/ui';
import { BackLink } from '@/ui/BackLink';
import { EmptyState, Stat, StatGrid } from '@/ui/blocks';
import { BotIcon } from '@/ui/icons';
import { Screen, ScreenHeader } from '@/ui/Screen';
import { StateBadge } from './parts';
import { PeriodTabs, StageResults } from './StageResults';
import { useRefreshWhile } from '@/api/useApi';
import { useBotLabel } from '@/ui/botLabel';

function FunnelStats({ funnel }: { funnel: DashboardFunnel }) {
  const { t } = useTranslation();
  const botLabel = useBotLabel();
  return (
    <article className="dash-funnel" aria-label={funnel.name} data-testid="dashboard-funnel">
      <Link to="/content/funnels/$funnelId/" params={{ funnelId: String(funnel.id) }} className="dash-funnel-head">
        <span className="dash-funnel-name">
          <strong>{funnel.name}</strong>
          <span>
            {botLabel(funnel)} · {t('funnels.list.people', { count: funnel.people_count })}
          </span>
        </span>
        <StateBadge funnel={funnel} />
      </Link>
      <div className="dash-today" aria-label={t('dashboard.today')}>
        <Stat label={t('dashboard.newPeople')} value={funnel.today.new_people} />
        <Stat label={t('dashboard.sentToday')} value={funnel.today.messages_sent} />
        <Stat label={t('dashboard.moves')} value={funnel.today.stage_moves} />
        <Stat label={t('funnels.payments.revenue')} value={t('funnels.payments.stars', { amount: funnel.revenue })} testId="dashboard-funnel-revenue" />
      </div>
      {funnel.stages.length === 0 ? (
        <p className="hint">{t('dashboard.noStages')}</p>
      ) : (
        <StageResults testId="dashboard-stage" stages={funnel.stages.map((stage) => ({ ...stage, now: stage.people_count }))} />
      )}
    </article>
  );
}

/** `funnels`: the dashboard's figures, loaded by the route (and again every 10 s while a bot runs). */
export function DashboardScreen({ funnels, period, onPeriod }: { funnels: DashboardFunnel[]; period: StatsPeriod; onPeriod: (period: StatsPeriod) => void }) {
  const { t } = useTranslation();
  usePageHead(t('dashboard.title'));
  useRefreshWhile(funnels.some((f) => f.state === 'running'), 10_000);
  const sum = (pick: (f: DashboardFunnel) => number) => funnels.reduce((total, f) => total + pick(f), 0);

  return (
    <Screen>
      <ScreenHeader title={t('dashboard.title')} subtitle={t('dashboard.subtitle')} back={<BackLink to={ROUTES.panel} label={t('common.back')} />} />
      <StatGrid>
        <Stat label={t('dashboard.funnels')} value={funnels.length} testId="dashboard-funnels" />
        <Stat label={t('dashboard.people')} value={sum((f) => f.people_count)} testId="dashboard-people" />
        <Stat label={t('dashboard.sent')} value={sum((f) => f.today.messages_sent)} />
        <Stat label={t('funnels.payments.revenue')} value={t('funnels.payments.stars', { amount: sum((f) => f.revenue) })} testId="dashboard-revenue" />
      </StatGrid>
      {funnels.length > 0 ? <PeriodTabs period={period} onChange={onPeriod} /> : null}
      {funnels.length === 0 ? (
        <EmptyState icon={<BotIcon />} title={t('dashboard.emptyTitle')}>
          <p>{t('dashboard.emptyText')}</p>
          <Link to={ROUTES.connectBot} className="button button--primary button--small">
            {t('funnels.list.add')}
          </Link>
        </EmptyState>
      ) : (
        funnels.map((funnel) => <FunnelStats key={funnel.id} funnel={funnel} />)
      )}
    </Screen>
  );
}
