// A message as Telegram will take it: checked once here for every kind of message (stages today,
// mailings, letters and templates next), with the funnel services' coded errors.
import { CAPTION_MAX, MESSAGE_TEXT_MAX, type MessageContentBody } from '../../contract/funnels';
import { checkTelegramHtml } from '../../contract/telegram-html';
import { FUNNEL_ERRORS, type FunnelMessage } from '../funnels/errors';

/** Schemes a URL button may open. */
const BUTTON_URL = /^(https?:\/\/[^\s/$.?#][^\s]*|tg:\/\/[^\s]+)$/i;

/**
 * Checks a message against Telegram's rules (HTML, lengths, buttons) and that its media is the
 * caller's (`mediaExists`); returns the problems per field, or null when Telegram would take it.
 */
export async function messageProblems(
  body: MessageContentBody,
  mediaExists: (mediaId: number) => Promise<boolean>,
): Promise<Record<string, FunnelMessage[]> | null> {
  const problems: Record<string, FunnelMessage[]> = {};
  const add = (field: string, message: FunnelMessage) => {
    const list = (problems[field] ??= []);
    if (!list.some((m) => m.text === message.text)) list.push(message);
  };
  if (body.media_id !== null && !(await mediaExists(body.media_id))) add('media_id', FUNNEL_ERRORS.doesNotExist(body.media_id));
  const html = checkTelegramHtml(body.text);
  if (!html.ok) add('text', FUNNEL_ERRORS.badHtml(html.error));
  else {
    const max = body.media_id !== null ? CAPTION_MAX : MESSAGE_TEXT_MAX;
    if (html.visibleText.length > max) add('text', FUNNEL_ERRORS.tooLong(max));
    // Telegram refuses an empty message; media alone may go without a caption.
    if (body.media_id === null && html.visibleText.trim() === '') add('text', FUNNEL_ERRORS.blank);
  }
  for (const button of body.buttons) {
    if (button.text === undefined || button.url === undefined) add('buttons', FUNNEL_ERRORS.required);
    else {
      if (!button.text.trim()) add('buttons', FUNNEL_ERRORS.blank);
      if (!BUTTON_URL.test(button.url)) add('buttons', FUNNEL_ERRORS.badButtonUrl);
    }
  }
  if (body.next_button) {
    if (body.next_button.text === undefined) add('next_button', FUNNEL_ERRORS.required);
    else if (!body.next_button.text.trim()) add('next_button', FUNNEL_ERRORS.blank);
  }
  return Object.keys(problems).length > 0 ? problems : null;
}
