// /content/funnels/new/: connect a bot by its @BotFather token ('Connect'), or learn how to
// create one ('Create' opens @BotFather). The API checks the token with Telegram (getMe).
import { useNavigate } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { ROUTES } from '../../../contract/routes';
import { connectBot } from '@/api/funnels';
import { useTranslation } from 'react-i18next';
import { usePageHead } from '@/state/ui';
import { BackLink } from '@/ui/BackLink';
import { Section } from '@/ui/blocks';
import { Button, FormAlert, TextField } from '@/ui/form';
import { Screen, ScreenHeader } from '@/ui/Screen';
import { ExternalIcon } from '@/ui/glyphs';
import './funnels.css';
import { BOTFATHER_URL, openInTelegram } from './telegramLink';
import { runChange } from '@/api/action';
import { describeFailure, success, type TranslatedFailure } from '@/api/useApi';

const NO_ERRORS: TranslatedFailure = { fields: {}, messages: [] };

export function ConnectBotScreen() {
  const { t } = useTranslation();
  usePageHead(t('funnels.connect.title'), t('funnels.connect.description'));
  const navigate = useNavigate();
  const [token, setToken] = useState('');
  const [errors, setErrors] = useState<TranslatedFailure>(NO_ERRORS);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const value = token.trim();
    if (!value) return setErrors({ fields: { bot_token: [t('funnels.connect.tokenRequired')] }, messages: [] });
    setErrors(NO_ERRORS);
    const result = await runChange(() => connectBot(value));
    if (!result.ok) return setErrors(describeFailure(result.failure, ['bot_token']));
    success(t('funnels.connect.connected', { username: result.value.bot_username }));
    await navigate({ to: '/content/funnels/$funnelId/', params: { funnelId: String(result.value.id) }, replace: true });
  }

  return (
    <Screen>
      <ScreenHeader title={t('funnels.connect.title')} subtitle={t('funnels.connect.subtitle')} back={<BackLink to={ROUTES.funnels} label={t('common.back')} />} />
      <form className="form" onSubmit={(event) => void submit(event)} noValidate>
        <FormAlert messages={errors.messages} />
        <TextField
          label={t('funnels.connect.token')}
          name="bot_token"
          value={token}
          onChange={(event) => {
            setToken(event.target.value);
            if (errors.fields.bot_token) setErrors({ ...errors, fields: {} });
          }}
          placeholder="123456789:AAHk…"
          autoComplete="off"
          autoCapitalize="off"
          autoCorrect="off"
          spellCheck={false}
          inputMode="text"
          errors={errors.fields.bot_token}
          hint={t('funnels.connect.tokenHint')}
          className="field--mono"
        />
        <Button type="submit">{t('funnels.connect.connect')}</Button>
      </form>

      <Section title={t('funnels.connect.createTitle')} footer={t('funnels.connect.createFooter')}>
        <ol className="steps">
          <li>{t('funnels.connect.step1')}</li>
          <li>{t('funnels.connect.step2')}</li>
          <li>{t('funnels.connect.step3')}</li>
          <li>{t('funnels.connect.step4')}</li>
        </ol>
      </Section>
      <a
        className="button button--secondary"
        href={BOTFATHER_URL}
        target="_blank"
        rel="noopener noreferrer"
        onClick={(event) => {
          if (openInTelegram(BOTFATHER_URL)) event.preventDefault();
        }}
      >
        {t('funnels.connect.create')}
        <ExternalIcon />
      </a>
    </Screen>
  );
}
