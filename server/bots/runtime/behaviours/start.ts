// /start (with or without a payload): the person is created or found; a new one is put in the
// first stage and tagged with its tag, one already in a stage stays there (a second /start takes
// nobody back). Either way they get the message of the stage they are in. The update is claimed,
// and that message written to the outbox as the reply, in the same statement (replies.ts).
import { Composer, type Context } from 'grammy';
import type { FunnelContext } from '../funnel-context';
import { personValues } from '../stage-message';
import { ALREADY_HANDLED } from '../store';

export function startBehaviour(fc: FunnelContext): Composer<Context> {
  const behaviour = new Composer();
  behaviour.chatType('private').command('start', async (ctx) => {
    const stages = await fc.store.stages(fc.funnelId);
    const first = stages[0] ?? null;
    const started = await fc.store.startPerson(fc.funnelId, ctx.update.update_id, ctx.from, first, ctx.msg.text);
    if (started === ALREADY_HANDLED || started.replyId === null) return;
    await fc.deliver({ personId: started.id, chatId: ctx.chat.id, person: personValues(ctx.from), upToId: started.replyId });
  });
  return behaviour;
}
