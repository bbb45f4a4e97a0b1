// A choice button (callback data "go:<stage it was sent from>:<stage it leads to>"): moves the
// person to the stage the owner chose for it and sends that stage's message, once (the claim is
// in the move's own statement, as for the next-step button). A press on an older message (the
// person is no longer in that stage), or on a button whose stage was deleted since, moves nobody:
// the press is only answered.
import { Composer, type Context } from 'grammy';
import { CHOICE_CALLBACK_PREFIX } from '../../../../contract/funnels';
import { untilDatabaseAnswers, type FunnelContext } from '../funnel-context';
import { personValues, takeSlot } from '../replies';
import { ALREADY_HANDLED } from '../store';
import { bestEffort, pressedButtonText } from './next-step';

const CHOICE_PATTERN = new RegExp(`^${CHOICE_CALLBACK_PREFIX}(\\d{1,10}):(\\d{1,10})$`);

export function choiceBehaviour(fc: FunnelContext): Composer<Context> {
  const behaviour = new Composer();
  behaviour.callbackQuery(CHOICE_PATTERN, async (ctx) => {
    const fromStageId = Number(ctx.match[1]);
    const toStageId = Number(ctx.match[2]);
    const query = ctx.callbackQuery;
    const stages = await fc.store.stages(fc.funnelId);
    const to = stages.find((stage) => stage.id === toStageId);
    if (!to || !stages.some((stage) => stage.id === fromStageId)) {
      if (!(await fc.store.claimUpdate(fc.funnelId, ctx.update.update_id))) return;
      await untilDatabaseAnswers(fc, 'mark a person seen', () => fc.store.touchPerson(fc.funnelId, ctx.from.id));
      await bestEffort(fc, 'answer the press', () => ctx.answerCallbackQuery());
      return;
    }
    const pressed = query.message;
    const markup = pressed && 'reply_markup' in pressed ? pressed.reply_markup : undefined;
    const buttonText = pressedButtonText(markup, query.data);
    const slot = await takeSlot(fc);
    try {
      const moved = await fc.store.movePerson(fc.funnelId, ctx.update.update_id, ctx.from.id, fromStageId, to, buttonText, 'choice');
      if (moved === ALREADY_HANDLED) return;
      if (moved === null || moved.replyId === null) {
        await bestEffort(fc, 'answer the press', () => ctx.answerCallbackQuery());
        return;
      }
      await Promise.all([
        bestEffort(fc, 'answer the press', () => ctx.answerCallbackQuery()),
        fc.deliver({ personId: moved.id, chatId: ctx.from.id, person: personValues(ctx.from), reply: { id: moved.replyId, stageId: to.id }, slot }),
      ]);
    } finally {
      slot?.ticket.done(); // unused (nobody moved, or the claim failed): the window moves on
    }
  });
  return behaviour;
}
