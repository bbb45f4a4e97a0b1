// A message as Telegram will take it: checked once here for every kind of message (stages today,
// mailings, letters and templates next), with coded messages (COMMON_ERRORS, MESSAGE_ERRORS).
import { CAPTION_MAX, MESSAGE_TEXT_MAX, type MessageContentBody } from '../../contract/funnels';
import { checkTelegramHtml } from '../../contract/telegram-html';
import { COMMON_ERRORS, type DomainMessage } from '../domain-error';
import { MESSAGE_ERRORS } from './errors';

/** Schemes a URL button may open. */
const BUTTON_URL = /^(https?:\/\/[^\s/$.?#][^\s]*|tg:\/\/[^\s]+)$/i;

/**
 * Checks a message against Telegram's rules (HTML, lengths, buttons) and that its media is the
 * caller's (`mediaExists`); returns the problems per field, or null when Telegram would take it.
 */
export async function messageProblems(
  body: MessageContentBody,
  mediaExists: (mediaId: number) => Promise<boolean>,
): Promise<Record<string, DomainMessage[]> | null> {
  const problems: Record<string, DomainMessage[]> = {};
  const add = (field: string, message: DomainMessage) => {
    const list = (problems[field] ??= []);
    if (!list.some((m) => m.text === message.text)) list.push(message);
  };
  if (body.media_id !== null && !(await mediaExists(body.media_id))) add('media_id', COMMON_ERRORS.doesNotExist(body.media_id));
  const html = checkTelegramHtml(body.text);
  if (!html.ok) add('text', MESSAGE_ERRORS.badHtml(html.error));
  else {
    const max = body.media_id !== null ? CAPTION_MAX : MESSAGE_TEXT_MAX;
    if (html.visibleText.length > max) add('text', COMMON_ERRORS.tooLong(max));
    // Telegram refuses an empty message; media alone may go without a caption.
    if (body.media_id === null && html.visibleText.trim() === '') add('text', COMMON_ERRORS.blank);
  }
  for (const button of body.buttons) {
    if (button.text === undefined || button.url === undefined) add('buttons', COMMON_ERRORS.required);
    else {
      if (!button.text.trim()) add('buttons', COMMON_ERRORS.blank);
      if (!BUTTON_URL.test(button.url)) add('buttons', MESSAGE_ERRORS.badButtonUrl);
    }
  }
  if (body.next_button) {
    if (body.next_button.text === undefined) add('next_button', COMMON_ERRORS.required);
    else if (!body.next_button.text.trim()) add('next_button', COMMON_ERRORS.blank);
  }
  return Object.keys(problems).length > 0 ? problems : null;
}
