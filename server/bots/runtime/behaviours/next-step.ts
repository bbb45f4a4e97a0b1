// The next-step button (callback data "next:<stage it was sent from>"): moves the person to the
// following stage and sends its message, once. The pressed message loses its next-step button;
// a press on an older message (the person is no longer in that stage) moves nobody.
import { Composer, type Context, GrammyError } from 'grammy';
import type { InlineKeyboardMarkup } from 'grammy/types';
import { NEXT_STEP_CALLBACK_PREFIX } from '../../../../contract/funnels';
import { isUnauthorized, untilDatabaseAnswers, type FunnelContext } from '../funnel-context';
import { withoutNextButton } from '../../../messages/render';
import { personValues } from '../replies';
import { takeSlot } from '../replies';
import { ALREADY_HANDLED } from '../store';

/** The toast on the last stage's next-step button, in the person's language. */
export const END_OF_FUNNEL_TEXT = { en: 'That’s all for now', ru: 'Пока это всё' } as const;

const NEXT_STEP_PATTERN = new RegExp(`^${NEXT_STEP_CALLBACK_PREFIX}(\\d+)$`);

/** The text of the pressed button, found by its callback data in the message's keyboard. */
export function pressedButtonText(markup: InlineKeyboardMarkup | undefined, data: string): string {
  for (const row of markup?.inline_keyboard ?? []) {
    for (const button of row) if ('callback_data' in button && button.callback_data === data) return button.text;
  }
  return data;
}

/** Cosmetic calls (answering the press, trimming the keyboard) never fail the update, except 401. */
export async function bestEffort(fc: FunnelContext, what: string, call: () => Promise<unknown>): Promise<void> {
  try {
    await call();
  } catch (error) {
    if (isUnauthorized(error)) throw error;
    fc.log.debug({ funnel_id: fc.funnelId }, `could not ${what}: ${error instanceof GrammyError ? error.description : String(error)}`);
  }
}

export function nextStepBehaviour(fc: FunnelContext): Composer<Context> {
  const behaviour = new Composer();
  behaviour.callbackQuery(NEXT_STEP_PATTERN, async (ctx) => {
    const fromStageId = Number(ctx.match[1]);
    const query = ctx.callbackQuery;
    const pressed = query.message;
    const stages = await fc.store.stages(fc.funnelId);
    const index = stages.findIndex((stage) => stage.id === fromStageId);
    const next = index === -1 ? undefined : stages[index + 1];
    if (!next) {
      if (!(await fc.store.claimUpdate(fc.funnelId, ctx.update.update_id))) return;
      const person = await untilDatabaseAnswers(fc, 'mark a person seen', () => fc.store.touchPerson(fc.funnelId, ctx.from.id));
      const language = ctx.from.language_code === 'ru' ? 'ru' : 'en';
      const atTheEnd = index !== -1 && person?.stageId === fromStageId;
      await bestEffort(fc, 'answer the press', () => ctx.answerCallbackQuery(atTheEnd ? { text: END_OF_FUNNEL_TEXT[language] } : {}));
      return;
    }
    const markup = pressed && 'reply_markup' in pressed ? pressed.reply_markup : undefined;
    const buttonText = pressedButtonText(markup, query.data);
    const slot = await takeSlot(fc);
    try {
      const moved = await fc.store.movePerson(fc.funnelId, ctx.update.update_id, ctx.from.id, fromStageId, next, buttonText);
      if (moved === ALREADY_HANDLED) return;
      if (moved === null) {
        await bestEffort(fc, 'answer the press', () => ctx.answerCallbackQuery());
        return;
      }
      await Promise.all([
        bestEffort(fc, 'answer the press', () => ctx.answerCallbackQuery()),
        pressed
          ? bestEffort(fc, 'remove the pressed next-step button', () => {
              const trimmed = withoutNextButton(markup);
              return ctx.api.editMessageReplyMarkup(pressed.chat.id, pressed.message_id, trimmed ? { reply_markup: trimmed } : {});
            })
          : undefined,
        moved.replyId === null
          ? undefined
          : fc.deliver({ personId: moved.id, chatId: ctx.from.id, person: personValues(ctx.from), reply: { id: moved.replyId, stageId: next.id }, slot }),
      ]);
    } finally {
      slot?.ticket.done(); // unused (nobody moved, or the claim failed): the window moves on
    }
  });
  return behaviour;
}
