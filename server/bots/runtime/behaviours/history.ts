// Anything else a known person writes goes into their history (text, or a command), and marks
// them seen and no longer blocked.
import { Composer, type Context } from 'grammy';
import type { FunnelContext } from '../funnel-context';

export function historyBehaviour(fc: FunnelContext): Composer<Context> {
  const behaviour = new Composer();
  behaviour.chatType('private').on('message', async (ctx) => {
    if (!(await fc.store.claimUpdate(fc.funnelId, ctx.update.update_id))) return;
    const person = await fc.store.touchPerson(fc.funnelId, ctx.from.id);
    if (!person) return;
    const text = ctx.msg.text ?? ctx.msg.caption ?? '';
    const kind = ctx.msg.text?.startsWith('/') ? 'command' : 'text';
    await fc.store.recordIncoming(fc.funnelId, person.id, kind, text);
  });
  return behaviour;
}
