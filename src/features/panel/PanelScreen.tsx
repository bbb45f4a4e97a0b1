// /content/panel/: the signed-in home — a greeting and the product's entry points.
import { Link, type LinkComponentProps } from '@tanstack/react-router';
import { useAtomValue } from 'jotai';
import { useId, type ReactNode } from 'react';
import { useTranslation } from '../../i18n/useTranslation';
import { ROUTES } from '../../../contract/routes';
import { userAtom } from '../../state/auth';
import { usePageHead } from '../../state/ui';
import { FunnelIcon } from '../../ui/brandIcon';
import { ArrowUpRightIcon, ChartIcon, GearIcon, StarIcon, UsersIcon } from '../../ui/icons';
import { RowContent, RowIcon, Section, type Tint } from '../../ui/blocks';
import { Screen } from '../../ui/Screen';

function EntryRow({ to, icon, tint, title, text }: { to: LinkComponentProps['to']; icon: ReactNode; tint: Tint; title: string; text: string }) {
  const id = useId();
  return (
    <Link to={to} className="row" aria-labelledby={`${id}-title`} aria-describedby={`${id}-text`}>
      <RowContent icon={<RowIcon tint={tint}>{icon}</RowIcon>} title={title} titleId={`${id}-title`} description={text} descriptionId={`${id}-text`} />
    </Link>
  );
}

export function PanelScreen() {
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

      <Link to={ROUTES.dashboard} className="hero-card" aria-labelledby={`${heroId}-title`} aria-describedby={`${heroId}-text`}>
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

      <Section>
        <EntryRow to={ROUTES.dashboard} icon={<ChartIcon />} tint="green" title={t('panel.dashboard')} text={t('panel.dashboardText')} />
        <EntryRow to={ROUTES.partner} icon={<UsersIcon />} tint="purple" title={t('panel.partner')} text={t('panel.partnerText')} />
        <EntryRow to={ROUTES.subscribe} icon={<StarIcon />} tint="orange" title={t('panel.subscription')} text={t('panel.subscriptionText')} />
      </Section>
      <Section>
        <EntryRow to={ROUTES.settings} icon={<GearIcon />} tint="gray" title={t('panel.settings')} text={t('panel.settingsText')} />
      </Section>
    </Screen>
  );
}
