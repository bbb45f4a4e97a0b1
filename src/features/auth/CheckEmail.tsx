// "Check entered email": after sign-up (activation letter) and after a reset request.
import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { ROUTES } from '../../../contract/routes';
import { Button } from '@/ui/form';
import { MailIcon } from '@/ui/icons';
import { AuthLayout } from './AuthLayout';

// Stands in for the address while translating, so the sentence can be split around it and the
// address set in bold (no HTML in the locale files, no <Trans> parser in the bundle).
const MARK = '\u2063';

export function CheckEmail({ email, purpose, onResend }: { email: string; purpose: 'activation' | 'reset'; onResend: () => void }) {
  const { t } = useTranslation();
  const [before, after = ''] = t(purpose === 'activation' ? 'checkEmail.activation' : 'checkEmail.reset', { email: MARK }).split(MARK);
  return (
    <AuthLayout heading={t('checkEmail.title')} icon={<MailIcon />}>
      <div className="section notice-card">
        <p data-testid="check-email-text">
          {before}
          <strong>
            {/* Lets a long address wrap before the @ rather than mid-word. */}
            {email.split('@')[0]}
            <wbr />@{email.split('@').slice(1).join('@')}
          </strong>
          {after}
        </p>
        <p className="hint">{t('checkEmail.notReceived')}</p>
      </div>
      <div className="stack">
        <Link to={ROUTES.signIn} className="button button--primary">
          {t('checkEmail.backToSignIn')}
        </Link>
        <Button variant="plain" onClick={onResend}>
          {t('checkEmail.resend')}
        </Button>
      </div>
    </AuthLayout>
  );
}
