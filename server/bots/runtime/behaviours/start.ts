// /start (with or without a payload): the person is created or found; a new one is put in the
// first stage and tagged with its tag, one already in a stage stays there (a second /start takes
// nobody back). Either way they get the message of the stage they are in. The update is claimed,
// and that message written to the outbox as the reply, in the same statement, once a slot of the
// bot's rate is free: a kill (or a database outage) before the claim leaves the update to be
// fetched again, a kill after it leaves a reply on the wire, counted unknown (replies.ts).
import { Composer, type Context } from 'grammy';
import type { FunnelContext } from '../funnel-context';
import { personValues } from '../replies';
import { takeSlot } from '../replies';
import { ALREADY_HANDLED } from '../store';

export function startBehaviour(fc: FunnelContext): Composer<Context> {
  const behaviour = new Composer();
  behaviour.chatType('private').command('start', async (ctx) => {
    const stages = await fc.store.stages(fc.funnelId);
    const first = stages[0] ?? null;
    // The slot first: the reply is written as being sent with the claim, and goes at once.
    const slot = await takeSlot(fc);
    try {
      const started = await fc.store.startPerson(fc.funnelId, ctx.update.update_id, ctx.from, first, ctx.msg.text);
      if (started === ALREADY_HANDLED || started.replyId === null) return;
      const reply = { id: started.replyId, stageId: started.stageId };
      await fc.deliver({ personId: started.id, chatId: ctx.chat.id, person: personValues(ctx.from), reply, slot });
    } finally {
      slot?.ticket.done(); // unused (nothing to send, or the claim failed): the window moves on
    }
  });
  return behaviour;
}
