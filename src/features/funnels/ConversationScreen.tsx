// /content/funnels/$funnelId/inbox/$personId/: one person's conversation with the bot, as a chat
// (what they wrote, what the bot and the owner sent), marked read on opening; the owner answers
// from here, through the funnel's bot. The answer is plain text: it is escaped for Telegram.
import { Link, useRouter } from '@tanstack/react-router';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { Funnel, HistoryEntry, PersonDetail, Stage } from '../../../contract/funnels';
import { escapeHtml } from '../../../contract/personalise';
import { visibleText } from '../../../contract/telegram-html';
import { runChange } from '@/api/action';
import { markRead, sendReply } from '@/api/funnels';
import { currentLanguage } from '@/i18n/i18n';
import { usePageHead } from '@/state/ui';
import { BackLink } from '@/ui/BackLink';
import { Button, FormAlert } from '@/ui/form';
import { Screen, ScreenHeader } from '@/ui/Screen';
import { personName } from './parts';
import { describeFailure, success, useRefreshWhile, type TranslatedFailure } from '@/api/useApi';

const NO_ERRORS: TranslatedFailure = { fields: {}, messages: [] };
const REPLY_MAX = 4096;

export function ConversationScreen({ funnel, person, stages }: { funnel: Funnel; person: PersonDetail; stages: Stage[] }) {
  const { t } = useTranslation();
  const name = personName(person);
  usePageHead(name);
  const ids = useId();
  const [text, setText] = useState('');
  const [sending, setSending] = useState(false);
  const [errors, setErrors] = useState<TranslatedFailure>(NO_ERRORS);
  const end = useRef<HTMLDivElement>(null);
  const time = new Intl.DateTimeFormat(currentLanguage(), { dateStyle: 'short', timeStyle: 'short' });
  const messages = [...person.history].reverse();
  useRefreshWhile(true, 5_000);

  // Opening the conversation reads it (and again when more arrives while it is open).
  const newest = person.history[0]?.id;
  useEffect(() => {
    void runChange(() => markRead(person.id));
  }, [person.id, newest]);
  useEffect(() => {
    end.current?.scrollIntoView({ block: 'end' });
  }, [newest]);
  // The router puts a newly opened page at its top once it has rendered, after the effect above:
  // open at the latest message again then (only on arriving here, not on the 5-second refresh, so
  // that reading older messages is not interrupted).
  const router = useRouter();
  useEffect(
    () =>
      router.subscribe('onRendered', (event) => {
        if (event.hrefChanged) end.current?.scrollIntoView({ block: 'end' });
      }),
    [router],
  );

  async function send(event: FormEvent) {
    event.preventDefault();
    const value = text.trim();
    if (!value) return setErrors({ fields: { text: [t('funnels.serverErrors.blank')] }, messages: [] });
    if (value.length > REPLY_MAX) return setErrors({ fields: { text: [t('funnels.serverErrors.tooLong', { count: REPLY_MAX })] }, messages: [] });
    setSending(true);
    const result = await runChange(() => sendReply(person.id, escapeHtml(value)));
    setSending(false);
    if (!result.ok) return setErrors(describeFailure(result.failure, ['text']));
    setErrors(NO_ERRORS);
    setText('');
    success(t('funnels.inbox.sent'));
  }

  const stageTitle = (id: number | null) => stages.find((s) => s.id === id)?.title ?? t('funnels.person.deletedStage');
  const label = (entry: HistoryEntry) =>
    entry.kind === 'stage_message' ? t('funnels.person.sent', { stage: stageTitle(entry.stage_id) }) : entry.kind === 'reply' ? t('funnels.inbox.you') : entry.kind === 'mailing' ? t('funnels.person.mailing') : entry.kind === 'letter' ? t('funnels.person.letter') : entry.kind === 'button' ? t('funnels.person.pressed') : null;

  return (
    <Screen>
      <ScreenHeader
        title={name}
        subtitle={person.username ? `@${person.username}` : funnel.name}
        back={<BackLink to="/content/funnels/$funnelId/inbox/" params={{ funnelId: String(funnel.id) }} label={t('funnels.inbox.title')} />}
      />
      <Link to="/content/people/$personId/" params={{ personId: String(person.id) }} className="link conversation-profile">
        {t('funnels.inbox.profile')}
      </Link>
      <div className="chat" data-testid="chat">
        {messages.map((entry) => (
          <div key={entry.id} className={`chat-bubble chat-bubble--${entry.direction}${entry.kind === 'reply' ? ' chat-bubble--reply' : ''}`} data-testid="chat-message">
            {label(entry) ? <span className="chat-label">{label(entry)}</span> : null}
            <span className="chat-text">{entry.direction === 'out' ? visibleText(entry.text) : entry.text || t('funnels.inbox.attachment')}</span>
            <time className="chat-time" dateTime={entry.created_at}>
              {time.format(new Date(entry.created_at))}
            </time>
          </div>
        ))}
        <div ref={end} />
      </div>
      {person.blocked ? <p className="field-hint chat-blocked">{t('funnels.inbox.blocked')}</p> : null}
      <form className="reply-form" onSubmit={(event) => void send(event)} noValidate>
        <FormAlert messages={errors.messages} />
        <div className={`field${errors.fields.text ? ' field--invalid' : ''}`}>
          <label className="visually-hidden" htmlFor={`${ids}-reply`}>
            {t('funnels.inbox.reply')}
          </label>
          <textarea
            id={`${ids}-reply`}
            className="field-input reply-text"
            rows={3}
            value={text}
            placeholder={t('funnels.inbox.replyPlaceholder')}
            aria-invalid={errors.fields.text ? true : undefined}
            aria-describedby={`${ids}-reply-error`}
            onChange={(event) => {
              setText(event.target.value);
              if (errors.fields.text) setErrors(NO_ERRORS);
            }}
          />
          {errors.fields.text ? (
            <p className="field-error" id={`${ids}-reply-error`}>
              {errors.fields.text.join(' ')}
            </p>
          ) : null}
        </div>
        <Button type="submit" disabled={sending}>
          {t('funnels.inbox.send')}
        </Button>
      </form>
    </Screen>
  );
}
