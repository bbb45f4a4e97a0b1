// /start (with or without a payload): the person is created or found, put in the first stage,
// tagged with its tag, and sent its message. The update is claimed in the same statement.
import { Composer, type Context } from 'grammy';
import type { FunnelContext } from '../funnel-context';
import { personValues, sendStageMessage } from '../stage-message';
import { ALREADY_HANDLED } from '../store';

export function startBehaviour(fc: FunnelContext): Composer<Context> {
  const behaviour = new Composer();
  behaviour.chatType('private').command('start', async (ctx) => {
    const stages = await fc.store.stages(fc.funnelId);
    const first = stages[0] ?? null;
    const personId = await fc.store.startPerson(fc.funnelId, ctx.update.update_id, ctx.from, first, ctx.msg.text);
    if (personId === ALREADY_HANDLED) return;
    if (first) await sendStageMessage(fc, ctx.api, personId, ctx.chat.id, first, personValues(ctx.from));
  });
  return behaviour;
}
