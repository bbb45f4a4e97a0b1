// /templates/$templateId/ for a visitor who is not signed in (the template's link, shared by an
// affiliate): the template's public card — cover, name, what it does — with "Sign up to add it"
// (sign-up returns here once the account is activated) and a smaller "sign in" for those who have one.
import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { ROUTES } from '../../../contract/routes';
import type { TemplateCard } from '../../../contract/templates';
import { usePageHead } from '@/state/ui';
import { Screen, ScreenHeader } from '@/ui/Screen';
import { TemplateCover } from './TemplatesScreen';
import './templates.css';

export function TemplateGuestCard({ card }: { card: TemplateCard }) {
  const { t } = useTranslation();
  usePageHead(card.name, card.description);
  const back = `/templates/${card.id}/`;
  const what = [t('templates.stages', { count: card.stage_count }), card.letter_count > 0 ? t('templates.guestLetters', { count: card.letter_count }) : null].filter(Boolean).join(' · ');

  return (
    <Screen>
      <ScreenHeader title={card.name} subtitle={what} />
      <TemplateCover template={card} large />
      {card.description ? <p className="section-footer template-description">{card.description}</p> : null}
      <p className="section-footer">{t('templates.guestText')}</p>
      <Link to={ROUTES.signUp} search={{ redirect: back }} className="button button--primary" data-testid="template-guest-sign-up">
        {t('templates.guestSignUp')}
      </Link>
      <Link to={ROUTES.signIn} search={{ redirect: back }} className="button button--plain" data-testid="template-guest-sign-in">
        {t('templates.guestSignIn')}
      </Link>
    </Screen>
  );
}
