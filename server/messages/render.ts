// A message as it goes to Telegram: HTML parse mode, URL buttons one per row, and the next-step
// button. Stages use it today; mailings and letters will too. Sending (uploads, retries, rate
// limits) is the caller's business.
import { InlineKeyboard } from 'grammy';
import type { InlineKeyboardMarkup } from 'grammy/types';
import { NEXT_STEP_CALLBACK_PREFIX, type MessageContentBody } from '../../contract/funnels';

/** How every text and caption is sent: stored texts are Telegram HTML. */
export const TEXT_OPTIONS = { parse_mode: 'HTML', link_preview_options: { is_disabled: false } } as const;

/** The callback data of a next-step button sent from `stageId`. */
export function nextStepData(stageId: number): string {
  return `${NEXT_STEP_CALLBACK_PREFIX}${stageId}`;
}

/** URL buttons one per row, then the next-step button (its callback data given by the caller). */
export function messageKeyboard(message: Pick<MessageContentBody, 'buttons' | 'next_button'>, nextStep: string): InlineKeyboardMarkup | undefined {
  const { buttons, next_button } = message;
  if (buttons.length === 0 && !next_button) return undefined;
  const keyboard = new InlineKeyboard();
  for (const button of buttons) keyboard.url(button.text, button.url).row();
  if (next_button) keyboard.text(next_button.text, nextStep);
  return keyboard;
}

/** The keyboard of a message without its next-step button (so it cannot be pressed twice). */
export function withoutNextButton(markup: InlineKeyboardMarkup | undefined): InlineKeyboardMarkup | undefined {
  if (!markup) return undefined;
  const rows = markup.inline_keyboard
    .map((row) => row.filter((button) => !('callback_data' in button && button.callback_data?.startsWith(NEXT_STEP_CALLBACK_PREFIX))))
    .filter((row) => row.length > 0);
  return rows.length ? { inline_keyboard: rows } : undefined;
}
