import { Link, useRouter } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ROUTES } from '../../../contract/routes';
import { i18n } from '@/i18n/i18n';
import { initDataAtom } from '@/state/auth';
import { appStore } from '@/state/store';
import { showTopInfo, usePageHead } from '@/state/ui';
import { inTelegram, restoreInitData } from '@/telegram/launch';
import { Button, FormAlert, TextField } from '@/ui/form';
import { AuthLayout } from './AuthLayout';
import { takeRememberedReturn } from './redirect';
import { hasSignedInBefore, rememberSignedIn } from './signedInBefore';
import { useAuth } from './useAuth';
import { useFormErrors } from './useFormErrors';
import { checkEmail, checkRequired, hasProblems, problems } from './validation';

const FIELDS = ['email', 'password'] as const;

/**
 * The API calls (ky) and how they run: not part of this screen's first paint, preloaded after it.
 * When they cannot be fetched, the connection is down (as a failed call would say).
 */
async function api() {
  try {
    return await Promise.all([import('@/api/action'), import('@/api/users')]);
  } catch {
    showTopInfo({ type: 'error', text: i18n.t('errors.network') });
    return null;
  }
}

/** `redirectTo`: the page the guard sent the visitor from (already checked to be on this site). */
export function SignInScreen({ redirectTo }: { redirectTo?: string }) {
  const { t } = useTranslation();
  usePageHead(t('signIn.title'), t('signIn.description'));
  // "Welcome back" only to someone who has signed in on this device before.
  const [returning] = useState(hasSignedInBefore);
  const auth = useAuth();
  const router = useRouter();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const { errors, showProblems, showFailure, clearField, clear } = useFormErrors();
  /** The password was right but the account waits for activation: offer the letter again. */
  const [inactive, setInactive] = useState(false);

  async function resend() {
    const calls = await api();
    if (!calls) return;
    const [{ runChange }, { resendActivation }] = calls;
    const result = await runChange(() => resendActivation({ email: email.trim() }));
    if (result.ok) showTopInfo({ type: 'success', text: t('signIn.resent', { email: email.trim() }) });
  }

  /** Inside Telegram, after signing out: back in with the Telegram identity of this launch. */
  async function continueWithTelegram() {
    const initData = restoreInitData();
    if (!initData) return;
    appStore.set(initDataAtom, initData);
    if (!(await auth.loadUser())) {
      if (auth.telegramIsNew()) await router.navigate({ to: ROUTES.telegramWelcome, search: redirectTo ? { redirect: redirectTo } : {} });
      return;
    }
    rememberSignedIn();
    await router.invalidate();
    await router.navigate({ to: ROUTES.panel });
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    const found = problems({ email: checkEmail(email), password: checkRequired(password) });
    if (hasProblems(found)) return showProblems(found);
    clear();
    const calls = await api();
    if (!calls) return;
    const [{ runRead }, { login }] = calls;
    const result = await runRead(() => login({ email: email.trim(), password }));
    if (!result.ok) {
      setInactive(result.failure.kind === 'http' && result.failure.messages.some((m) => m.startsWith('This account is not activated')));
      return showFailure(result.failure, FIELDS);
    }
    const user = await auth.signIn(result.value.auth_token);
    if (!user) return;
    rememberSignedIn();
    await router.invalidate();
    // A built href of this site is navigated to inside the app (the router's types want `to`).
    // Or the page a visitor came for before signing up (kept across the activation e-mail).
    const remembered = takeRememberedReturn();
    const target = redirectTo ?? remembered;
    await router.navigate(target ? ({ href: target } as never) : { to: ROUTES.panel });
  }

  return (
    <AuthLayout
      heading={returning ? t('signIn.heading') : t('signIn.headingFirst')}
      subtitle={t('signIn.subtitle')}
      footer={
        <p>
          {t('signIn.noAccount')}{' '}
          <Link to={ROUTES.signUp} search={redirectTo ? { redirect: redirectTo } : {}} className="link">
            {t('signIn.signUp')}
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
          autoComplete="email"
          inputMode="email"
          value={email}
          errors={errors.fields.email}
          onChange={(e) => {
            setEmail(e.target.value);
            clearField('email');
          }}
        />
        <TextField
          label={t('fields.password')}
          type="password"
          name="password"
          autoComplete="current-password"
          value={password}
          errors={errors.fields.password}
          onChange={(e) => {
            setPassword(e.target.value);
            clearField('password');
          }}
        />
        <div className="form-aside">
          <Link to={ROUTES.lostPass} className="link">
            {t('signIn.forgot')}
          </Link>
        </div>
        <Button type="submit">{t('signIn.submit')}</Button>
        {inactive ? (
          <button type="button" className="button button--secondary" onClick={() => void resend()}>
            {t('signIn.resend')}
          </button>
        ) : null}
        {inTelegram() ? (
          <button type="button" className="button button--secondary" onClick={() => void continueWithTelegram()}>
            {t('signIn.continueTelegram')}
          </button>
        ) : null}
      </form>
    </AuthLayout>
  );
}
