// /cancel/: cancelling the subscription's renewal.
import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { ROUTES } from '../../../contract/routes';
import { usePageHead } from '@/state/ui';
import { StarIcon } from '@/ui/icons';
import { EmptyState, Section } from '@/ui/blocks';
import { BackLink } from '@/ui/BackLink';
import { Screen, ScreenHeader } from '@/ui/Screen';

export function CancelScreen() {
  const { t } = useTranslation();
  usePageHead(t('cancel.title'));
  return (
    <Screen>
      <ScreenHeader title={t('cancel.title')} subtitle={t('cancel.subtitle')} back={<BackLink to={ROUTES.subscribe} label={t('common.back')} />} />
      <Section>
        <EmptyState icon={<StarIcon />} title={t('cancel.emptyTitle')}>
          <p>{t('cancel.text')}</p>
        </EmptyState>
      </Section>
      <Link to={ROUTES.root} className="button button--plain">
        {t('cancel.backToPanel')}
      </Link>
    </Screen>
  );
}
