// A message as it goes to Telegram: HTML parse mode, URL buttons one per row, and the next-step
// button. Stages use it today; mailings and letters will too. Sending (uploads, retries, rate
// limits) is the caller's business.
import { InlineKeyboard } from 'grammy';
import type { InlineKeyboardMarkup } from 'grammy/types';
import { CHOICE_CALLBACK_PREFIX, NEXT_STEP_CALLBACK_PREFIX, type MessageContentBody } from '../../contract/funnels';

/** How every text and caption is sent: stored texts are Telegram HTML. */
export const TEXT_OPTIONS = { parse_mode: 'HTML', link_preview_options: { is_disabled: false } } as const;

/** The callback data of a next-step button sent from `stageId`. */
export function nextStepData(stageId: number): string {
  return `${NEXT_STEP_CALLBACK_PREFIX}${stageId}`;
}

/** The callback data of a choice button sent from `fromStageId`, leading to `toStageId`. */
export function choiceData(fromStageId: number, toStageId: number): string {
  return `${CHOICE_CALLBACK_PREFIX}${fromStageId}:${toStageId}`;
}

/**
 * URL buttons one per row, then the choice buttons one per row (when the message is a stage's,
 * `fromStageId`; a broken one, whose stage was deleted, is left out), then the next-step button
 * (its callback data given by the caller).
 */
export function messageKeyboard(
  message: Pick<MessageContentBody, 'buttons' | 'next_button' | 'choices'>,
  nextStep: string,
  fromStageId?: number,
): InlineKeyboardMarkup | undefined {
  const { buttons, next_button } = message;
  const choices = fromStageId === undefined ? [] : (message.choices ?? []).filter((c): c is { text: string; stage_id: number } => c.stage_id !== null);
  if (buttons.length === 0 && choices.length === 0 && !next_button) return undefined;
  const keyboard = new InlineKeyboard();
  for (const button of buttons) keyboard.url(button.text, button.url).row();
  // Each choice on a row of its own, with no empty row after the last.
  for (const [index, choice] of choices.entries()) {
    if (index > 0) keyboard.row();
    keyboard.text(choice.text, choiceData(fromStageId!, choice.stage_id));
  }
  if (next_button) {
    if (choices.length > 0) keyboard.row();
    keyboard.text(next_button.text, nextStep);
  }
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
