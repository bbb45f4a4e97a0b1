// /content/funnels/$funnelId/: one funnel — its bot and state with run/stop, the stages in
// order (reordered by drag and drop until the bot has been run), and the funnel's other pages:
// tags, the bot's description, copying into another funnel, the archive.
import { Link, useNavigate } from '@tanstack/react-router';
import { useCallback, useState, type ReactNode } from 'react';
import type { Funnel, FunnelStats, Stage, StatsPeriod } from '../../../contract/funnels';
import { ROUTES } from '../../../contract/routes';
import { archiveFunnel, reorderStages } from '@/api/funnels';
import { useTranslation } from 'react-i18next';
import { usePageHead } from '@/state/ui';
import { BackLink } from '@/ui/BackLink';
import { EmptyState, RowContent, RowIcon, Section } from '@/ui/blocks';
import { LockIcon, UsersIcon } from '@/ui/icons';
import { Screen, ScreenHeader } from '@/ui/Screen';
import { ConfirmDialog } from '@/ui/Dialog';
import { ArchiveIcon, CopyIcon, ExternalIcon, MegaphoneIcon, PlusIcon, SendIcon, TagIcon, TextIcon } from '@/ui/glyphs';
import { isRevoked, RunControls, StateBadge, unreachableSince, useMomentLabel } from './parts';
import { BotSection } from './BotSection';
import { PeriodTabs, StageResults } from './StageResults';
import { StageList } from './StageList';
import { runChange } from '@/api/action';
import { noticeFailure, success, useRefresh, useRefreshWhile } from '@/api/useApi';
import { FunnelIcon } from '@/ui/brandIcon';

/** Its route loads the funnel and its stages together (routes/…/$funnelId/index.tsx). */
export function FunnelScreen({
  funnel: data,
  stages: stageList,
  stats,
  template,
  seriesNote,
  onPeriod,
}: {
  funnel: Funnel;
  stages: Stage[];
  stats: FunnelStats;
  /** The template section, for a funnel made from a template (the route composes the two features). */
  template?: ReactNode;
  /** Which series of letters are off and why (the route composes it from the letters feature). */
  seriesNote?: ReactNode;
  onPeriod: (period: StatsPeriod) => void;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const refresh = useRefresh();
  const moment = useMomentLabel();
  const funnelId = data.id;
  const [archiving, setArchiving] = useState(false);
  usePageHead(data.name);

  // People move through a running funnel on their own: keep the counts fresh.
  useRefreshWhile(data.state === 'running', 3_000);

  const saveOrder = useCallback(
    async (stageIds: number[]): Promise<boolean> => {
      const result = await runChange(() => reorderStages(funnelId, stageIds));
      if (!result.ok) {
        noticeFailure(result.failure);
        // The list goes back to the order the server has.
        void refresh();
      }
      return result.ok;
    },
    [funnelId, refresh],
  );

  async function archive() {
    setArchiving(false);
    const result = await runChange(() => archiveFunnel(funnelId));
    if (!result.ok) return noticeFailure(result.failure);
    success(t('funnels.archive.archived'));
    await navigate({ to: ROUTES.funnels });
  }

  const back = <BackLink to={ROUTES.funnels} label={t('funnels.list.title')} />;
  const revoked = isRevoked(data);
  const unreachable = unreachableSince(data);
  const id = String(funnelId);

  return (
    <Screen>
      <ScreenHeader title={data.name} subtitle={data.bot_username ? `@${data.bot_username}` : t('funnels.funnel.noBot')} back={back} />

      <section className="funnel-status" aria-label={t('funnels.funnel.statusLabel')}>
        <div className="funnel-status-top">
          <StateBadge funnel={data} />
          <span className="funnel-status-people" data-testid="funnel-people">
            {t('funnels.list.people', { count: data.people_count })}
          </span>
        </div>
        <p className="funnel-status-text" data-testid="funnel-status-text">
          {data.bot_username === null
            ? t('funnels.funnel.noBotText')
            : unreachable
              ? t('funnels.health.unreachableText', { time: moment(unreachable) })
              : t(`funnels.funnel.stateText.${revoked ? 'revoked' : data.state}`)}
        </p>
        {data.bot_username === null ? (
          <Link to="/content/funnels/$funnelId/token/" params={{ funnelId: String(funnelId) }} className="button button--primary button--small" data-testid="connect-bot">
            {t('funnels.funnel.connectBot')}
          </Link>
        ) : revoked ? (
          <Link to="/content/funnels/$funnelId/token/" params={{ funnelId: String(funnelId) }} className="button button--primary button--small" data-testid="replace-token">
            {t('funnels.token.title')}
          </Link>
        ) : data.archived ? null : (
          <RunControls funnel={data} />
        )}
      </section>

      <section className="section-block">
        <h2 className="section-title">{t('funnels.stages.title')}</h2>
        {stageList.length === 0 ? (
          <div className="section">
            <EmptyState icon={<FunnelIcon />} title={t('funnels.stages.emptyTitle')}>
              <p>{t('funnels.stages.emptyText')}</p>
            </EmptyState>
          </div>
        ) : (
          <div className="section">
            <StageList funnelId={funnelId} stages={stageList} locked={data.stage_order_locked} onReorder={saveOrder} />
          </div>
        )}
        {stageList.length > 1 ? (
          data.stage_order_locked ? (
            <p className="section-footer section-footer--with-icon" data-testid="order-locked">
              <LockIcon aria-hidden="true" />
              {t('funnels.stages.locked')}
            </p>
          ) : (
            <>
              <p className="section-footer">{t('funnels.stages.reorderHint')}</p>
              {data.was_run && data.people_count > 0 ? (
                <p className="section-footer section-footer--warning" data-testid="order-warning">
                  {t('funnels.stages.movedWarning')}
                </p>
              ) : null}
            </>
          )
        ) : null}
      </section>
      <Link to="/content/funnels/$funnelId/stages/new/" params={{ funnelId: id }} className="button button--primary">
        <PlusIcon />
        {t('funnels.stages.add')}
      </Link>
      {stageList.length > 0 ? (
        <Section>
          <Link to="/content/funnels/$funnelId/diagram/" params={{ funnelId: id }} className="row" data-testid="diagram-link">
            <RowContent icon={<RowIcon tint="purple"><FunnelIcon /></RowIcon>} title={t('funnels.diagram.open')} description={t('funnels.diagram.openText')} />
          </Link>
        </Section>
      ) : null}

      {stageList.length > 0 ? (
        <section className="section-block" aria-label={t('funnels.stats.title')}>
          <h2 className="section-title">{t('funnels.stats.title')}</h2>
          <PeriodTabs period={stats.period} onChange={onPeriod} />
          <div className="section">
            <StageResults stages={stageList.map((stage) => ({ ...stage, ...figuresOf(stats, stage.id) }))} moves={stats.moves} />
          </div>
          {stats.paid > 0 ? (
            <p className="section-footer" data-testid="funnel-revenue">
              {t('funnels.payments.revenue')}: {t('funnels.payments.revenueValue', { amount: stats.revenue, count: stats.paid })}
            </p>
          ) : null}
          <p className="section-footer" data-testid="new-people">
            {t('funnels.stats.newPeople', { count: stats.new_people })}. {t('funnels.stats.footer')}{' '}
            <Link to="/content/funnels/$funnelId/sources/" params={{ funnelId: id }} search={stats.period === 'all' ? {} : { period: stats.period }} data-testid="results-by-source">
              {t('funnels.sources.byLink')}
            </Link>
          </p>
        </section>
      ) : null}

      <Section>
        <Link to="/content/funnels/$funnelId/inbox/" params={{ funnelId: id }} className="row" data-testid="inbox-link">
          <RowContent
            icon={<RowIcon tint="blue"><SendIcon /></RowIcon>}
            title={t('funnels.inbox.title')}
            description={t('funnels.inbox.rowText')}
            value={data.unread_count > 0 ? <span className="unread-badge" data-testid="funnel-unread">{data.unread_count}</span> : undefined}
          />
        </Link>
        <Link to="/content/funnels/$funnelId/people/" params={{ funnelId: id }} className="row" data-testid="people-link">
          <RowContent icon={<RowIcon tint="green"><UsersIcon /></RowIcon>} title={t('funnels.people.title')} description={t('funnels.people.rowText')} value={String(data.people_count)} />
        </Link>
        <Link to="/content/funnels/$funnelId/sources/" params={{ funnelId: id }} className="row" data-testid="sources-link">
          <RowContent icon={<RowIcon tint="teal"><ExternalIcon /></RowIcon>} title={t('funnels.sources.title')} description={t('funnels.sources.rowText')} />
        </Link>
        <Link to="/content/funnels/$funnelId/mailings/" params={{ funnelId: id }} className="row" data-testid="mailings-link">
          <RowContent icon={<RowIcon tint="orange"><MegaphoneIcon /></RowIcon>} title={t('mailings.title')} description={t('mailings.rowText')} />
        </Link>
        <Link to="/content/funnels/$funnelId/series/" params={{ funnelId: id }} className="row" data-testid="series-link">
          <RowContent icon={<RowIcon tint="purple"><SendIcon /></RowIcon>} title={t('letters.title')} description={<>{t('letters.rowText')}{seriesNote}</>} />
        </Link>
      </Section>

      {template}

      {data.bot_username ? <BotSection funnel={data} username={data.bot_username} /> : null}

      <Section title={t('funnels.funnel.more')}>
        <Link to="/content/funnels/$funnelId/tags/" params={{ funnelId: id }} className="row">
          <RowContent icon={<RowIcon tint="purple"><TagIcon /></RowIcon>} title={t('funnels.tags.title')} description={t('funnels.funnel.tagsText')} />
        </Link>
        <Link to="/content/funnels/$funnelId/keywords/" params={{ funnelId: id }} className="row" data-testid="keywords-link">
          <RowContent icon={<RowIcon tint="blue"><TextIcon /></RowIcon>} title={t('funnels.keywords.title')} description={t('funnels.funnel.keywordsText')} />
        </Link>
        <Link to="/content/funnels/$funnelId/fields/" params={{ funnelId: id }} className="row" data-testid="fields-link">
          <RowContent icon={<RowIcon tint="green"><TextIcon /></RowIcon>} title={t('funnels.fieldList.title')} description={t('funnels.fieldList.rowText')} />
        </Link>
        <Link to="/content/funnels/$funnelId/webhooks/" params={{ funnelId: id }} className="row" data-testid="webhooks-link">
          <RowContent icon={<RowIcon tint="gray"><ExternalIcon /></RowIcon>} title={t('funnels.webhooks.title')} description={t('funnels.webhooks.rowText')} />
        </Link>
        <Link to="/content/funnels/$funnelId/description/" params={{ funnelId: id }} className="row">
          <RowContent icon={<RowIcon tint="teal"><TextIcon /></RowIcon>} title={t('funnels.description.title')} description={t('funnels.funnel.descriptionText')} />
        </Link>
        <Link to="/content/funnels/$funnelId/copy/" params={{ funnelId: id }} className="row">
          <RowContent icon={<RowIcon tint="orange"><CopyIcon /></RowIcon>} title={t('funnels.copy.title')} description={t('funnels.funnel.copyText')} />
        </Link>
      </Section>
      <Section footer={t('funnels.funnel.archiveFooter')}>
        <button type="button" className="row row--destructive" onClick={() => setArchiving(true)}>
          <RowContent icon={<RowIcon tint="red"><ArchiveIcon /></RowIcon>} title={t('funnels.funnel.archive')} chevron={false} />
        </button>
      </Section>
      {archiving ? (
        <ConfirmDialog
          title={t('funnels.funnel.archiveConfirmTitle')}
          confirmLabel={t('funnels.funnel.archive')}
          cancelLabel={t('funnels.common.cancel')}
          destructive
          onConfirm={() => void archive()}
          onCancel={() => setArchiving(false)}
        >
          <p>{t('funnels.funnel.archiveConfirmText', { username: data.bot_username ?? '—' })}</p>
        </ConfirmDialog>
      ) : null}
    </Screen>
  );
}

function figuresOf(stats: FunnelStats, stageId: number) {
  const found = stats.stages.find((s) => s.stage_id === stageId);
  return { now: found?.now ?? 0, reached: found?.reached ?? 0, moved_on: found?.moved_on ?? 0, paid: found?.paid ?? 0, revenue: found?.revenue ?? 0 };
}
