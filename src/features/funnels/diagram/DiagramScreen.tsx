// /content/funnels/$funnelId/diagram/: the funnel drawn, read-only: its stages top to bottom in
// their order, under each the buttons that leave it, keywords on top (written anywhere), and an
// arrow from each to the stage it leads to. Tapping a stage opens it. Loaded on this screen only
// (its route's own chunk), with its own stylesheet.
import '@/features/funnels/funnels.css';
import { Link } from '@tanstack/react-router';
import type { CSSProperties } from 'react';
import { useTranslation } from 'react-i18next';
import type { Funnel, Keyword, Stage } from '../../../../contract/funnels';
import { useRefreshWhile } from '@/api/useApi';
import { usePageHead } from '@/state/ui';
import { BackLink } from '@/ui/BackLink';
import { EmptyState } from '@/ui/blocks';
import { Screen, ScreenHeader } from '@/ui/Screen';
import { FunnelIcon } from '@/ui/brandIcon';
import { StageBadge } from '@/features/funnels/StageIcon';
import { useEdgeWords } from './edgeWords';
import { EDGE_KINDS, edgesOf, type DiagramEdge, type EdgeKind } from './edges';
import { layoutDiagram, type DiagramLayout } from './layout';
import './diagram.css';

/** Each kind of edge in a colour of its own (arrows, their rows and the legend). */
const EDGE_COLORS: Record<EdgeKind, string> = {
  next: 'var(--color-link)',
  choice: 'var(--tint-purple)',
  keyword: 'var(--tint-orange)',
  answer: 'var(--tint-teal)',
  wait: 'var(--tint-gray)',
  payment: 'var(--tint-green)',
  refund: 'var(--tint-red)',
};
const ARROWHEAD = 7;

export function DiagramScreen({ funnel, stages, keywords }: { funnel: Funnel; stages: Stage[]; keywords: Keyword[] }) {
  const { t } = useTranslation();
  usePageHead(t('funnels.diagram.title'));
  // The people counts change while the bot runs.
  useRefreshWhile(funnel.state === 'running', 5_000);
  const edges = edgesOf(stages, keywords, useEdgeWords());
  const layout = layoutDiagram(
    stages.map((stage) => stage.id),
    edges,
  );
  const stageById = new Map(stages.map((stage) => [stage.id, stage]));
  const numberOf = new Map(stages.map((stage, index) => [stage.id, index + 1]));
  const back = <BackLink to="/content/funnels/$funnelId/" params={{ funnelId: String(funnel.id) }} label={funnel.name} />;

  return (
    <Screen>
      <ScreenHeader title={t('funnels.diagram.title')} subtitle={t('funnels.diagram.subtitle')} back={back} />
      {stages.length === 0 ? (
        <EmptyState icon={<FunnelIcon />} title={t('funnels.stages.emptyTitle')}>
          <p>{t('funnels.stages.emptyText')}</p>
        </EmptyState>
      ) : (
        <>
          <div className="diagram" style={{ height: layout.height }} data-testid="diagram">
            <Arrows layout={layout} />
            {layout.blocks.map((block) => {
              const stage = block.stageId === null ? undefined : stageById.get(block.stageId);
              return (
                <div key={block.stageId ?? 'anywhere'} className="diagram-block" style={{ top: block.top, left: layout.blocksLeft }}>
                  {stage ? (
                    <Link
                      to="/content/funnels/$funnelId/stages/$stageId/"
                      params={{ funnelId: String(funnel.id), stageId: String(stage.id) }}
                      className="diagram-stage"
                      style={{ height: block.headHeight }}
                      data-testid="diagram-stage"
                    >
                      <StageBadge icon={stage.icon} color={stage.color} />
                      <span className="diagram-stage-body">
                        <span className="diagram-stage-title" title={stage.title}>
                          {numberOf.get(stage.id)}. {stage.title}
                        </span>
                        <span className="diagram-stage-people" data-testid="diagram-stage-people">
                          {t('funnels.list.people', { count: stage.people_count })}
                        </span>
                      </span>
                    </Link>
                  ) : (
                    <p className="diagram-anywhere" style={{ height: block.headHeight }}>
                      {t('funnels.diagram.anywhere')}
                    </p>
                  )}
                  {block.rows.map((row, index) => (
                    <EdgeRow key={index} edge={row.edge} target={row.edge.to === null ? undefined : stageById.get(row.edge.to)} />
                  ))}
                </div>
              );
            })}
          </div>
          <ul className="diagram-legend" aria-label={t('funnels.diagram.legend')}>
            {EDGE_KINDS.map((kind) => (
              <li key={kind} style={{ '--edge-color': EDGE_COLORS[kind] } as CSSProperties}>
                <span className="diagram-dot" aria-hidden="true" />
                {t(`funnels.diagram.kinds.${kind}`)}
              </li>
            ))}
            <li className="diagram-legend-broken">
              <span className="diagram-dot" aria-hidden="true" />
              {t('funnels.diagram.brokenLegend')}
            </li>
          </ul>
        </>
      )}
    </Screen>
  );
}

/** One edge under the block it leaves: its kind's colour, its label, and where it leads (clipped, in full on hover). */
function EdgeRow({ edge, target }: { edge: DiagramEdge; target: Stage | undefined }) {
  const { t } = useTranslation();
  const where = target ? target.title : t('funnels.diagram.leadsNowhere');
  const whole = t('funnels.diagram.edgeTitle', { kind: t(`funnels.diagram.kinds.${edge.kind}`), label: edge.label, stage: where });
  return (
    <div
      className={`diagram-edge${edge.broken ? ' diagram-edge--broken' : ''}`}
      style={{ '--edge-color': EDGE_COLORS[edge.kind] } as CSSProperties}
      title={whole}
      aria-label={whole}
      data-testid="diagram-edge"
      data-kind={edge.kind}
      data-broken={edge.broken ? 'true' : undefined}
    >
      <span className="diagram-dot" aria-hidden="true" />
      <span className="diagram-edge-label">{t('funnels.diagram.quoted', { label: edge.label })}</span>
      <span className="diagram-edge-target" aria-hidden="true">
        → {where}
      </span>
    </div>
  );
}

/** The trunks, their branches and arrowheads, in the lanes left of the blocks. */
function Arrows({ layout }: { layout: DiagramLayout }) {
  const { blocksLeft: left } = layout;
  if (layout.trunks.length === 0) return null;
  return (
    <svg className="diagram-arrows" width={left} height={layout.height} aria-hidden="true">
      {layout.trunks.map((trunk) => {
        const x = layout.laneX(trunk.lane);
        const kinds = new Set(trunk.branches.map((branch) => branch.edge.kind));
        // One kind of edge: the whole arrow in its colour; a mix: a neutral trunk, each branch in its own.
        const trunkColor = kinds.size === 1 ? EDGE_COLORS[trunk.branches[0].edge.kind] : 'var(--color-hint)';
        return (
          <g key={trunk.to} style={{ '--edge-color': trunkColor } as CSSProperties} data-testid="diagram-arrow" data-to={trunk.to}>
            <path className="diagram-trunk" d={`M${x} ${trunk.top}V${trunk.bottom}M${x} ${trunk.toY}H${left - ARROWHEAD}`} />
            {trunk.branches.map((branch, index) => (
              <path key={index} className="diagram-branch" style={{ stroke: EDGE_COLORS[branch.edge.kind] }} d={`M${left} ${branch.fromY}H${x}`} />
            ))}
            <path className="diagram-arrowhead" d={`M${left - ARROWHEAD} ${trunk.toY - ARROWHEAD / 2 - 1}L${left} ${trunk.toY}L${left - ARROWHEAD} ${trunk.toY + ARROWHEAD / 2 + 1}Z`} />
          </g>
        );
      })}
    </svg>
  );
}
