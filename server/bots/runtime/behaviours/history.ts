// Anything else a known person writes goes into their history (text, or a command), and marks
// them seen and no longer blocked. Text goes to the funnel's inbox too, and the first unread
// message of a conversation alerts the owner (through the service bot, when they have it).
import { Composer, type Context } from 'grammy';
import type { Message } from 'grammy/types';
import { untilDatabaseAnswers, type FunnelContext } from '../funnel-context';

/**
 * Records a claimed message of a person (by their Telegram id) in their history, and text in the
 * inbox. Claimed: it must happen, so it waits for the database if it is down meanwhile.
 */
export async function recordWritten(fc: FunnelContext, telegramId: number, msg: Pick<Message, 'text' | 'caption'>): Promise<void> {
  const person = await untilDatabaseAnswers(fc, 'mark a person seen', () => fc.store.touchPerson(fc.funnelId, telegramId));
  if (!person) return;
  const text = msg.text ?? msg.caption ?? '';
  const kind = msg.text?.startsWith('/') ? 'command' : 'text';
  const alert = await untilDatabaseAnswers(fc, 'record what a person wrote', () => fc.store.recordIncoming(fc.funnelId, person.id, kind, text));
  if (alert && fc.alertOwner) {
    void fc.alertOwner(alert).catch((error: unknown) =>
      fc.log.warn({ funnel_id: fc.funnelId }, `could not alert the owner of funnel ${fc.funnelId}: ${error instanceof Error ? error.message : String(error)}`),
    );
  }
}

export function historyBehaviour(fc: FunnelContext): Composer<Context> {
  const behaviour = new Composer();
  behaviour.chatType('private').on('message', async (ctx) => {
    if (!(await fc.store.claimUpdate(fc.funnelId, ctx.update.update_id))) return;
    await recordWritten(fc, ctx.from.id, ctx.msg);
  });
  return behaviour;
}
