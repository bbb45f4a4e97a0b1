// /start (with or without a payload): the person is created or found; a new one is put in the
// first stage and tagged with its tag, one already in a stage stays there (a second /start takes
// nobody back). Either way they get the message of the stage they are in. The update is claimed
// in the same statement.
import { Composer, type Context } from 'grammy';
import type { FunnelContext } from '../funnel-context';
import { personValues, sendStageMessage } from '../stage-message';
import { ALREADY_HANDLED } from '../store';

export function startBehaviour(fc: FunnelContext): Composer<Context> {
  const behaviour = new Composer();
  behaviour.chatType('private').command('start', async (ctx) => {
    const stages = await fc.store.stages(fc.funnelId);
    const first = stages[0] ?? null;
    const started = await fc.store.startPerson(fc.funnelId, ctx.update.update_id, ctx.from, first, ctx.msg.text);
    if (started === ALREADY_HANDLED) return;
    const stage = stages.find((s) => s.id === started.stageId);
    if (stage) await sendStageMessage(fc, ctx.api, started.id, ctx.chat.id, stage, personValues(ctx.from));
  });
  return behaviour;
}
