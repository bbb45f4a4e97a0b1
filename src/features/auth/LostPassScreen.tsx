import { Link } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ROUTES } from '../../../contract/routes';
import { requestPasswordReset } from '@/api/users';
import { runChange } from '@/api/action';
import { showTopInfo, usePageHead } from '@/state/ui';
import { Button, FormAlert, TextField } from '@/ui/form';
import { LockIcon } from '@/ui/icons';
import { AuthLayout } from './AuthLayout';
import { CheckEmail } from './CheckEmail';
import { useFormErrors } from './useFormErrors';
import { checkEmail, hasProblems, problems } from './validation';

const FIELDS = ['email'] as const;

export function LostPassScreen() {
  const { t } = useTranslation();
  usePageHead(t('lostPass.title'), t('lostPass.description'));
  const [email, setEmail] = useState('');
  const [sentTo, setSentTo] = useState<string | null>(null);
  const { errors, showProblems, showFailure, clearField, clear } = useFormErrors();

  async function submit(event: FormEvent) {
    event.preventDefault();
    const found = problems({ email: checkEmail(email) });
    if (hasProblems(found)) return showProblems(found);
    clear();
    const address = email.trim();
    const result = await runChange(() => requestPasswordReset({ email: address }));
    if (!result.ok) return showFailure(result.failure, FIELDS);
    setSentTo(address);
  }

  async function resend() {
    if (!sentTo) return;
    const result = await runChange(() => requestPasswordReset({ email: sentTo }));
    if (result.ok) showTopInfo({ type: 'success', text: t('checkEmail.resent') });
  }

  if (sentTo) return <CheckEmail email={sentTo} purpose="reset" onResend={resend} />;

  return (
    <AuthLayout
      heading={t('lostPass.heading')}
      subtitle={t('lostPass.subtitle')}
      icon={<LockIcon />}
      footer={
        <p>
          {t('lostPass.remembered')}{' '}
          <Link to={ROUTES.signIn} className="link">
            {t('lostPass.signIn')}
          </Link>
        </p>
      }
    >
      <form className="form" onSubmit={submit} noValidate>
        <FormAlert messages={errors.messages} />
        <TextField
          label={t('fields.email')}
          type="email"
          name="email"
          inputMode="email"
          autoComplete="email"
          value={email}
          errors={errors.fields.email}
          onChange={(e) => {
            setEmail(e.target.value);
            clearField('email');
          }}
        />
        <Button type="submit">{t('lostPass.submit')}</Button>
      </form>
    </AuthLayout>
  );
}
