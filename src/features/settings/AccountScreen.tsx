// /settings/account/: the account's name, its e-mail and password, and its Telegram identity.
// Inside the Mini App a Telegram-made account can instead open an existing e-mail account (sign in
// with it once: Telegram opens that account from then on), or get an e-mail and a password of its
// own. In a browser, the Telegram identity is linked from the Mini App (only it can prove one).
import { useRouter } from '@tanstack/react-router';
import { useAtomValue } from 'jotai';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { EMAIL_MAX_LENGTH, NAME_MAX_LENGTH, PASSWORD_MAX_LENGTH } from '../../../contract/constants';
import { ROUTES } from '../../../contract/routes';
import { runChange } from '@/api/action';
import { userAtom } from '@/state/auth';
import { showTopInfo, usePageHead } from '@/state/ui';
import { inTelegram } from '@/telegram/launch';
import { BackLink } from '@/ui/BackLink';
import { Section } from '@/ui/blocks';
import { Button, FormAlert, TextField } from '@/ui/form';
import { Screen, ScreenHeader } from '@/ui/Screen';
import { useSettingsErrors } from './formErrors';

const users = () => import('@/api/users');

/**
 * A change to the account: the user is read again before the change counts as done, so that the
 * one reload that follows (runChange) shows the account as it now is.
 */
function useAccountChange() {
  const router = useRouter();
  return <T,>(work: () => Promise<T>) =>
    runChange(async () => {
      const value = await work();
      await router.options.context.auth.loadUser();
      return value;
    });
}

export function AccountScreen() {
  const { t } = useTranslation();
  usePageHead(t('account.title'));
  const user = useAtomValue(userAtom);
  if (!user) return null;
  const telegramFirst = user.email === null;
  return (
    <Screen>
      <ScreenHeader title={t('account.title')} back={<BackLink to={ROUTES.settings} label={t('settings.title')} />} />
      <NameForm key={`${user.id}-name`} first={user.first_name} last={user.last_name} />
      {telegramFirst && inTelegram() ? <LinkEmailAccount /> : null}
      {telegramFirst ? <AddCredentials /> : <ChangePassword email={user.email ?? ''} />}
      <TelegramIdentity username={user.telegram_username} linked={user.telegram_id !== null} canUnlink={!telegramFirst} />
    </Screen>
  );
}

function NameForm({ first, last }: { first: string; last: string }) {
  const { t } = useTranslation();
  const changeAccount = useAccountChange();
  const [firstName, setFirstName] = useState(first);
  const [lastName, setLastName] = useState(last);
  const { errors, show, clear } = useSettingsErrors();

  async function save(event: FormEvent) {
    event.preventDefault();
    const result = await changeAccount(async () => (await users()).updateMe({ first_name: firstName.trim(), last_name: lastName.trim() }));
    if (!result.ok) return show(result.failure, ['first_name', 'last_name']);
    clear();
    showTopInfo({ type: 'success', text: t('account.nameSaved') });
  }

  return (
    <Section title={t('account.name')}>
      <form className="form section-form" onSubmit={(event) => void save(event)} noValidate>
        <FormAlert messages={errors.messages} />
        <TextField label={t('fields.firstName')} value={firstName} maxLength={NAME_MAX_LENGTH} autoComplete="given-name" onChange={(e) => setFirstName(e.target.value)} errors={errors.fields.first_name} />
        <TextField label={t('fields.lastName')} value={lastName} maxLength={NAME_MAX_LENGTH} autoComplete="family-name" onChange={(e) => setLastName(e.target.value)} errors={errors.fields.last_name} />
        <Button type="submit" className="button--small">
          {t('account.saveName')}
        </Button>
      </form>
    </Section>
  );
}

function ChangePassword({ email }: { email: string }) {
  const { t } = useTranslation();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [again, setAgain] = useState('');
  const { errors, setErrors, show, clear } = useSettingsErrors();

  async function save(event: FormEvent) {
    event.preventDefault();
    const missing: Record<string, string[]> = {};
    if (!current) missing.current_password = [t('validation.required')];
    if (!next) missing.new_password = [t('validation.required')];
    if (next && again !== next) missing.re_new_password = [t('validation.passwordsMismatch')];
    if (Object.keys(missing).length) return setErrors({ fields: missing, messages: [] });
    const result = await runChange(async () => (await users()).setPassword({ current_password: current, new_password: next, re_new_password: again }));
    if (!result.ok) return show(result.failure, ['current_password', 'new_password', 're_new_password']);
    clear();
    setCurrent('');
    setNext('');
    setAgain('');
    showTopInfo({ type: 'success', text: t('account.passwordChanged') });
  }

  return (
    <Section title={t('account.emailAndPassword')} footer={t('account.passwordFooter')}>
      <p className="section-form account-email" data-testid="account-email">
        {email}
      </p>
      <form className="form section-form" onSubmit={(event) => void save(event)} noValidate>
        <FormAlert messages={errors.messages} />
        <TextField label={t('account.currentPassword')} type="password" autoComplete="current-password" value={current} maxLength={PASSWORD_MAX_LENGTH} onChange={(e) => setCurrent(e.target.value)} errors={errors.fields.current_password} />
        <TextField label={t('account.newPassword')} type="password" autoComplete="new-password" value={next} maxLength={PASSWORD_MAX_LENGTH} onChange={(e) => setNext(e.target.value)} errors={errors.fields.new_password} />
        <TextField label={t('account.repeatPassword')} type="password" autoComplete="new-password" value={again} maxLength={PASSWORD_MAX_LENGTH} onChange={(e) => setAgain(e.target.value)} errors={errors.fields.re_new_password} />
        <Button type="submit" className="button--small">
          {t('account.changePassword')}
        </Button>
      </form>
    </Section>
  );
}

function AddCredentials() {
  const { t } = useTranslation();
  const changeAccount = useAccountChange();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [again, setAgain] = useState('');
  const { errors, setErrors, show, clear } = useSettingsErrors();

  async function save(event: FormEvent) {
    event.preventDefault();
    const missing: Record<string, string[]> = {};
    if (!email.trim()) missing.email = [t('validation.required')];
    if (!password) missing.password = [t('validation.required')];
    if (password && again !== password) missing.re_password = [t('validation.passwordsMismatch')];
    if (Object.keys(missing).length) return setErrors({ fields: missing, messages: [] });
    const result = await changeAccount(async () => (await users()).addCredentials({ email: email.trim(), password, re_password: again }));
    if (!result.ok) return show(result.failure, ['email', 'password', 're_password']);
    clear();
    showTopInfo({ type: 'success', text: t('account.credentialsAdded') });
  }

  return (
    <Section title={t('account.addEmailTitle')} footer={t('account.addEmailFooter')}>
      <form className="form section-form" onSubmit={(event) => void save(event)} noValidate data-testid="add-credentials">
        <FormAlert messages={errors.messages} />
        <TextField label={t('fields.email')} type="email" autoComplete="email" value={email} maxLength={EMAIL_MAX_LENGTH} onChange={(e) => setEmail(e.target.value)} errors={errors.fields.email} />
        <TextField label={t('fields.password')} type="password" autoComplete="new-password" value={password} maxLength={PASSWORD_MAX_LENGTH} onChange={(e) => setPassword(e.target.value)} errors={errors.fields.password} />
        <TextField label={t('account.repeatPassword')} type="password" autoComplete="new-password" value={again} maxLength={PASSWORD_MAX_LENGTH} onChange={(e) => setAgain(e.target.value)} errors={errors.fields.re_password} />
        <Button type="submit" className="button--small">
          {t('account.addEmail')}
        </Button>
      </form>
    </Section>
  );
}

/** Inside Telegram: "I have an account with e-mail": sign in with it once, and Telegram opens it from now on. */
function LinkEmailAccount() {
  const { t } = useTranslation();
  const router = useRouter();
  const changeAccount = useAccountChange();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const { errors, setErrors, show, clear } = useSettingsErrors();

  async function link(event: FormEvent) {
    event.preventDefault();
    const missing: Record<string, string[]> = {};
    if (!email.trim()) missing.email = [t('validation.required')];
    if (!password) missing.password = [t('validation.required')];
    if (Object.keys(missing).length) return setErrors({ fields: missing, messages: [] });
    const result = await changeAccount(async () => (await users()).linkTelegram({ email: email.trim(), password }));
    if (!result.ok) return show(result.failure, ['email', 'password']);
    clear();
    showTopInfo({ type: 'success', text: t('account.linked', { email: result.value.email ?? '' }) });
    await router.navigate({ to: ROUTES.funnels });
  }

  return (
    <Section title={t('account.haveEmailTitle')} footer={t('account.haveEmailFooter')}>
      <form className="form section-form" onSubmit={(event) => void link(event)} noValidate data-testid="link-email-account">
        <FormAlert messages={errors.messages} />
        <TextField label={t('fields.email')} type="email" autoComplete="email" value={email} maxLength={EMAIL_MAX_LENGTH} onChange={(e) => setEmail(e.target.value)} errors={errors.fields.email} />
        <TextField label={t('fields.password')} type="password" autoComplete="current-password" value={password} maxLength={PASSWORD_MAX_LENGTH} onChange={(e) => setPassword(e.target.value)} errors={errors.fields.password} />
        <Button type="submit" className="button--small">
          {t('account.signInAndLink')}
        </Button>
      </form>
    </Section>
  );
}

function TelegramIdentity({ username, linked, canUnlink }: { username: string | null; linked: boolean; canUnlink: boolean }) {
  const { t } = useTranslation();
  const changeAccount = useAccountChange();
  const { errors, show } = useSettingsErrors();

  async function unlink() {
    const result = await changeAccount(async () => (await users()).unlinkTelegram());
    if (!result.ok) return show(result.failure, []);
    showTopInfo({ type: 'success', text: t('account.unlinked') });
  }

  return (
    <Section title={t('account.telegram')} footer={linked ? t('account.telegramLinkedFooter') : t('account.telegramHowTo')}>
      <div className="row row--static" data-testid="account-telegram">
        <span className="row-body">
          <span className="row-title">{linked ? (username ? `@${username}` : t('account.telegramLinked')) : t('account.telegramNotLinked')}</span>
        </span>
        {linked && canUnlink && !inTelegram() ? (
          <button type="button" className="button button--plain button--small" onClick={() => void unlink()}>
            {t('account.unlink')}
          </button>
        ) : null}
      </div>
      <FormAlert messages={errors.messages} />
    </Section>
  );
}
