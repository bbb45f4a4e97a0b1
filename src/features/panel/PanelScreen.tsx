// /content/panel/: the signed-in home — a greeting and the product's entry points.
import { Await, Link, type LinkComponentProps } from '@tanstack/react-router';
import { useAtomValue } from 'jotai';
import { Suspense, useId, type ReactNode } from 'react';
import type { Funnel } from '../../../contract/funnels';
import { useTranslation } from 'react-i18next';
import { ROUTES } from '../../../contract/routes';
import { userAtom } from '@/state/auth';
import { usePageHead } from '@/state/ui';
import { FunnelIcon } from '@/ui/brandIcon';
import { ArrowUpRightIcon, BotIcon, ChartIcon, GearIcon, ListIcon, StarIcon, UsersIcon } from '@/ui/icons';
import { RowContent, RowIcon, Section, type Tint } from '@/ui/blocks';
import { Screen } from '@/ui/Screen';
import { useBotLabel } from '@/ui/botLabel';

const STATE_TINT: Record<Funnel['state'], Tint> = { draft: 'blue', running: 'green', stopped: 'orange' };

/**
 * The user's funnels, compactly: each leads to its funnel screen. The route's loader starts
 * fetching them without waiting (deferred data): the greeting paints at once, the list follows.
 */
function PanelFunnels({ funnels: pending }: { funnels: Promise<Funnel[] | null> }) {
  return (
    <Suspense fallback={null}>
      <Await promise={pending}>{(funnels) => (funnels ? <FunnelRows funnels={funnels} /> : null)}</Await>
    </Suspense>
  );
}

function FunnelRows({ funnels }: { funnels: Funnel[] }) {
  const { t } = useTranslation();
  const botLabel = useBotLabel();
  const shown = funnels.slice(0, 5);
  return (
    <Section title={t('panel.funnels')} footer={funnels.length === 0 ? t('panel.funnelsEmpty') : undefined}>
      {shown.map((funnel) => {
        const revoked = funnel.state === 'stopped' && funnel.stop_reason === 'token_revoked';
        // Running, but its bot has not reached Telegram for a while: not "Running" (funnels/parts.tsx says since when).
        const unreachable = funnel.state === 'running' && funnel.telegram_unreachable_since !== null;
        return (
          <Link key={funnel.id} to="/content/funnels/$funnelId/" params={{ funnelId: String(funnel.id) }} className="row" data-testid="panel-funnel">
            <RowContent
              icon={
                <RowIcon tint={revoked ? 'red' : unreachable ? 'orange' : STATE_TINT[funnel.state]}>
                  <BotIcon />
                </RowIcon>
              }
              title={funnel.name}
              description={`${botLabel(funnel)} · ${t('panel.people', { count: funnel.people_count })}`}
              value={revoked ? t('panel.state.revoked') : unreachable ? t('panel.state.unreachable') : t(`panel.state.${funnel.state}`)}
            />
          </Link>
        );
      })}
      {funnels.length === 0 ? (
        <EntryRow to={ROUTES.connectBot} icon={<PlusGlyph />} tint="blue" title={t('panel.addFunnel')} text={t('panel.funnelsText')} />
      ) : funnels.length > shown.length ? (
        <Link to={ROUTES.funnels} className="row">
          <RowContent title={t('panel.allFunnels')} value={String(funnels.length)} />
        </Link>
      ) : null}
    </Section>
  );
}

function PlusGlyph() {
  return (
    <svg viewBox="0 0 24 24" width="24" height="24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" aria-hidden="true" focusable="false">
      <path d="M12 5v14M5 12h14" />
    </svg>
  );
}

function EntryRow({ to, icon, tint, title, text }: { to: LinkComponentProps['to']; icon: ReactNode; tint: Tint; title: string; text: string }) {
  const id = useId();
  return (
    <Link to={to} className="row" aria-labelledby={`${id}-title`} aria-describedby={`${id}-text`}>
      <RowContent icon={<RowIcon tint={tint}>{icon}</RowIcon>} title={title} titleId={`${id}-title`} description={text} descriptionId={`${id}-text`} />
    </Link>
  );
}

/** `funnels`: the user's funnels as they arrive (null when they could not be loaded). */
export function PanelScreen({ funnels }: { funnels: Promise<Funnel[] | null> }) {
  const { t } = useTranslation();
  usePageHead(t('panel.title'), t('panel.description'));
  const user = useAtomValue(userAtom);
  const heroId = useId();
  const name = user?.first_name?.trim() || user?.telegram_username || '';

  return (
    <Screen>
      <header className="screen-header screen-header--home">
        <h1 className="screen-title" data-testid="panel-greeting">
          {name ? t('panel.greeting', { name }) : t('panel.greetingNoName')}
        </h1>
        <p className="screen-subtitle">{t('panel.subtitle')}</p>
      </header>

      <Link to={ROUTES.funnels} className="hero-card" aria-labelledby={`${heroId}-title`} aria-describedby={`${heroId}-text`}>
        <span className="hero-card-icon">
          <FunnelIcon />
        </span>
        <span className="hero-card-title" id={`${heroId}-title`}>
          {t('panel.funnels')}
        </span>
        <span className="hero-card-text" id={`${heroId}-text`}>
          {t('panel.funnelsText')}
        </span>
        <ArrowUpRightIcon className="hero-card-arrow" />
      </Link>

      <PanelFunnels funnels={funnels} />

      <Section>
        <EntryRow to={ROUTES.dashboard} icon={<ChartIcon />} tint="green" title={t('panel.dashboard')} text={t('panel.dashboardText')} />
        <EntryRow to={ROUTES.contacts} icon={<UsersIcon />} tint="teal" title={t('panel.contacts')} text={t('panel.contactsText')} />
        <EntryRow to={ROUTES.folders} icon={<ListIcon />} tint="purple" title={t('panel.folders')} text={t('panel.foldersText')} />
        <EntryRow to={ROUTES.templates} icon={<FunnelIcon />} tint="blue" title={t('panel.templates')} text={t('panel.templatesText')} />
        <EntryRow to={ROUTES.partner} icon={<UsersIcon />} tint="purple" title={t('panel.partner')} text={t('panel.partnerText')} />
        <EntryRow to={ROUTES.subscribe} icon={<StarIcon />} tint="orange" title={t('panel.subscription')} text={t('panel.subscriptionText')} />
      </Section>
      <Section>
        <EntryRow to={ROUTES.settings} icon={<GearIcon />} tint="gray" title={t('panel.settings')} text={t('panel.settingsText')} />
      </Section>
    </Screen>
  );
}
