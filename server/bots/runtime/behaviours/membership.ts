// The person blocked (or unblocked) the bot: Telegram says so with my_chat_member. Blocked people
// are not written to until they write to the bot again.
import { Composer, type Context } from 'grammy';
import { untilDatabaseAnswers, type FunnelContext } from '../funnel-context';

export function membershipBehaviour(fc: FunnelContext): Composer<Context> {
  const behaviour = new Composer();
  behaviour.on('my_chat_member', async (ctx) => {
    if (ctx.chat.type !== 'private') return;
    if (!(await fc.store.claimUpdate(fc.funnelId, ctx.update.update_id))) return;
    const status = ctx.myChatMember.new_chat_member.status;
    // Claimed: it must happen, so it waits for the database if it went down meanwhile.
    await untilDatabaseAnswers(fc, 'mark a person blocked', () => fc.store.setBlocked(fc.funnelId, ctx.myChatMember.from.id, status === 'kicked'));
  });
  return behaviour;
}
