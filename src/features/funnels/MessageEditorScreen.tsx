// /content/funnels/$funnelId/stages/$stageId/message/: the stage's message — Telegram HTML text
// with a small formatting toolbar and a live count of what Telegram will count, a picture or a
// video, URL buttons and the next-step button, with a preview as the subscriber will see it.
import { useNavigate } from '@tanstack/react-router';
import { useEffect, useId, useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import {
  BUTTON_TEXT_MAX,
  CAPTION_MAX,
  MEDIA_MAX_BYTES,
  MEDIA_TYPES,
  MESSAGE_TEXT_MAX,
  URL_BUTTONS_MAX,
  type Funnel,
  type MessageMedia,
  type Stage,
  type UrlButton,
} from '../../../contract/funnels';
import { getFunnel, getStage, saveMessage, uploadMedia } from '@/api/funnels';
import { useTranslation } from 'react-i18next';
import { usePageHead } from '@/state/ui';
import { Button, FormAlert } from '@/ui/form';
import { Screen, ScreenHeader } from '@/ui/Screen';
import { ImageIcon, PlusIcon, TrashIcon } from './glyphs';
import { MessagePreview } from './MessagePreview';
import { Loading } from './parts';
import { BackLink } from '@/ui/BackLink';
import { visibleLength } from '../../../contract/telegram-html';
import { linkOpenTag, wrapSelection } from '@/ui/message-editor/textEdit';
import { runApiAction } from '@/api/action';
import { describeFailure, success, useResource, type TranslatedFailure } from './useApi';

const NO_ERRORS: TranslatedFailure = { fields: {}, messages: [] };

export function MessageEditorScreen({ funnelId, stageId }: { funnelId: number; stageId: number }) {
  const { t } = useTranslation();
  usePageHead(t('funnels.message.title'));
  const stage = useResource(`stage-${stageId}`, () => getStage(stageId));
  const funnel = useResource(`funnel-${funnelId}`, () => getFunnel(funnelId));
  return (
    <Screen>
      <ScreenHeader
        title={t('funnels.message.title')}
        subtitle={stage.data?.title}
        back={<BackLink to="/content/funnels/$funnelId/stages/$stageId/" params={{ funnelId: String(funnelId), stageId: String(stageId) }} label={t('common.back')} />}
      />
      {stage.data ? (
        <MessageEditor key={stage.data.id} stage={stage.data} funnel={funnel.data} />
      ) : (
        <Loading failure={stage.failure} onRetry={() => void stage.reload()} />
      )}
    </Screen>
  );
}

interface LocalMedia {
  media: MessageMedia;
  /** Object URL of the file just picked, for the preview; null for the stored one. */
  src: string | null;
}

function MessageEditor({ stage, funnel }: { stage: Stage; funnel: Funnel | undefined }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const ids = useId();
  const textRef = useRef<HTMLTextAreaElement>(null);
  const fileRef = useRef<HTMLInputElement>(null);
  const [text, setText] = useState(stage.message.text);
  const [media, setMedia] = useState<LocalMedia | null>(stage.message.media ? { media: stage.message.media, src: null } : null);
  const [buttons, setButtons] = useState<UrlButton[]>(stage.message.buttons);
  const [nextOn, setNextOn] = useState(stage.message.next_button !== null);
  const [nextText, setNextText] = useState(stage.message.next_button?.text ?? t('funnels.message.nextDefault'));
  const [linkUrl, setLinkUrl] = useState<string | null>(null);
  const [selection, setSelection] = useState<[number, number]>([0, 0]);
  const [fileProblem, setFileProblem] = useState<{ title: string; text: string } | null>(null);
  const [errors, setErrors] = useState<TranslatedFailure>(NO_ERRORS);

  useEffect(() => () => {
    if (media?.src) URL.revokeObjectURL(media.src);
  }, [media]);

  const limit = media ? CAPTION_MAX : MESSAGE_TEXT_MAX;
  const length = visibleLength(text);
  const over = length > limit;

  function applyEdit(open: string, close: string, range: [number, number]) {
    const edit = wrapSelection(text, range[0], range[1], open, close);
    setText(edit.value);
    requestAnimationFrame(() => {
      const area = textRef.current;
      if (!area) return;
      area.focus();
      area.setSelectionRange(edit.selectionStart, edit.selectionEnd);
    });
  }

  function format(tag: 'b' | 'i' | 'u') {
    const area = textRef.current;
    applyEdit(`<${tag}>`, `</${tag}>`, area ? [area.selectionStart, area.selectionEnd] : [text.length, text.length]);
  }

  function startLink() {
    const area = textRef.current;
    setSelection(area ? [area.selectionStart, area.selectionEnd] : [text.length, text.length]);
    setLinkUrl('https://');
  }

  function insertLink(event: FormEvent) {
    event.preventDefault();
    const url = (linkUrl ?? '').trim();
    if (!/^(https?:\/\/|tg:\/\/)\S+$/i.test(url) || url === 'https://') return;
    setLinkUrl(null);
    applyEdit(linkOpenTag(url), '</a>', selection);
  }

  async function pickFile(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    setFileProblem(null);
    const kind = MEDIA_TYPES[file.type];
    if (!kind) return setFileProblem({ title: t('funnels.message.unsupportedTitle'), text: t('funnels.serverErrors.unsupportedFile') });
    if (file.size > MEDIA_MAX_BYTES[kind]) {
      return setFileProblem({ title: t('funnels.message.fileTooBig'), text: t('funnels.message.fileLimit', { count: MEDIA_MAX_BYTES[kind] / (1024 * 1024) }) });
    }
    const result = await runApiAction(() => uploadMedia(stage.funnel_id, file));
    if (!result.ok) {
      const { messages, fields } = describeFailure(result.failure);
      const text = [...messages, ...Object.values(fields).flat()].join(' ');
      if (text) setFileProblem({ title: result.failure.kind === 'http' && result.failure.status === 413 ? t('funnels.message.fileTooBig') : t('funnels.message.uploadFailed'), text });
      return;
    }
    setMedia({ media: result.value, src: URL.createObjectURL(file) });
  }

  async function save(event: FormEvent) {
    event.preventDefault();
    if (over) return setErrors({ fields: { text: [t('funnels.serverErrors.tooLong', { count: limit })] }, messages: [] });
    const body = {
      text,
      media_id: media?.media.id ?? null,
      buttons: buttons.map((b) => ({ text: b.text.trim(), url: b.url.trim() })),
      next_button: nextOn ? { text: nextText.trim() } : null,
    };
    setErrors(NO_ERRORS);
    const result = await runApiAction(() => saveMessage(stage.id, body));
    if (!result.ok) return setErrors(describeFailure(result.failure, ['text', 'media_id', 'buttons', 'next_button']));
    success(t('funnels.message.saved'));
    await navigate({ to: '/content/funnels/$funnelId/stages/$stageId/', params: { funnelId: String(stage.funnel_id), stageId: String(stage.id) } });
  }

  const setButton = (index: number, change: Partial<UrlButton>) => setButtons(buttons.map((b, i) => (i === index ? { ...b, ...change } : b)));

  return (
    <form className="form message-editor" onSubmit={(event) => void save(event)} noValidate>
      <FormAlert messages={errors.messages} />

      <div className={`field${errors.fields.text || over ? ' field--invalid' : ''}`}>
        <label className="field-label" htmlFor={`${ids}-text`}>
          {t('funnels.message.text')}
        </label>
        <div className="editor">
          <div className="editor-toolbar" role="toolbar" aria-label={t('funnels.message.formatting')}>
            <button type="button" className="editor-tool" onClick={() => format('b')} aria-label={t('funnels.message.bold')}>
              <b>B</b>
            </button>
            <button type="button" className="editor-tool" onClick={() => format('i')} aria-label={t('funnels.message.italic')}>
              <i>I</i>
            </button>
            <button type="button" className="editor-tool" onClick={() => format('u')} aria-label={t('funnels.message.underline')}>
              <u>U</u>
            </button>
            <button type="button" className="editor-tool editor-tool--wide" onClick={startLink} aria-label={t('funnels.message.link')}>
              {t('funnels.message.linkShort')}
            </button>
            <span className={`editor-count${over ? ' editor-count--over' : ''}`} data-testid="text-count" aria-live="polite">
              {length} / {limit}
            </span>
          </div>
          <textarea
            id={`${ids}-text`}
            ref={textRef}
            className="editor-text"
            value={text}
            rows={7}
            placeholder={t('funnels.message.textPlaceholder')}
            onChange={(event) => setText(event.target.value)}
            aria-invalid={Boolean(errors.fields.text || over) || undefined}
            aria-describedby={`${ids}-text-hint`}
          />
        </div>
        {linkUrl !== null ? (
          <div className="link-bar">
            <input
              className="field-input"
              type="url"
              inputMode="url"
              value={linkUrl}
              aria-label={t('funnels.message.linkUrl')}
              onChange={(event) => setLinkUrl(event.target.value)}
              onKeyDown={(event) => {
                if (event.key === 'Enter') insertLink(event);
              }}
              autoFocus
            />
            <Button className="button--small" onClick={insertLink}>
              {t('funnels.message.linkInsert')}
            </Button>
            <Button variant="plain" className="button--small" onClick={() => setLinkUrl(null)}>
              {t('funnels.common.cancel')}
            </Button>
          </div>
        ) : null}
        <p className={errors.fields.text || over ? 'field-error' : 'field-hint'} id={`${ids}-text-hint`}>
          {errors.fields.text?.join(' ') ?? (over ? t('funnels.serverErrors.tooLong', { count: limit }) : media ? t('funnels.message.captionHint') : t('funnels.message.textHint'))}
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
                <span className="row-title media-name">{media.media.filename}</span>
                <span className="row-description">
                  {media.media.kind === 'video' ? t('funnels.message.video') : t('funnels.message.photo')} · {formatSize(media.media.size)}
                </span>
              </span>
              <button type="button" className="icon-button icon-button--danger" aria-label={t('funnels.message.removeMedia')} onClick={() => setMedia(null)}>
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
        <input ref={fileRef} type="file" hidden accept={Object.keys(MEDIA_TYPES).join(',')} onChange={(event) => void pickFile(event)} data-testid="media-input" />
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
        {buttons.map((button, index) => (
          <div className="url-button" key={index}>
            <input
              className="field-input"
              value={button.text}
              maxLength={BUTTON_TEXT_MAX}
              placeholder={t('funnels.message.buttonText')}
              aria-label={t('funnels.message.buttonTextN', { n: index + 1 })}
              onChange={(event) => setButton(index, { text: event.target.value })}
            />
            <input
              className="field-input"
              type="url"
              inputMode="url"
              value={button.url}
              placeholder="https://"
              aria-label={t('funnels.message.buttonUrlN', { n: index + 1 })}
              onChange={(event) => setButton(index, { url: event.target.value })}
            />
            <button
              type="button"
              className="icon-button icon-button--danger"
              aria-label={t('funnels.message.removeButton', { n: index + 1 })}
              onClick={() => setButtons(buttons.filter((_, i) => i !== index))}
            >
              <TrashIcon />
            </button>
          </div>
        ))}
        {errors.fields.buttons ? <p className="field-error">{errors.fields.buttons.join(' ')}</p> : null}
        {buttons.length < URL_BUTTONS_MAX ? (
          <Button variant="secondary" className="button--small" onClick={() => setButtons([...buttons, { text: '', url: 'https://' }])}>
            <PlusIcon />
            {t('funnels.message.addButton')}
          </Button>
        ) : null}
      </section>

      <section className="section-block">
        <h2 className="section-title">{t('funnels.message.next')}</h2>
        <div className="section">
          <label className="row switch-row">
            <span className="row-body">
              <span className="row-title">{t('funnels.message.nextToggle')}</span>
              <span className="row-description">{t('funnels.message.nextHint')}</span>
            </span>
            <input type="checkbox" className="switch" role="switch" checked={nextOn} onChange={(event) => setNextOn(event.target.checked)} />
          </label>
          {nextOn ? (
            <div className="section-field">
              <input
                className="field-input"
                value={nextText}
                maxLength={BUTTON_TEXT_MAX}
                aria-label={t('funnels.message.nextText')}
                onChange={(event) => setNextText(event.target.value)}
              />
            </div>
          ) : null}
        </div>
        {errors.fields.next_button ? <p className="field-error">{errors.fields.next_button.join(' ')}</p> : null}
      </section>

      <section className="section-block">
        <h2 className="section-title">{t('funnels.message.preview')}</h2>
        <MessagePreview
          text={text}
          media={media ? { kind: media.media.kind, id: media.media.id, src: media.src } : null}
          buttons={buttons}
          nextButton={nextOn ? { text: nextText } : null}
          botName={funnel?.name ?? ''}
        />
      </section>

      <Button type="submit" disabled={over}>
        {t('funnels.common.save')}
      </Button>
    </form>
  );
}

function formatSize(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
  return `${Math.max(1, Math.round(bytes / 1024))} KB`;
}
