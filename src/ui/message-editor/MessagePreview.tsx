// A stage's message as the subscriber will see it in Telegram: a chat bubble with the picture
// or video on top, the formatted text (its {first_name|…} fields filled with a sample person, as
// a subscriber's own name would be), and the inline buttons under it.
import { Fragment, useEffect, useState, type ReactNode } from 'react';
import type { MessageMedia, UrlButton } from '../../../contract/funnels';
import { fetchMedia } from '@/api/funnels';
import { useTranslation } from 'react-i18next';
import { ExternalIcon } from '@/ui/glyphs';
import { parseTelegramHtml, type HtmlNode } from '../../../contract/telegram-html';
import { fillPlaceholders } from '../../../contract/personalise';
import './message-editor.css';

function renderNodes(nodes: HtmlNode[]): ReactNode {
  return nodes.map((node, index) => {
    if (typeof node === 'string') return <Fragment key={index}>{node}</Fragment>;
    const children = renderNodes(node.children);
    switch (node.tag) {
      case 'b':
      case 'strong':
        return <strong key={index}>{children}</strong>;
      case 'i':
      case 'em':
        return <em key={index}>{children}</em>;
      case 'u':
      case 'ins':
        return <u key={index}>{children}</u>;
      case 's':
      case 'strike':
      case 'del':
        return <s key={index}>{children}</s>;
      case 'a':
        // Not a live link in the preview: the author is editing, not visiting.
        return (
          <span key={index} className="bubble-link" title={node.href}>
            {children}
          </span>
        );
      case 'code':
        return <code key={index}>{children}</code>;
      case 'pre':
        return <pre key={index}>{children}</pre>;
      case 'blockquote':
        return <blockquote key={index}>{children}</blockquote>;
      case 'tg-spoiler':
      case 'span':
        return (
          <span key={index} className="bubble-spoiler">
            {children}
          </span>
        );
    }
  });
}

/** An object URL for a stored media file (fetched with the Authorization header). */
export function useMediaUrl(mediaId: number | null): string | null {
  const [url, setUrl] = useState<{ id: number; url: string } | null>(null);
  useEffect(() => {
    if (mediaId === null) return undefined;
    let objectUrl: string | null = null;
    let cancelled = false;
    fetchMedia(mediaId).then(
      (blob) => {
        if (cancelled) return;
        objectUrl = URL.createObjectURL(blob);
        setUrl({ id: mediaId, url: objectUrl });
      },
      () => {
        // The preview shows a placeholder instead.
      },
    );
    return () => {
      cancelled = true;
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [mediaId]);
  return url && url.id === mediaId ? url.url : null;
}

export interface PreviewMedia {
  kind: MessageMedia['kind'];
  /** A local object URL (just picked) or null to fetch the stored file by id. */
  src: string | null;
  id: number | null;
}

export function MessagePreview({
  text,
  media,
  buttons,
  nextButton,
  choices = [],
  botName,
}: {
  text: string;
  media: PreviewMedia | null;
  buttons: UrlButton[];
  nextButton: { text: string } | null;
  /** A stage's choice buttons, each under the URL buttons. */
  choices?: Array<{ text: string }>;
  botName: string;
}) {
  const { t } = useTranslation();
  // One sample person for every preview (editor, stage, template, mailing): Анна / Anna.
  const sample = { first_name: t('editor.sample.first_name'), last_name: t('editor.sample.last_name'), username: t('editor.sample.username'), person_id: t('editor.sample.person_id') };
  const stored = useMediaUrl(media && !media.src ? media.id : null);
  const src = media?.src ?? stored;
  const empty = !text.trim() && !media;
  const shownButtons = buttons.filter((b) => b.text.trim());
  const shownChoices = choices.filter((c) => c.text.trim());

  return (
    <div className="chat" data-testid="message-preview">
      <div className="bubble-wrap">
        <div className={`bubble${media ? ' bubble--media' : ''}`}>
          {media ? (
            <div className="bubble-media">
              {src ? (
                media.kind === 'video' ? (
                  <video src={src} muted playsInline controls preload="metadata" />
                ) : (
                  <img src={src} alt="" />
                )
              ) : (
                <div className="bubble-media-placeholder" aria-hidden="true" />
              )}
            </div>
          ) : null}
          <div className="bubble-body">
            <span className="bubble-author">{botName}</span>
            {empty ? <span className="bubble-empty">{t('funnels.message.previewEmpty')}</span> : <div className="bubble-text">{renderNodes(parseTelegramHtml(fillPlaceholders(text, sample)))}</div>}
            <span className="bubble-time" aria-hidden="true">
              12:00
            </span>
          </div>
        </div>
        {shownButtons.length > 0 || shownChoices.length > 0 || nextButton ? (
          <div className="bubble-buttons">
            {shownButtons.map((button, index) => (
              <span key={index} className="bubble-button" title={button.url}>
                {button.text}
                <ExternalIcon className="bubble-button-icon" />
              </span>
            ))}
            {shownChoices.map((choice, index) => (
              <span key={`choice-${index}`} className="bubble-button">
                {choice.text}
              </span>
            ))}
            {nextButton ? <span className="bubble-button">{nextButton.text.trim() || t('funnels.message.nextDefault')}</span> : null}
          </div>
        ) : null}
      </div>
    </div>
  );
}
