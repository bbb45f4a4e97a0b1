// /content/funnels/: 'My funnels' — each funnel with its bot, state and people, run/stop, and
// the ways to add one and to the archive.
import { Link } from '@tanstack/react-router';
import type { FolderSummary } from '../../../contract/crm';
import type { Funnel } from '../../../contract/funnels';
import { ROUTES } from '../../../contract/routes';
import { useTranslation } from 'react-i18next';
import { usePageHead } from '@/state/ui';
import { BackLink } from '@/ui/BackLink';
import { EmptyState, RowContent, RowIcon, Section } from '@/ui/blocks';
import { BotIcon, ListIcon } from '@/ui/icons';
import { Screen, ScreenHeader } from '@/ui/Screen';
import { FunnelIcon } from '@/ui/brandIcon';
import { isRevoked, RunControls, StateBadge, unreachableSince, useMomentLabel } from './parts';
import { useRefreshWhile } from '@/api/useApi';
import { ArchiveIcon, PlusIcon } from '@/ui/glyphs';
import { useBotLabel } from '@/ui/botLabel';

export function FunnelCard({ funnel }: { funnel: Funnel }) {
  const { t } = useTranslation();
  const botLabel = useBotLabel();
  const moment = useMomentLabel();
  const unreachable = unreachableSince(funnel);
  return (
    <article className="funnel-card" data-testid="funnel-card" aria-label={funnel.name}>
      <Link to="/content/funnels/$funnelId/" params={{ funnelId: String(funnel.id) }} className="funnel-card-main">
        <span className={`funnel-avatar funnel-avatar--${funnel.state}`} aria-hidden="true">
          <BotIcon />
        </span>
        <span className="funnel-card-body">
          <span className="funnel-card-name">{funnel.name}</span>
          <span className="funnel-card-bot">{botLabel(funnel)}</span>
        </span>
        <StateBadge funnel={funnel} short />
      </Link>
      {unreachable ? (
        <p className="funnel-card-alert" data-testid="funnel-health">
          {t('funnels.health.unreachableSince', { time: moment(unreachable) })}
        </p>
      ) : null}
      <div className="funnel-card-footer">
        <span className="funnel-card-stats">
          <span data-testid="funnel-people">{t('funnels.list.people', { count: funnel.people_count })}</span>
          <span aria-hidden="true"> · </span>
          <span>{t('funnels.list.stages', { count: funnel.stage_count })}</span>
          {funnel.unread_count > 0 ? (
            <>
              <span aria-hidden="true"> · </span>
              <span className="unread-inline" data-testid="card-unread">
                {t('funnels.inbox.unread', { count: funnel.unread_count })}
              </span>
            </>
          ) : null}
        </span>
        {isRevoked(funnel) ? (
          // Running again would only be refused: the way forward is a new token from @BotFather.
          <Link
            to="/content/funnels/$funnelId/token/"
            params={{ funnelId: String(funnel.id) }}
            className="button button--primary button--small"
            data-testid="replace-token"
          >
            {t('funnels.token.title')}
          </Link>
        ) : (
          <RunControls funnel={funnel} compact />
        )}
      </div>
    </article>
  );
}

/**
 * `funnels`: the user's funnels (of `folder`, when one is chosen), loaded by the route (and again
 * every 10 s while a bot runs); `folders` offers the filter by CRM folder.
 */
export function FunnelsScreen({
  funnels,
  folders = [],
  folder,
  onFolder = () => {},
}: {
  funnels: Funnel[];
  folders?: FolderSummary[];
  folder?: number;
  onFolder?: (folder: number | undefined) => void;
}) {
  const { t } = useTranslation();
  usePageHead(t('funnels.list.title'), t('funnels.list.description'));
  useRefreshWhile(funnels.some((f) => f.state === 'running'), 10_000);

  return (
    <Screen>
      <ScreenHeader title={t('funnels.list.title')} subtitle={t('funnels.list.subtitle')} back={<BackLink to={ROUTES.panel} label={t('common.back')} />} />
      {folders.length > 0 ? (
        <div className="folder-chips" role="group" aria-label={t('crm.folders.filter')}>
          <button type="button" className={`filter-chip${folder === undefined ? ' filter-chip--on' : ''}`} aria-pressed={folder === undefined} onClick={() => onFolder(undefined)}>
            {t('crm.folders.allFunnels')}
          </button>
          {folders.map((f) => (
            <button
              key={f.id}
              type="button"
              className={`filter-chip${folder === f.id ? ' filter-chip--on' : ''}`}
              aria-pressed={folder === f.id}
              onClick={() => onFolder(f.id)}
              data-testid="funnels-folder"
            >
              {f.name}
            </button>
          ))}
        </div>
      ) : null}
      {funnels.length === 0 && folder !== undefined ? (
        <EmptyState icon={<FunnelIcon />} title={t('crm.folders.noFunnelsTitle')}>
          <p>{t('crm.folders.noFunnelsText')}</p>
          <Link to="/content/folders/$folderId/" params={{ folderId: String(folder) }} className="button button--secondary button--small">
            {t('crm.folders.openFolder')}
          </Link>
        </EmptyState>
      ) : funnels.length === 0 ? (
        <EmptyState icon={<FunnelIcon />} title={t('funnels.list.emptyTitle')}>
          <p>{t('funnels.list.emptyText')}</p>
        </EmptyState>
      ) : (
        <div className="funnel-cards">
          {funnels.map((funnel) => (
            <FunnelCard key={funnel.id} funnel={funnel} />
          ))}
        </div>
      )}
      <Link to="/content/funnels/new/" className="button button--primary">
        <PlusIcon />
        {t('funnels.list.add')}
      </Link>
      <Section>
        <Link to="/content/archive/" className="row">
          <RowContent icon={<RowIcon tint="gray"><ArchiveIcon /></RowIcon>} title={t('funnels.list.archive')} description={t('funnels.list.archiveText')} />
        </Link>
        <Link to={ROUTES.folders} className="row" data-testid="folders-link">
          <RowContent icon={<RowIcon tint="purple"><ListIcon /></RowIcon>} title={t('crm.folders.title')} description={t('crm.folders.subtitle')} />
        </Link>
      </Section>
    </Screen>
  );
}
