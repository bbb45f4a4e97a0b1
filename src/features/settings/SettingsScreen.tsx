import { Link, useRouter } from '@tanstack/react-router';
import { useAtomValue } from 'jotai';
import { useId, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ROUTES } from '../../../contract/routes';
import { userAtom } from '@/state/auth';
import { usePageHead } from '@/state/ui';
import { BackLink } from '@/ui/BackLink';
import { GlobeIcon, LogoutIcon, UserIcon, WalletIcon } from '@/ui/icons';
import { RowContent, RowIcon, Section } from '@/ui/blocks';
import { Screen, ScreenHeader } from '@/ui/Screen';

function initials(first: string, last: string, fallback: string): string {
  const letters = `${first.trim().charAt(0)}${last.trim().charAt(0)}`.toUpperCase();
  return letters || fallback.charAt(0).toUpperCase() || '?';
}

/** `subscription`: the billing section, given by the route (a feature never imports another). */
export function SettingsScreen({ subscription }: { subscription?: ReactNode }) {
  const { t, i18n } = useTranslation();
  usePageHead(t('settings.title'), t('settings.description'));
  const router = useRouter();
  const user = useAtomValue(userAtom);
  const languageId = useId();

  const name = user ? `${user.first_name} ${user.last_name}`.trim() : '';
  const contact = user?.email || (user?.telegram_username ? t('settings.telegramUser', { username: user.telegram_username }) : '');
  const languageName = i18n.language === 'ru' ? t('language.ru') : t('language.en');

  async function signOut() {
    const { auth } = router.options.context;
    await auth.logout();
    await router.invalidate();
    await router.navigate({ to: ROUTES.signIn });
  }

  return (
    <Screen>
      <ScreenHeader title={t('settings.title')} back={<BackLink to={ROUTES.panel} label={t('common.back')} />} />
      {user ? (
        <Section title={t('settings.account')}>
          <div className="profile" data-testid="settings-user">
            {user.telegram_photo_url ? (
              <img className="avatar" src={user.telegram_photo_url} alt="" width={52} height={52} />
            ) : (
              <span className="avatar" aria-hidden="true">
                {initials(user.first_name, user.last_name, user.email ?? user.telegram_username ?? '')}
              </span>
            )}
            <span className="profile-body">
              <span className="profile-name">{name || contact}</span>
              {name && contact ? <span className="profile-contact">{contact}</span> : null}
            </span>
          </div>
          <Link to="/settings/account/" className="row" data-testid="account-link">
            <RowContent icon={<RowIcon tint="gray"><UserIcon /></RowIcon>} title={t('account.title')} description={t('account.settingsRow')} />
          </Link>
        </Section>
      ) : null}
      {subscription}
      <Section title={t('settings.app')}>
        <Link to={ROUTES.language} className="row" aria-labelledby={`${languageId}-title`} aria-describedby={`${languageId}-value`}>
          <RowContent
            icon={
              <RowIcon tint="blue">
                <GlobeIcon />
              </RowIcon>
            }
            title={t('settings.language')}
            titleId={`${languageId}-title`}
            value={<span id={`${languageId}-value`}>{languageName}</span>}
          />
        </Link>
      </Section>
      {user?.role === 'admin' ? (
        <Section title={t('settings.admin')}>
          <Link to="/settings/withdrawals/" className="row" data-testid="settings-withdrawals">
            <RowContent icon={<RowIcon tint="orange"><WalletIcon /></RowIcon>} title={t('settings.withdrawals')} description={t('settings.withdrawalsText')} />
          </Link>
        </Section>
      ) : null}
      <Section>
        <button type="button" className="row row--destructive" onClick={() => void signOut()}>
          <RowContent
            icon={
              <RowIcon tint="red">
                <LogoutIcon />
              </RowIcon>
            }
            title={t('settings.signOut')}
            chevron={false}
          />
        </button>
      </Section>
    </Screen>
  );
}
