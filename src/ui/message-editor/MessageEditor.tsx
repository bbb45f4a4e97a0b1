// The message editor every kind of message uses (stages today; mailings, letters and templates
// next): Telegram HTML text with a small formatting toolbar and a live count of what Telegram will
// count, a picture or a video, URL buttons and the next-step button, and a preview as the
// subscriber will see it. Controlled: the value and its changes belong to the screen, which also
// saves and uploads (`onPickFile`); only the editing aids (the link box, the caret) live here.
import { useId, useRef } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import {
  BUTTON_TEXT_MAX,
  CAPTION_MAX,
  CHOICE_BUTTONS_MAX,
  MEDIA_TYPES,
  MESSAGE_TEXT_MAX,
  URL_BUTTONS_MAX,
  type ChoiceButton,
  type MessageMedia,
  type UrlButton,
} from '../../../contract/funnels';
import { visibleLength } from '../../../contract/telegram-html';
import { Button } from '@/ui/form';
import { ImageIcon, PlusIcon, TrashIcon } from '@/ui/glyphs';
import { MessagePreview } from './MessagePreview';
import RichText, { LINK_URL } from './RichText';
import './message-editor.css';

export interface MessageDraft {
  text: string;
  media: MessageMedia | null;
  /** Object URL of a file just picked, for the preview; null for stored media. */
  mediaSrc: string | null;
  buttons: UrlButton[];
  nextOn: boolean;
  nextText: string;
  /** A stage's choice buttons (absent for mailings and letters). */
  choices?: ChoiceButton[];
}

export interface MessageEditorErrors {
  text?: string[];
  buttons?: string[];
  next_button?: string[];
  choices?: string[];
}

/** A stage a choice button can lead to. */
export interface ChoiceStage {
  id: number;
  title: string;
}

/** The text limit of a draft (a caption is shorter) and whether the text is over it. */
export function draftLimit(draft: Pick<MessageDraft, 'text' | 'media'>): { limit: number; length: number; over: boolean } {
  const limit = draft.media ? CAPTION_MAX : MESSAGE_TEXT_MAX;
  const length = visibleLength(draft.text);
  return { limit, length, over: length > limit };
}

export interface ButtonErrors {
  text?: string;
  url?: string;
}

/**
 * What the form can tell before asking the server, in the author's words: each URL button's
 * empty text and bad address (both at once), an empty next-step button, an empty or too long text.
 */
export function draftProblems(
  draft: MessageDraft,
  t: (key: 'funnels.serverErrors.blank' | 'funnels.serverErrors.badButtonUrl' | 'funnels.serverErrors.tooLong', options?: { count: number }) => string,
): { any: boolean; fields: MessageEditorErrors; buttons: ButtonErrors[] } {
  const fields: MessageEditorErrors = {};
  const { limit, over } = draftLimit(draft);
  if (over) fields.text = [t('funnels.serverErrors.tooLong', { count: limit })];
  else if (!draft.media && visibleLength(draft.text.trim()) === 0) fields.text = [t('funnels.serverErrors.blank')];
  if (draft.nextOn && !draft.nextText.trim()) fields.next_button = [t('funnels.serverErrors.blank')];
  if (draft.choices?.some((choice) => !choice.text.trim())) fields.choices = [t('funnels.serverErrors.blank')];
  const buttons = draft.buttons.map((button) => {
    const problems: ButtonErrors = {};
    if (!button.text.trim()) problems.text = t('funnels.serverErrors.blank');
    if (!LINK_URL.test(button.url.trim())) problems.url = t('funnels.serverErrors.badButtonUrl');
    return problems;
  });
  const any = Object.keys(fields).length > 0 || buttons.some((b) => b.text || b.url);
  return { any, fields, buttons };
}

/** Whether two drafts would save the same message. */
export function sameDraft(a: MessageDraft, b: MessageDraft): boolean {
  return (
    a.text === b.text &&
    (a.media?.id ?? null) === (b.media?.id ?? null) &&
    a.nextOn === b.nextOn &&
    (!a.nextOn || a.nextText === b.nextText) &&
    a.buttons.length === b.buttons.length &&
    a.buttons.every((button, i) => button.text === b.buttons[i].text && button.url === b.buttons[i].url) &&
    JSON.stringify(a.choices ?? []) === JSON.stringify(b.choices ?? [])
  );
}

export function MessageEditor({
  value,
  onChange,
  errors,
  buttonErrors = [],
  onPickFile,
  fileProblem,
  botName,
  nextStep = true,
  choiceStages,
}: {
  value: MessageDraft;
  onChange: (next: MessageDraft) => void;
  errors: MessageEditorErrors;
  /** Per URL button, shown under it. */
  buttonErrors?: ButtonErrors[];
  onPickFile: (file: File) => Promise<void>;
  fileProblem: { title: string; text: string } | null;
  botName: string;
  /** Offer the next-step button (stages); mailings and letters have none. */
  nextStep?: boolean;
  /** Offer choice buttons leading to these stages (a stage's message only). */
  choiceStages?: ChoiceStage[];
}) {
  const { t } = useTranslation();
  const ids = useId();
  const fileRef = useRef<HTMLInputElement>(null);
  const { text, media, buttons, nextOn, nextText } = value;
  const { limit, length, over } = draftLimit(value);
  const change = (patch: Partial<MessageDraft>) => onChange({ ...value, ...patch });
  const setButton = (index: number, patch: Partial<UrlButton>) => change({ buttons: buttons.map((b, i) => (i === index ? { ...b, ...patch } : b)) });
  const choices = value.choices ?? [];
  const setChoice = (index: number, patch: Partial<ChoiceButton>) => change({ choices: choices.map((c, i) => (i === index ? { ...c, ...patch } : c)) });

  return (
    <>
      <div className={`field${errors.text || over ? ' field--invalid' : ''}`}>
        <label className="field-label" htmlFor={`${ids}-text`}>
          {t('funnels.message.text')}
        </label>
        <RichText
          id={`${ids}-text`}
          value={text}
          onChange={(html) => change({ text: html })}
          invalid={Boolean(errors.text || over)}
          describedBy={`${ids}-text-hint`}
          status={
            <span className={`editor-count${over ? ' editor-count--over' : ''}`} data-testid="text-count" aria-live="polite">
              {length} / {limit}
            </span>
          }
        />
        <p className={errors.text || over ? 'field-error' : 'field-hint'} id={`${ids}-text-hint`}>
          {errors.text?.join(' ') ?? (over ? t('funnels.serverErrors.tooLong', { count: limit }) : media ? t('funnels.message.captionHint') : <Trans i18nKey="funnels.message.textHint" components={{ token: <span className="hint-token" /> }} />)}
        </p>
      </div>

      <section className="section-block">
        <h2 className="section-title">{t('funnels.message.media')}</h2>
        <div className="section media-box">
          {media ? (
            <div className="media-row">
              <span className="row-icon row-icon--teal" aria-hidden="true">
                <ImageIcon />
              </span>
              <span className="row-body">
                <span className="row-title media-name">{media.filename}</span>
                <span className="row-description">
                  {media.kind === 'video' ? t('funnels.message.video') : t('funnels.message.photo')} · {formatSize(media.size)}
                </span>
              </span>
              <button type="button" className="icon-button icon-button--danger" aria-label={t('funnels.message.removeMedia')} onClick={() => change({ media: null })}>
                <TrashIcon />
              </button>
            </div>
          ) : (
            <button type="button" className="row" onClick={() => fileRef.current?.click()}>
              <span className="row-icon row-icon--teal" aria-hidden="true">
                <ImageIcon />
              </span>
              <span className="row-body">
                <span className="row-title link">{t('funnels.message.addMedia')}</span>
                <span className="row-description">{t('funnels.message.mediaLimits')}</span>
              </span>
            </button>
          )}
        </div>
        <input ref={fileRef} type="file" hidden accept={Object.keys(MEDIA_TYPES).join(',')} onChange={(event) => {
            const file = event.target.files?.[0];
            event.target.value = '';
            if (file) void onPickFile(file);
          }} data-testid="media-input" />
        {fileProblem ? (
          <div className="form-alert" role="alert">
            <p>
              <strong>{fileProblem.title}</strong>
            </p>
            <p>{fileProblem.text}</p>
          </div>
        ) : null}
      </section>

      <section className="section-block">
        <h2 className="section-title">{t('funnels.message.buttons')}</h2>
        {buttons.map((button, index) => {
          const problem = buttonErrors[index] ?? {};
          return (
            <div className="url-button-block" key={index}>
              <div className="url-button">
                <input
                  className="field-input"
                  value={button.text}
                  maxLength={BUTTON_TEXT_MAX}
                  placeholder={t('funnels.message.buttonText')}
                  aria-label={t('funnels.message.buttonTextN', { n: index + 1 })}
                  aria-invalid={problem.text ? true : undefined}
                  onChange={(event) => setButton(index, { text: event.target.value })}
                />
                <input
                  className="field-input"
                  type="url"
                  inputMode="url"
                  value={button.url}
                  placeholder="https://"
                  aria-label={t('funnels.message.buttonUrlN', { n: index + 1 })}
                  aria-invalid={problem.url ? true : undefined}
                  onChange={(event) => setButton(index, { url: event.target.value })}
                />
                <button
                  type="button"
                  className="icon-button icon-button--danger"
                  aria-label={t('funnels.message.removeButton', { n: index + 1 })}
                  onClick={() => change({ buttons: buttons.filter((_, i) => i !== index) })}
                >
                  <TrashIcon />
                </button>
              </div>
              {problem.text || problem.url ? (
                <p className="field-error" data-testid={`button-${index + 1}-error`}>
                  {[problem.text && `${t('funnels.message.buttonText')}: ${problem.text}`, problem.url && `${t('funnels.message.buttonUrl')}: ${problem.url}`].filter(Boolean).join(' ')}
                </p>
              ) : null}
            </div>
          );
        })}
        {errors.buttons ? <p className="field-error">{errors.buttons.join(' ')}</p> : null}
        {buttons.length < URL_BUTTONS_MAX ? (
          <Button variant="secondary" className="button--small" onClick={() => change({ buttons: [...buttons, { text: '', url: 'https://' }] })}>
            <PlusIcon />
            {t('funnels.message.addButton')}
          </Button>
        ) : null}
      </section>

      {choiceStages ? (
        <section className="section-block" data-testid="choice-buttons">
          <h2 className="section-title">{t('funnels.message.choices')}</h2>
          <p className="field-hint">{t('funnels.message.choicesHint')}</p>
          {choices.map((choice, index) => {
            const broken = choice.stage_id === null || !choiceStages.some((stage) => stage.id === choice.stage_id);
            return (
              <div className="url-button-block" key={index}>
                <div className="url-button url-button--choice">
                  <input
                    className="field-input"
                    value={choice.text}
                    maxLength={BUTTON_TEXT_MAX}
                    placeholder={t('funnels.message.buttonText')}
                    aria-label={t('funnels.message.choiceTextN', { n: index + 1 })}
                    onChange={(event) => setChoice(index, { text: event.target.value })}
                  />
                  <select
                    className="field-input field-select"
                    value={broken ? '' : String(choice.stage_id)}
                    aria-label={t('funnels.message.choiceStageN', { n: index + 1 })}
                    aria-invalid={broken ? true : undefined}
                    onChange={(event) => setChoice(index, { stage_id: event.target.value ? Number(event.target.value) : null })}
                  >
                    {broken ? <option value="">{t('funnels.message.choiceBroken')}</option> : null}
                    {choiceStages.map((stage) => (
                      <option key={stage.id} value={stage.id}>
                        {stage.title}
                      </option>
                    ))}
                  </select>
                  <button
                    type="button"
                    className="icon-button icon-button--danger"
                    aria-label={t('funnels.message.removeChoice', { n: index + 1 })}
                    onClick={() => change({ choices: choices.filter((_, i) => i !== index) })}
                  >
                    <TrashIcon />
                  </button>
                </div>
                {broken ? (
                  <p className="field-error" data-testid={`choice-${index + 1}-broken`}>
                    {t('funnels.message.choiceBroken')}
                  </p>
                ) : null}
              </div>
            );
          })}
          {errors.choices ? <p className="field-error">{errors.choices.join(' ')}</p> : null}
          {choices.length < CHOICE_BUTTONS_MAX && choiceStages.length > 0 ? (
            <Button variant="secondary" className="button--small" onClick={() => change({ choices: [...choices, { text: '', stage_id: choiceStages[0].id }] })}>
              <PlusIcon />
              {t('funnels.message.addChoice')}
            </Button>
          ) : null}
        </section>
      ) : null}

      {nextStep ? (
      <section className="section-block">
        <h2 className="section-title">{t('funnels.message.next')}</h2>
        <div className="section">
          <label className="row switch-row">
            <span className="row-body">
              <span className="row-title">{t('funnels.message.nextToggle')}</span>
              <span className="row-description">{t('funnels.message.nextHint')}</span>
            </span>
            <input type="checkbox" className="switch" role="switch" checked={nextOn} onChange={(event) => change({ nextOn: event.target.checked })} />
          </label>
          {nextOn ? (
            <div className="section-field">
              <input
                className="field-input"
                value={nextText}
                maxLength={BUTTON_TEXT_MAX}
                aria-label={t('funnels.message.nextText')}
                onChange={(event) => change({ nextText: event.target.value })}
              />
            </div>
          ) : null}
        </div>
        {errors.next_button ? <p className="field-error">{errors.next_button.join(' ')}</p> : null}
      </section>
      ) : null}

      <section className="section-block">
        <h2 className="section-title">{t('funnels.message.preview')}</h2>
        <MessagePreview
          text={text}
          media={media ? { kind: media.kind, id: media.id, src: value.mediaSrc } : null}
          buttons={buttons}
          nextButton={nextStep && nextOn ? { text: nextText } : null}
          choices={choiceStages ? choices : []}
          botName={botName}
        />
      </section>
    </>
  );
}

function formatSize(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
  return `${Math.max(1, Math.round(bytes / 1024))} KB`;
}
