// /content/dashboard/: per funnel, how many people are in each stage (a bar each) and what
// happened today (new people, messages sent, stage moves), from GET /api/dashboard/.
import { Link } from '@tanstack/react-router';
import type { DashboardFunnel } from '../../../contract/funnels';
import { ROUTES } from '../../../contract/routes';
import { useTranslation } from 'react-i18next';
import { usePageHead } from '@/state/ui';
import { BackLink } from '@/ui/BackLink';
import { EmptyState, Stat, StatGrid } from '@/ui/blocks';
import { BotIcon } from '@/ui/icons';
import { Screen, ScreenHeader } from '@/ui/Screen';
import { StateBadge } from './parts';
import { useRefreshWhile } from './useApi';

function FunnelStats({ funnel }: { funnel: DashboardFunnel }) {
  const { t } = useTranslation();
  const most = Math.max(1, ...funnel.stages.map((s) => s.people_count));
  return (
    <article className="dash-funnel" aria-label={funnel.name} data-testid="dashboard-funnel">
      <Link to="/content/funnels/$funnelId/" params={{ funnelId: String(funnel.id) }} className="dash-funnel-head">
        <span className="dash-funnel-name">
          <strong>{funnel.name}</strong>
          <span>
            @{funnel.bot_username} · {t('funnels.list.people', { count: funnel.people_count })}
          </span>
        </span>
        <StateBadge funnel={funnel} />
      </Link>
      <div className="dash-today" aria-label={t('dashboard.today')}>
        <Stat label={t('dashboard.newPeople')} value={funnel.today.new_people} />
        <Stat label={t('dashboard.sentToday')} value={funnel.today.messages_sent} />
        <Stat label={t('dashboard.moves')} value={funnel.today.stage_moves} />
      </div>
      {funnel.stages.length === 0 ? (
        <p className="hint">{t('dashboard.noStages')}</p>
      ) : (
        <ol className="bars" aria-label={t('dashboard.perStage')}>
          {funnel.stages.map((stage) => (
            <li key={stage.id} data-testid="dashboard-stage">
              <div className="bar-label">
                <span>{stage.title}</span>
                <span>{stage.people_count}</span>
              </div>
              <div className="bar-track" role="presentation">
                {/* No sliver for an empty stage: the minimum width is for small non-zero counts. */}
                {stage.people_count > 0 ? (
                  <div className="bar-fill" style={{ width: `${(stage.people_count / most) * 100}%`, background: stage.color }} />
                ) : null}
              </div>
            </li>
          ))}
        </ol>
      )}
    </article>
  );
}

/** `funnels`: the dashboard's figures, loaded by the route (and again every 10 s while a bot runs). */
export function DashboardScreen({ funnels }: { funnels: DashboardFunnel[] }) {
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
      </StatGrid>
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
