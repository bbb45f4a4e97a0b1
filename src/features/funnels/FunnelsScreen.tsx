// /content/funnels/: 'My funnels' — each funnel with its bot, state and people, run/stop, and
// the ways to add one and to the archive.
import { Link } from '@tanstack/react-router';
import type { Funnel } from '../../../contract/funnels';
import { ROUTES } from '../../../contract/routes';
import { useTranslation } from 'react-i18next';
import { usePageHead } from '@/state/ui';
import { BackLink } from '@/ui/BackLink';
import { EmptyState, RowContent, RowIcon, Section } from '@/ui/blocks';
import { BotIcon } from '@/ui/icons';
import { Screen, ScreenHeader } from '@/ui/Screen';
import { FunnelIcon } from '@/ui/brandIcon';
import { RunControls, StateBadge } from './parts';
import { useRefresh, useRefreshWhile } from '@/api/useApi';
import { ArchiveIcon, PlusIcon } from '@/ui/glyphs';
import { useBotLabel } from '@/ui/botLabel';

export function FunnelCard({ funnel, onChanged }: { funnel: Funnel; onChanged: (funnel?: Funnel) => void }) {
  const { t } = useTranslation();
  const botLabel = useBotLabel();
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
        <StateBadge funnel={funnel} />
      </Link>
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
        <RunControls funnel={funnel} onChanged={onChanged} compact />
      </div>
    </article>
  );
}

/** `funnels`: the user's funnels, loaded by the route (and again every 10 s while a bot runs). */
export function FunnelsScreen({ funnels }: { funnels: Funnel[] }) {
  const { t } = useTranslation();
  usePageHead(t('funnels.list.title'), t('funnels.list.description'));
  const refresh = useRefresh();
  useRefreshWhile(funnels.some((f) => f.state === 'running'), 10_000);

  return (
    <Screen>
      <ScreenHeader title={t('funnels.list.title')} subtitle={t('funnels.list.subtitle')} back={<BackLink to={ROUTES.panel} label={t('common.back')} />} />
      {funnels.length === 0 ? (
        <EmptyState icon={<FunnelIcon />} title={t('funnels.list.emptyTitle')}>
          <p>{t('funnels.list.emptyText')}</p>
        </EmptyState>
      ) : (
        <div className="funnel-cards">
          {funnels.map((funnel) => (
            <FunnelCard key={funnel.id} funnel={funnel} onChanged={() => void refresh()} />
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
      </Section>
    </Screen>
  );
}
