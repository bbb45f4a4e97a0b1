// Results per stage, on the funnel's screen and the dashboard: who reached each stage in the
// period, who is in it now, how many moved on from it (to any stage: with choice buttons and
// keywords "the next stage" is not where everyone goes), and where those went: per destination,
// by which button, keyword or next step (the funnel's screen only). The period is part of the
// address (?period=), so Back and a shared link keep it.
import { useTranslation } from 'react-i18next';
import { STATS_PERIODS, type StageMoveStats, type StatsPeriod } from '../../../contract/funnels';
import { SegmentedTabs } from '@/ui/SegmentedTabs';
import { StageBadge } from './StageIcon';

export interface StageFigures {
  id: number;
  title: string;
  color: string;
  icon: Parameters<typeof StageBadge>[0]['icon'];
  now: number;
  reached: number;
  /** People who left it for another stage in the period (contract StageStats). */
  moved_on: number;
  /** A payment stage's payments in the period (not refunded) and their Stars. */
  paid?: number;
  revenue?: number;
}

/** Today · 7 days · 30 days · All time; the route puts the choice in the address's ?period=. */
export function PeriodTabs({ period, onChange }: { period: StatsPeriod; onChange: (period: StatsPeriod) => void }) {
  const { t } = useTranslation();
  const options = STATS_PERIODS.map((value) => ({ value, label: t(`funnels.stats.periods.${value}`) }));
  return <SegmentedTabs label={t('funnels.stats.period')} options={options} value={period} onChange={onChange} />;
}

export function StageResults({ stages, moves = [], testId = 'stage-result' }: { stages: StageFigures[]; moves?: StageMoveStats[]; testId?: string }) {
  const { t } = useTranslation();
  const titleOf = (id: number | null) => stages.find((stage) => stage.id === id)?.title ?? t('funnels.stats.deletedStage');
  const how = (move: StageMoveStats) => t(`funnels.stats.via.${move.via}`, { label: move.label });
  return (
    <ol className="stage-results">
      {stages.map((stage, index) => (
        <li key={stage.id} className="stage-result" data-testid={testId}>
          <div className="stage-result-row">
            <StageBadge icon={stage.icon} color={stage.color} />
            <span className="stage-result-title">
              <span className="stage-result-name">
                {index + 1}. {stage.title}
              </span>
              <span className="stage-result-now">{t('funnels.stats.now', { count: stage.now })}</span>
            </span>
            <span className="stage-result-reached">
              <strong data-testid="stage-reached">{stage.reached}</strong>
              <span>{t('funnels.stats.reached', { count: stage.reached })}</span>
            </span>
          </div>
          <p className="stage-result-moved-on" data-testid="stage-moved-on">
            {t('funnels.stats.movedOn', { count: stage.moved_on })}
          </p>
          {stage.paid ? (
            <p className="stage-result-revenue" data-testid="stage-revenue">
              {t('funnels.payments.stageRevenue', { count: stage.paid, amount: stage.revenue ?? 0 })}
            </p>
          ) : null}
          {moves.some((move) => move.from_stage_id === stage.id) ? (
            <ul className="stage-result-moves" aria-label={t('funnels.stats.wentNext')} data-testid="stage-moves">
              {moves
                .filter((move) => move.from_stage_id === stage.id)
                .map((move) => (
                  <li key={`${move.to_stage_id}-${move.via}-${move.label}`} data-testid="stage-move">
                    → {titleOf(move.to_stage_id)}: <strong>{move.count}</strong> {how(move)}
                  </li>
                ))}
            </ul>
          ) : null}
        </li>
      ))}
    </ol>
  );
}
