import { Link, useRouter } from '@tanstack/react-router';
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ROUTES } from '../../../contract/routes';
import { checkResetLink, confirmPasswordReset } from '@/api/users';
import { runChange, runRead } from '@/api/action';
import { showTopInfo, usePageHead } from '@/state/ui';
import { Button, FormAlert, TextField } from '@/ui/form';
import { LockIcon } from '@/ui/icons';
import { AuthLayout } from './AuthLayout';
import { useFormErrors } from './useFormErrors';
import { checkNewPassword, checkRepeat, hasProblems, problems } from './validation';

const FIELDS = ['new_password', 're_new_password'] as const;

export function ResetPassScreen({ uid, token }: { uid: string; token: string }) {
  const { t } = useTranslation();
  usePageHead(t('resetPass.title'));
  const router = useRouter();
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const [linkProblem, setLinkProblem] = useState(false);
  const { errors, showProblems, showFailure, clearField, clear } = useFormErrors();

  // An old, used or broken link says so before anything is typed into its form.
  useEffect(() => {
    let live = true;
    void (async () => {
      const result = await runRead(() => checkResetLink({ uid, token }));
      if (live && !result.ok && result.failure.kind === 'http' && result.failure.status === 400) setLinkProblem(true);
    })();
    return () => {
      live = false;
    };
  }, [uid, token]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const found = problems({ new_password: checkNewPassword(password), re_new_password: checkRepeat(password, repeat) });
    if (hasProblems(found)) return showProblems(found);
    clear();
    setLinkProblem(false);
    const result = await runChange(() => confirmPasswordReset({ uid, token, new_password: password, re_new_password: repeat }));
    if (!result.ok) {
      const { failure } = result;
      // A bad uid or token means the link itself is the problem, not what was typed.
      if (failure.kind === 'http' && (failure.fields.uid || failure.fields.token || failure.status === 403)) {
        setLinkProblem(true);
        return;
      }
      return showFailure(failure, FIELDS);
    }
    showTopInfo({ type: 'success', text: t('resetPass.success') });
    await router.navigate({ to: ROUTES.signIn });
  }

  return (
    <AuthLayout
      heading={t('resetPass.heading')}
      subtitle={t('resetPass.subtitle')}
      icon={<LockIcon />}
      footer={
        <p>
          <Link to={ROUTES.signIn} className="link">
            {t('resetPass.signIn')}
          </Link>
        </p>
      }
    >
      {linkProblem ? (
        <div className="form-alert" role="alert" data-testid="reset-link-problem">
          <p>{t('resetPass.linkProblem')}</p>
          <p>
            <Link to={ROUTES.lostPass} className="link">
              {t('resetPass.requestNew')}
            </Link>
          </p>
        </div>
      ) : null}
      {linkProblem ? null : (
      <form className="form" onSubmit={submit} noValidate>
        <FormAlert messages={errors.messages} />
        <TextField
          label={t('fields.newPassword')}
          type="password"
          name="new_password"
          autoComplete="new-password"
          value={password}
          errors={errors.fields.new_password}
          hint={t('fields.passwordHint', { count: 8 })}
          onChange={(e) => {
            setPassword(e.target.value);
            clearField('new_password');
          }}
        />
        <TextField
          label={t('fields.repeatNewPassword')}
          type="password"
          name="re_new_password"
          autoComplete="new-password"
          value={repeat}
          errors={errors.fields.re_new_password}
          onChange={(e) => {
            setRepeat(e.target.value);
            clearField('re_new_password');
          }}
        />
        <Button type="submit">{t('resetPass.submit')}</Button>
      </form>
      )}
    </AuthLayout>
  );
}
