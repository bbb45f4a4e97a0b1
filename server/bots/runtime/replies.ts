// A funnel bot's replies go through the outbox (issue 11). The statement that claims an update
// also writes the reply it causes (the stage's message) as a waiting outbox row of this runtime;
// then, when a slot of the bot's rate is free, the row is marked sending, the message goes to
// Telegram, and the outcome is recorded with the person's history. A kill between the claim and
// the call leaves the row waiting: the next runtime takes it over and sends it. A kill during the
// call leaves it sending: it becomes unknown (counted, never sent again). Nothing twice.
//
// One person's replies go one after another, oldest first: a waiting reply left from a dead
// runtime is sent before the person's next one, and the queue per person keeps a taken-over
// reply and a new one from overtaking each other in this process.
import { type Api, GrammyError } from 'grammy';
import type { PersonValues } from '../../../contract/personalise';
import { PersonBlockedError, type FunnelContext } from './funnel-context';
import { type PrepaidSlot, sendStageMessage } from './stage-message';
import type { ReplyOutcome, TakenReply } from './store';

/** What the owner may read about a failed reply (never the token: grammY's errors carry none). */
function errorText(error: unknown): string {
  if (error instanceof GrammyError) return `${error.error_code} ${error.description}`;
  return error instanceof Error ? error.message : String(error);
}

/** One delivery at a time per person, in the order asked. */
export class ReplyQueue {
  private readonly chains = new Map<number, Promise<void>>();

  /** `work` is told whether it waited for an earlier delivery of the person. */
  run(personId: number, work: (waited: boolean) => Promise<void>): Promise<void> {
    const previous = this.chains.get(personId);
    const next = previous ? previous.then(() => work(true)) : work(false);
    const tail = next.catch(() => undefined);
    this.chains.set(personId, tail);
    void tail.then(() => {
      if (this.chains.get(personId) === tail) this.chains.delete(personId);
    });
    return next;
  }
}

export interface ReplyTarget {
  personId: number;
  chatId: number;
  person: PersonValues;
  /** A reply the claim wrote as sending (its slot of the bot's rate taken before the claim). */
  reply?: TakenReply;
  slot?: PrepaidSlot;
  /** Or: every waiting reply of the person up to this one (taken over from a dead runtime), oldest first. */
  upToId?: number;
}

/** A slot of the bot's rate, taken before a reply is claimed (see the behaviours). */
export async function takeSlot(fc: FunnelContext): Promise<PrepaidSlot | undefined> {
  if (!fc.limiter) return undefined;
  await fc.limiter.take('reply');
  return { used: false };
}

/**
 * Sends the reply (or the person's waiting replies) and records how each ended. Throws what
 * sending threw (PersonBlockedError, a 401, a failure after retries) once it is recorded.
 */
export async function deliverReplies(fc: FunnelContext, api: Api, target: ReplyTarget, waited: boolean): Promise<void> {
  let slot = target.slot;
  // A slot taken before an earlier reply of the person went out is stale: take a fresh one.
  if (waited && slot) slot.used = true;
  let taken: TakenReply[];
  if (target.reply) taken = [target.reply];
  else {
    // Taken over: marked sending only once a slot is free, so a kill while waiting for the bot's
    // rate leaves them waiting (sent by the next runtime), not unknown.
    slot = await takeSlot(fc);
    taken = await fc.store.takeReplies(fc.funnelId, target.personId, target.upToId ?? 0);
    if (taken.length === 0) return; // another runtime has them
  }
  const stages = await fc.store.stages(fc.funnelId);
  for (let i = 0; i < taken.length; i++) {
    const reply = taken[i];
    const stage = stages.find((s) => s.id === reply.stageId);
    let outcome: ReplyOutcome;
    try {
      if (!stage) outcome = { id: reply.id, state: 'skipped', error: 'The stage was deleted before its message was sent.' };
      else {
        const sent = await sendStageMessage(fc, api, target.chatId, stage, target.person, i === 0 ? slot : undefined);
        outcome = sent
          ? { id: reply.id, state: 'sent', messageId: sent.message.message_id, text: sent.text, stageId: stage.id }
          : { id: reply.id, state: 'skipped', error: 'The stage has no message.' };
      }
    } catch (error) {
      const blocked = error instanceof PersonBlockedError;
      const failed: ReplyOutcome = { id: reply.id, state: blocked ? 'blocked' : 'failed', error: blocked ? 'The person blocked the bot.' : errorText(error) };
      // The rest were not handed to Telegram: to a blocked person they never will be; else they
      // wait for the next runtime (this one is stopping, or its token was refused).
      const rest = taken.slice(i + 1).map((r) => r.id);
      await fc.store.recordReplies([failed, ...(blocked ? rest.map((id): ReplyOutcome => ({ id, state: 'blocked', error: failed.error })) : [])]);
      if (!blocked) await fc.store.releaseReplies(rest);
      throw error;
    }
    await fc.store.recordReplies([outcome]);
  }
}
