// Keywords: a private text message (not a command) that contains one of the funnel's keywords, as
// a whole word or words in any case, Russian or English, moves the person to the keyword's stage
// and sends its message, once (the claim is in the move's own statement). The message stays in
// their history (not in the inbox: the bot answered it). Text without a keyword, or from someone
// already in the keyword's stage, goes on to the history behaviour: the inbox, as before.
import { Composer, type Context } from 'grammy';
import type { FunnelContext } from '../funnel-context';
import { personValues, takeSlot } from '../replies';
import { ALREADY_HANDLED, type RuntimeKeyword } from '../store';
import { recordWritten } from './history';

/** Letters and digits of any script: a keyword matches only where none is next to it. */
const WORD_CHAR = '[\\p{L}\\p{N}]';

/** A phrase as a pattern: its words in order, any spaces between them, no letter or digit around it. */
export function keywordPattern(phrase: string): RegExp {
  const words = phrase.trim().split(/\s+/u).map((word) => word.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&'));
  return new RegExp(`(?<!${WORD_CHAR})${words.join('\\s+')}(?!${WORD_CHAR})`, 'iu');
}

const patterns = new WeakMap<RuntimeKeyword, RegExp>();

/** The first of `keywords` (in the owner's order) that `text` contains as whole words, if any. */
export function matchKeyword(keywords: readonly RuntimeKeyword[], text: string): RuntimeKeyword | undefined {
  return keywords.find((keyword) => {
    let pattern = patterns.get(keyword);
    if (!pattern) patterns.set(keyword, (pattern = keywordPattern(keyword.phrase)));
    return pattern.test(text);
  });
}

export function keywordBehaviour(fc: FunnelContext): Composer<Context> {
  const behaviour = new Composer();
  behaviour.chatType('private').on('message:text', async (ctx, next) => {
    const text = ctx.msg.text;
    if (text.startsWith('/')) return next();
    const keywords = await fc.store.keywords(fc.funnelId);
    const keyword = keywords.length === 0 ? undefined : matchKeyword(keywords, text);
    const stages = keyword ? await fc.store.stages(fc.funnelId) : [];
    const to = keyword && stages.find((stage) => stage.id === keyword.stageId);
    if (!keyword || !to) return next();
    const slot = await takeSlot(fc);
    try {
      const moved = await fc.store.movePerson(fc.funnelId, ctx.update.update_id, ctx.from.id, null, to, text, 'keyword', keyword.phrase);
      if (moved === ALREADY_HANDLED) return;
      // Claimed, nobody moved (already in that stage, or not started): what they wrote is kept as any text is.
      if (moved === null) return await recordWritten(fc, ctx.from.id, ctx.msg);
      if (moved.replyId === null) return;
      await fc.deliver({ personId: moved.id, chatId: ctx.chat.id, person: personValues(ctx.from), reply: { id: moved.replyId, stageId: to.id }, slot });
    } finally {
      slot?.ticket.done(); // unused (nothing to send, or the claim failed): the window moves on
    }
  });
  return behaviour;
}
