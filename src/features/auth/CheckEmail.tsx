// "Check entered email": after sign-up (activation letter) and after a reset request.
import { Link } from '@tanstack/react-router';
import { Trans, useTranslation } from 'react-i18next';
import { ROUTES } from '../../../contract/routes';
import { Button } from '@/ui/form';
import { MailIcon } from '@/ui/icons';
import { AuthLayout } from './AuthLayout';

/** The address in bold, free to wrap before the @ rather than mid-word. */
function EmailAddress({ email }: { email: string }) {
  const [local, ...domain] = email.split('@');
  return (
    <strong>
      {local}
      <wbr />@{domain.join('@')}
    </strong>
  );
}

export function CheckEmail({ email, purpose, onResend }: { email: string; purpose: 'activation' | 'reset'; onResend: () => void }) {
  const { t } = useTranslation();
  return (
    <AuthLayout heading={t('checkEmail.title')} icon={<MailIcon />}>
      <div className="section notice-card">
        <p data-testid="check-email-text">
          <Trans i18nKey={purpose === 'activation' ? 'checkEmail.activation' : 'checkEmail.reset'} components={{ email: <EmailAddress email={email} /> }} />
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
