// /content/funnels/$funnelId/token/: a new @BotFather token for the funnel's own bot, after the
// old one was revoked (or leaked). The server checks with getMe that it is the same bot; the
// funnel keeps its stages, people and history.
import { useNavigate } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { Funnel } from '../../../contract/funnels';
import { runChange } from '@/api/action';
import { replaceToken } from '@/api/funnels';
import { usePageHead } from '@/state/ui';
import { BackLink } from '@/ui/BackLink';
import { Button, FormAlert, TextField } from '@/ui/form';
import { ExternalIcon } from '@/ui/glyphs';
import { Screen, ScreenHeader } from '@/ui/Screen';
import './funnels.css';
import { BOTFATHER_URL, openInTelegram } from './telegramLink';
import { describeFailure, success, type TranslatedFailure } from '@/api/useApi';

const NO_ERRORS: TranslatedFailure = { fields: {}, messages: [] };

export function ReplaceTokenScreen({ funnel }: { funnel: Funnel }) {
  const { t } = useTranslation();
  // A funnel added from a template has no bot yet: the same call connects one.
  const connecting = funnel.bot_username === null;
  const title = connecting ? t('funnels.token.connectTitle') : t('funnels.token.title');
  usePageHead(title);
  const navigate = useNavigate();
  const [token, setToken] = useState('');
  const [errors, setErrors] = useState<TranslatedFailure>(NO_ERRORS);
  const funnelId = String(funnel.id);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const value = token.trim();
    if (!value) return setErrors({ fields: { bot_token: [t('funnels.connect.tokenRequired')] }, messages: [] });
    setErrors(NO_ERRORS);
    const result = await runChange(() => replaceToken(funnel.id, value));
    if (!result.ok) return setErrors(describeFailure(result.failure, ['bot_token']));
    success(connecting ? t('funnels.connect.connected', { username: result.value.bot_username }) : t('funnels.token.replaced'));
    await navigate({ to: '/content/funnels/$funnelId/', params: { funnelId }, replace: true });
  }

  return (
    <Screen>
      <ScreenHeader
        title={title}
        subtitle={connecting ? funnel.name : t('funnels.token.subtitle', { username: funnel.bot_username })}
        back={<BackLink to="/content/funnels/$funnelId/" params={{ funnelId }} label={funnel.name} />}
      />
      <form className="form" onSubmit={(event) => void submit(event)} noValidate>
        <FormAlert messages={errors.messages} />
        <TextField
          label={connecting ? t('funnels.token.connectLabel') : t('funnels.token.label')}
          name="bot_token"
          value={token}
          onChange={(event) => {
            setToken(event.target.value);
            if (errors.fields.bot_token) setErrors({ ...errors, fields: {} });
          }}
          placeholder={`${funnel.bot_id ?? '123456789'}:AAHk…`}
          autoComplete="off"
          autoCapitalize="off"
          autoCorrect="off"
          spellCheck={false}
          errors={errors.fields.bot_token}
          hint={connecting ? t('funnels.token.connectText') : t('funnels.token.text', { username: funnel.bot_username })}
          className="field--mono"
        />
        <Button type="submit">{connecting ? t('funnels.token.connectSubmit') : t('funnels.token.submit')}</Button>
      </form>
      <a
        className="button button--secondary"
        href={BOTFATHER_URL}
        target="_blank"
        rel="noopener noreferrer"
        onClick={(event) => {
          if (openInTelegram(BOTFATHER_URL)) event.preventDefault();
        }}
      >
        {t('funnels.token.openBotFather')}
        <ExternalIcon />
      </a>
    </Screen>
  );
}
