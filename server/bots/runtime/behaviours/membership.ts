// The person blocked (or unblocked) the bot: Telegram says so with my_chat_member. Blocked people
// are not written to until they write to the bot again.
import { Composer, type Context } from 'grammy';
import type { FunnelContext } from '../funnel-context';

export function membershipBehaviour(fc: FunnelContext): Composer<Context> {
  const behaviour = new Composer();
  behaviour.on('my_chat_member', async (ctx) => {
    if (ctx.chat.type !== 'private') return;
    if (!(await fc.store.claimUpdate(fc.funnelId, ctx.update.update_id))) return;
    const status = ctx.myChatMember.new_chat_member.status;
    await fc.store.setBlocked(fc.funnelId, ctx.myChatMember.from.id, status === 'kicked');
  });
  return behaviour;
}
