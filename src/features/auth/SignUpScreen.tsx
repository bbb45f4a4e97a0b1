import { Link } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { NAME_MAX_LENGTH } from '../../../contract/constants';
import { ROUTES } from '../../../contract/routes';
import { register, resendActivation } from '@/api/users';
import { currentLanguage } from '@/i18n/i18n';
import { runChange } from '@/api/action';
import { showTopInfo, usePageHead } from '@/state/ui';
import { Button, FormAlert, TextField } from '@/ui/form';
import { AuthLayout } from './AuthLayout';
import { rememberReturn } from './redirect';
import { CheckEmail } from './CheckEmail';
import { useFormErrors } from './useFormErrors';
import { checkEmail, checkNewPassword, checkRepeat, checkRequired, hasProblems, problems } from './validation';

const FIELDS = ['first_name', 'last_name', 'email', 'password', 're_password'] as const;
type Field = (typeof FIELDS)[number];

/** `returnTo`: the page the visitor came for (a template's link), kept for their first sign-in. */
export function SignUpScreen({ returnTo }: { returnTo?: string }) {
  const { t } = useTranslation();
  usePageHead(t('signUp.title'), t('signUp.description'));
  const [values, setValues] = useState<Record<Field, string>>({ first_name: '', last_name: '', email: '', password: '', re_password: '' });
  const [sentTo, setSentTo] = useState<string | null>(null);
  const { errors, showProblems, showFailure, clearField, clear } = useFormErrors();

  const change = (field: Field) => (event: { target: { value: string } }) => {
    setValues((current) => ({ ...current, [field]: event.target.value }));
    clearField(field);
  };

  async function submit(event: FormEvent) {
    event.preventDefault();
    const found = problems({
      first_name: checkRequired(values.first_name),
      last_name: checkRequired(values.last_name),
      email: checkEmail(values.email),
      password: checkNewPassword(values.password),
      re_password: checkRepeat(values.password, values.re_password),
    });
    if (hasProblems(found)) return showProblems(found);
    clear();
    const email = values.email.trim();
    const result = await runChange(() =>
      register({
        email,
        password: values.password,
        re_password: values.re_password,
        first_name: values.first_name.trim(),
        last_name: values.last_name.trim(),
        // The account (and its e-mails, starting with the activation letter) speaks the UI's language.
        language: currentLanguage(),
      }),
    );
    if (!result.ok) return showFailure(result.failure, FIELDS);
    rememberReturn(returnTo);
    setSentTo(email);
  }

  async function resend() {
    if (!sentTo) return;
    const result = await runChange(() => resendActivation({ email: sentTo }));
    if (result.ok) showTopInfo({ type: 'success', text: t('checkEmail.resent') });
  }

  if (sentTo) return <CheckEmail email={sentTo} purpose="activation" onResend={resend} />;

  return (
    <AuthLayout
      heading={t('signUp.heading')}
      subtitle={t('signUp.subtitle')}
      footer={
        <p>
          {t('signUp.haveAccount')}{' '}
          <Link to={ROUTES.signIn} className="link">
            {t('signUp.signIn')}
          </Link>
        </p>
      }
    >
      <form className="form" onSubmit={submit} noValidate>
        <FormAlert messages={errors.messages} />
        <div className="field-row">
          <TextField label={t('fields.firstName')} name="first_name" autoComplete="given-name" maxLength={NAME_MAX_LENGTH} value={values.first_name} errors={errors.fields.first_name} onChange={change('first_name')} />
          <TextField label={t('fields.lastName')} name="last_name" autoComplete="family-name" maxLength={NAME_MAX_LENGTH} value={values.last_name} errors={errors.fields.last_name} onChange={change('last_name')} />
        </div>
        <TextField label={t('fields.email')} type="email" name="email" inputMode="email" autoComplete="email" value={values.email} errors={errors.fields.email} onChange={change('email')} />
        <TextField
          label={t('fields.password')}
          type="password"
          name="password"
          autoComplete="new-password"
          value={values.password}
          errors={errors.fields.password}
          hint={t('fields.passwordHint', { count: 8 })}
          onChange={change('password')}
        />
        <TextField label={t('fields.repeatPassword')} type="password" name="re_password" autoComplete="new-password" value={values.re_password} errors={errors.fields.re_password} onChange={change('re_password')} />
        <Button type="submit">{t('signUp.submit')}</Button>
      </form>
    </AuthLayout>
  );
}
