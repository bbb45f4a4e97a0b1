// The first open from Telegram of an identity no account knows: "I already have an account"
// (e-mail and password; the Telegram identity then opens that account) or "Start here" (a new
// account for this Telegram identity).
import { useRouter } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ROUTES } from '../../../contract/routes';
import { i18n } from '@/i18n/i18n';
import { telegramNewAtom } from '@/state/auth';
import { appStore } from '@/state/store';
import { showTopInfo, usePageHead } from '@/state/ui';
import { currentInitData } from '@/telegram/launch';
import { Button, FormAlert, TextField } from '@/ui/form';
import { AuthLayout } from './AuthLayout';
import { rememberSignedIn } from './signedInBefore';
import { useAuth } from './useAuth';
import { useFormErrors } from './useFormErrors';
import { checkEmail, checkRequired, hasProblems, problems } from './validation';

const FIELDS = ['email', 'password'] as const;

async function api() {
  try {
    return await Promise.all([import('@/api/action'), import('@/api/users')]);
  } catch {
    showTopInfo({ type: 'error', text: i18n.t('errors.network') });
    return null;
  }
}

/** `redirectTo`: the page the guard sent the person from (already checked to be on this site). */
export function TelegramWelcomeScreen({ redirectTo }: { redirectTo?: string }) {
  const { t } = useTranslation();
  usePageHead(t('signIn.telegramWelcome.title'), t('signIn.description'));
  const auth = useAuth();
  const router = useRouter();
  const [choosing, setChoosing] = useState<'choice' | 'account'>('choice');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const { errors, showProblems, showFailure, clearField, clear } = useFormErrors();

  async function enter() {
    appStore.set(telegramNewAtom, false);
    rememberSignedIn();
    await router.invalidate();
    await router.navigate(redirectTo ? ({ href: redirectTo } as never) : { to: ROUTES.panel });
  }

  async function startHere() {
    const initData = currentInitData();
    if (!initData || busy) return;
    const calls = await api();
    if (!calls) return;
    const [{ runChange }, { startWithTelegram }] = calls;
    setBusy(true);
    try {
      const result = await runChange(() => startWithTelegram({ init_data: initData }));
      if (!result.ok) return showFailure(result.failure, []);
      if (await auth.loadUser()) await enter();
    } finally {
      setBusy(false);
    }
  }

  async function signInAndLink(event: FormEvent) {
    event.preventDefault();
    const initData = currentInitData();
    const found = problems({ email: checkEmail(email), password: checkRequired(password) });
    if (hasProblems(found)) return showProblems(found);
    if (!initData || busy) return;
    clear();
    const calls = await api();
    if (!calls) return;
    const [{ runRead, runChange }, { login, attachTelegram, logoutToken }] = calls;
    setBusy(true);
    try {
      const signedIn = await runRead(() => login({ email: email.trim(), password }));
      if (!signedIn.ok) return showFailure(signedIn.failure, FIELDS);
      const token = signedIn.value.auth_token;
      const attached = await runChange(() => attachTelegram(token, { init_data: initData }));
      if (!attached.ok) {
        // This account stays as it was; the session it just opened is not kept either.
        void logoutToken(token).catch(() => undefined);
        return showFailure(attached.failure, FIELDS);
      }
      if (await auth.signIn(token)) await enter();
    } finally {
      setBusy(false);
    }
  }

  if (choosing === 'choice') {
    return (
      <AuthLayout heading={t('signIn.telegramWelcome.heading')} subtitle={t('signIn.telegramWelcome.subtitle')} footer={<p>{t('signIn.telegramWelcome.startHereHint')}</p>}>
        <div className="form" data-testid="telegram-welcome">
          <FormAlert messages={errors.messages} />
          <Button
            onClick={() => {
              clear();
              setChoosing('account');
            }}
          >
            {t('signIn.telegramWelcome.haveAccount')}
          </Button>
          <Button variant="secondary" disabled={busy} onClick={() => void startHere()}>
            {t('signIn.telegramWelcome.startHere')}
          </Button>
        </div>
      </AuthLayout>
    );
  }

  return (
    <AuthLayout heading={t('signIn.telegramWelcome.linkHeading')} subtitle={t('signIn.telegramWelcome.linkSubtitle')}>
      <form className="form" onSubmit={signInAndLink} noValidate data-testid="telegram-welcome-account">
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
        <Button type="submit" disabled={busy}>
          {t('signIn.telegramWelcome.linkSubmit')}
        </Button>
        <button
          type="button"
          className="button button--secondary"
          onClick={() => {
            clear();
            setChoosing('choice');
          }}
        >
          {t('common.back')}
        </button>
      </form>
    </AuthLayout>
  );
}
