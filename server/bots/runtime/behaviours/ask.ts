// A stage's question (issue 24, "ask and remember"): while a person is in a stage that asks for a
// field, their next private message is the answer. One that fits the field (text; a number; an
// e-mail; a date, kept as YYYY-MM-DD; one of a choice's options, any case; their own phone number
// shared through the contact-request button) is kept in person_fields and moves them to the next
// stage by position (via 'answer': history, stage_moves, reach, tag and the stage's reply in the
// update's own claim, as movePerson does for a press), or, with no stage after it, is kept where
// they are. One that does not fit gets the stage's re-ask text through the outbox, and they stay.
//
// Keywords: an answer wins. A person asked for their city who writes "Price list, please" is
// still answering, and losing their answer to a keyword would surprise the owner; but what does
// not fit the question (an e-mail field given "price") goes on to the keywords, then the inbox,
// rather than being asked again: the person clearly said something else.
import { Composer, type Context } from 'grammy';
import type { Message } from 'grammy/types';
import { answerValue } from '../../../../contract/fields';
import type { FunnelContext } from '../funnel-context';
import { personValues, takeSlot } from '../replies';
import { ALREADY_HANDLED, type KeptAnswer, type RuntimeAsk, type RuntimeStage } from '../store';
import { recordWritten } from './history';
import { matchKeyword } from './keyword';

/** The value an incoming message gives the question, or null when it does not fit. */
export function answerOf(ask: RuntimeAsk, msg: Message, senderId: number): string | null {
  if (ask.kind === 'phone') {
    // Only their own number, shared by the button (a forwarded contact card is someone else's).
    const contact = msg.contact;
    if (!contact || contact.user_id !== senderId) return null;
    const digits = contact.phone_number.replace(/[^0-9]/g, '');
    return digits ? `+${digits}` : null;
  }
  if (msg.text === undefined) return null;
  return answerValue(ask.kind, ask.options, msg.text);
}

/** A question whose answer comes through a reply keyboard (which the next message takes away). */
export const asksWithKeyboard = (ask: RuntimeAsk | null) => ask !== null && (ask.kind === 'phone' || ask.kind === 'choice');

export function askBehaviour(fc: FunnelContext): Composer<Context> {
  const behaviour = new Composer();
  behaviour.chatType('private').on(['message:text', 'message:contact'], async (ctx, next) => {
    const msg = ctx.msg;
    if (msg.text?.startsWith('/')) return next();
    const stages = await fc.store.stages(fc.funnelId);
    const asked = stages.flatMap((stage, index) => (stage.ask === null ? [] : [{ index, value: answerOf(stage.ask, msg, ctx.from.id) }]));
    // Most funnels ask nothing: no read of the person for them.
    if (asked.length === 0) return next();
    const keyword = msg.text === undefined ? undefined : matchKeyword(await fc.store.keywords(fc.funnelId), msg.text);
    // What does not answer any of the funnel's questions but holds a keyword moves the person by
    // the keyword wherever they are: no read of where they are.
    if (keyword && asked.every(({ value }) => value === null)) return next();
    // The funnel's one question, answered, no keyword: the answer's move is claimed at once, and
    // its own condition (they are in that stage) says whether it was an answer; if not, it is what
    // they wrote, kept as any text is. One round trip, not a read of where they are first.
    const only = asked.length === 1 && asked[0].value !== null && !keyword && stages[asked[0].index + 1] ? asked[0] : undefined;
    const at = only ? only.index : await fc.store.stageOf(fc.funnelId, ctx.from.id).then((stageId) => stages.findIndex((stage) => stage.id === stageId));
    const stage = at === -1 ? undefined : stages[at];
    if (!stage || stage.ask === null) return next();
    const asking = stage as RuntimeStage & { ask: RuntimeAsk };
    const value = only ? only.value : answerOf(asking.ask, msg, ctx.from.id);
    const text = msg.text ?? (value ?? msg.contact?.phone_number ?? '');
    if (value === null && keyword) return next();
    const answer: KeptAnswer | null = value === null ? null : { fieldId: asking.ask.fieldId, value };
    const following = stages[at + 1];
    const person = personValues(ctx.from);
    const slot = await takeSlot(fc);
    try {
      if (answer && following) {
        const moved = await fc.store.movePerson(fc.funnelId, ctx.update.update_id, ctx.from.id, stage.id, following, text, 'answer', text, answer);
        if (moved === ALREADY_HANDLED) return;
        // Claimed, nobody moved: not in the question's stage after all (the guess above), so it is what they wrote.
        if (moved === null) return only ? await recordWritten(fc, ctx.from.id, msg) : undefined;
        if (moved.replyId === null) return;
        const removeKeyboard = asksWithKeyboard(asking.ask);
        await fc.deliver({ personId: moved.id, chatId: ctx.chat.id, person, reply: { id: moved.replyId, stageId: following.id, removeKeyboard }, slot });
        return;
      }
      const taken = await fc.store.answerInPlace(fc.funnelId, ctx.update.update_id, ctx.from.id, asking, answer, text);
      if (taken === ALREADY_HANDLED || taken === null || taken.replyId === null) return;
      await fc.deliver({ personId: taken.personId, chatId: ctx.chat.id, person, reply: { id: taken.replyId, stageId: stage.id, askAgain: true }, slot });
    } finally {
      slot?.ticket.done(); // unused (nothing to send, or the claim failed): the window moves on
    }
  });
  return behaviour;
}
