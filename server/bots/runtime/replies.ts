// A funnel bot's replies go through the outbox (issue 11). The statement that claims an update
// also writes the reply it causes (the stage's message) as an outbox row of this runtime, marked
// sending, once a slot of the bot's rate is free (taken before the claim, held until Telegram's
// answer); then the message goes to Telegram, and the outcome is recorded with the person's
// history. A kill between the claim and the call leaves the row sending: it becomes unknown
// (counted, never sent again). Nothing twice.
//
// Outages: while Telegram answers 5xx or refuses connections (the message surely did not go), the
// reply waits and is tried again, every few seconds, until it is REPLY_GIVE_UP_MS old; a request
// that may have reached Telegram (a timeout, a reset mid-request) is recorded unknown, not sent
// again. While the database is down, the outcome waits to be recorded until it answers.
//
// One person's replies go one after another, oldest first: a waiting reply left from a dead
// runtime is sent before the person's next one, and the queue per person keeps a taken-over
// reply and a new one from overtaking each other in this process.
import { type Api, GrammyError, HttpError } from 'grammy';
import type { Message, ReplyKeyboardMarkup } from 'grammy/types';
import { escapeHtml, fillPlaceholders, type PersonValues } from '../../../contract/personalise';
import { paymentPayload, STARS_CURRENCY } from '../../../contract/payments';
import { mayNeedFieldValues } from '../../messages/field-values';
import { messageKeyboard, nextStepData } from '../../messages/render';
import { surelyNotDelivered } from '../../telegram/client';
import { PREPAID_SLOT, type PrepaidSlot, SlotAbandonedError } from '../../telegram/rate-limiter';
import { sendContent, type OutgoingMessage } from '../../telegram/send';
import { callForPerson, isUnauthorized, PersonBlockedError, REPLY_GIVE_UP_MS, untilDatabaseAnswers, type FunnelContext } from './funnel-context';
import type { ReplyOutcome, RuntimeAsk, RuntimeStage, TakenReply } from './store';

/** The person's fields a message may be personalised with, as Telegram gives them. */
export function personValues(from: { first_name: string; last_name?: string; username?: string }): PersonValues {
  return { first_name: from.first_name, last_name: from.last_name, username: from.username };
}

/** The contact-request button's text, in the person's language. */
export const SHARE_PHONE_TEXT = { en: '📱 Share my phone number', ru: '📱 Поделиться номером' } as const;

/** The reply keyboard of a phone or choice question (one-time: it folds away once used). */
export function askKeyboard(ask: RuntimeAsk, language: string | undefined): ReplyKeyboardMarkup | undefined {
  if (ask.kind === 'phone') {
    const text = SHARE_PHONE_TEXT[language === 'ru' ? 'ru' : 'en'];
    return { keyboard: [[{ text, request_contact: true }]], resize_keyboard: true, one_time_keyboard: true };
  }
  if (ask.kind === 'choice') return { keyboard: ask.options.map((text) => [{ text }]), resize_keyboard: true, one_time_keyboard: true };
  return undefined;
}

/**
 * Sends `stage`'s message (or, `askAgain`, its re-ask text) to the person, personalised with their
 * Telegram names and their fields, through telegram/send.ts (media by file_id, uploaded again when
 * Telegram no longer takes it); answers what was sent, or null when there is nothing to send.
 * Throws PersonBlockedError when they blocked the bot. A failure that surely did not deliver is
 * retried until `giveUpAt` (callForPerson).
 */
async function sendStageMessage(
  fc: FunnelContext,
  api: Api,
  target: ReplyTarget,
  stage: RuntimeStage,
  reply: TakenReply,
  giveUpAt: number,
  slot: PrepaidSlot | undefined,
): Promise<{ message: Message; text: string } | null> {
  const chatId = target.chatId;
  const askAgain = reply.askAgain === true && stage.ask !== null;
  const mediaId = askAgain ? null : stage.message.media_id;
  const html = askAgain ? escapeHtml(stage.ask!.reaskText) : stage.message.text;
  const fields = mayNeedFieldValues(html)
    ? await untilDatabaseAnswers(fc, "read a person's fields", () => fc.store.fieldValues(fc.funnelId, target.personId))
    : undefined;
  const text = fillPlaceholders(html, { ...target.person, person_id: String(target.personId) }, fields);
  if (mediaId === null && text.trim() === '') return null;
  // Telegram takes one keyboard per message: a question's reply keyboard (the editor refuses
  // inline buttons beside it), else the inline buttons, else the removal of the keyboard of the
  // question just answered.
  const replyMarkup: OutgoingMessage['replyMarkup'] =
    (stage.ask ? askKeyboard(stage.ask, target.language) : undefined) ??
    (askAgain ? undefined : messageKeyboard(stage.message, nextStepData(stage.id), stage.id)) ??
    (reply.removeKeyboard ? { remove_keyboard: true } : undefined);
  const extra = slot ? { [PREPAID_SLOT]: slot } : undefined;
  const message = await sendContent(fc.store.db, api, fc.funnelId, chatId, { text, mediaId, replyMarkup, extra }, (call) =>
    callForPerson(fc, chatId, call, giveUpAt),
  );
  return { message, text };
}

/**
 * A payment stage's reply: its message (if it has one), then its Stars invoice, in the same reply
 * (one outbox row): the row is what makes a reply go at most once (claimed with its update, named
 * by this runtime, unknown and never sent again after a kill), so the invoice goes at most once
 * with it, and nothing new is needed in the outbox or the engine. The invoice's payload names the
 * stage and the person ("fp:<stage>:<person>"), which the pre-checkout checks. An invoice Telegram
 * refuses after the message went leaves the message recorded as sent (and the refusal logged).
 */
async function sendStageReply(
  fc: FunnelContext,
  api: Api,
  target: ReplyTarget,
  stage: RuntimeStage,
  reply: TakenReply,
  giveUpAt: number,
  slot: PrepaidSlot | undefined,
): Promise<{ message: Message; text: string } | null> {
  const sent = await sendStageMessage(fc, api, target, stage, reply, giveUpAt, slot);
  const payment = stage.payment;
  // A question asked again is its re-ask text alone: the invoice went with the stage's message.
  if (!payment || reply.askAgain === true) return sent;
  const extra = !sent && slot ? { [PREPAID_SLOT]: slot } : {};
  const sendInvoice = () =>
    callForPerson(
      fc,
      target.chatId,
      () =>
        api.sendInvoice(target.chatId, payment.title, payment.description, paymentPayload(stage.id, target.personId), STARS_CURRENCY, [{ label: payment.title, amount: payment.amount }], {
          provider_token: '',
          ...extra,
        }),
      giveUpAt,
    );
  if (!sent) return { message: await sendInvoice(), text: payment.title };
  try {
    await sendInvoice();
  } catch (error) {
    if (error instanceof PersonBlockedError || isUnauthorized(error)) throw error;
    fc.log.warn({ funnel_id: fc.funnelId }, `could not send the invoice of stage ${stage.id}: ${errorText(error)}`);
  }
  return sent;
}

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
  /** Their Telegram language (the contact-request button's text). */
  language?: string;
  /** A reply the claim wrote as sending (its slot of the bot's rate taken before the claim). */
  reply?: TakenReply;
  slot?: PrepaidSlot;
  /** Or: every waiting reply of the person up to this one (taken over from a dead runtime), oldest first. */
  upToId?: number;
}

/**
 * Sends the reply (or the person's waiting replies) and records how each ended. Throws what
 * sending threw (PersonBlockedError, a 401, a failure Telegram did not get over) once it is recorded.
 */
export async function deliverReplies(fc: FunnelContext, api: Api, target: ReplyTarget, waited: boolean): Promise<void> {
  const giveUpAt = Date.now() + (fc.replyGiveUpMs ?? REPLY_GIVE_UP_MS);
  let slot = target.slot;
  try {
    // A slot taken before an earlier reply of the person went out is stale: the call takes a fresh one.
    if (waited && slot) slot.used = true;
    let taken: TakenReply[];
    if (target.reply) taken = [target.reply];
    else {
      // Taken over: marked sending only once a slot is free, so a kill while waiting for the bot's
      // rate leaves them waiting (sent by the next runtime), not unknown; and a stop gives up
      // waiting at once (thousands of a timer's replies queued behind the rate do not hold the
      // shutdown): they stay waiting for the next runtime.
      try {
        slot = await takeSlot(fc, fc.signal);
      } catch (error) {
        if (error instanceof SlotAbandonedError) return;
        throw error;
      }
      taken = await untilDatabaseAnswers(fc, 'take waiting replies', () => fc.store.takeReplies(fc.funnelId, target.personId, target.upToId ?? 0));
      if (taken.length === 0) return; // another runtime has them
    }
    await sendTaken(fc, api, target, taken, giveUpAt, slot);
  } finally {
    slot?.ticket.done(); // a slot no request used (or one that did: done() is idempotent) frees the window
  }
}

/** A slot of the bot's rate, taken before a reply is claimed (see the behaviours); its ticket is done() once used or not needed. */
export async function takeSlot(fc: FunnelContext, signal?: AbortSignal): Promise<PrepaidSlot | undefined> {
  if (!fc.limiter) return undefined;
  return { ticket: await fc.limiter.take('reply', undefined, true, signal), used: false };
}

async function sendTaken(fc: FunnelContext, api: Api, target: ReplyTarget, taken: TakenReply[], giveUpAt: number, slot: PrepaidSlot | undefined): Promise<void> {
  const record = (outcomes: ReplyOutcome[]) => untilDatabaseAnswers(fc, 'record how replies ended', () => fc.store.recordReplies(outcomes));
  const stages = await untilDatabaseAnswers(fc, "read the funnel's stages", () => fc.store.stages(fc.funnelId));
  for (let i = 0; i < taken.length; i++) {
    const reply = taken[i];
    const stage = stages.find((s) => s.id === reply.stageId);
    let outcome: ReplyOutcome;
    try {
      if (!stage) outcome = { id: reply.id, state: 'skipped', error: 'The stage was deleted before its message was sent.' };
      else {
        const sent = await sendStageReply(fc, api, target, stage, reply, giveUpAt, i === 0 ? slot : undefined);
        outcome = sent
          ? { id: reply.id, state: 'sent', messageId: sent.message.message_id, text: sent.text, stageId: stage.id }
          : { id: reply.id, state: 'skipped', error: 'The stage has no message.' };
      }
    } catch (error) {
      const blocked = error instanceof PersonBlockedError;
      const notSent = !blocked && surelyNotDelivered(error);
      // Stopping while Telegram was unreachable: it did not go, so the next runtime sends it.
      const handOver = notSent && fc.signal.aborted;
      const failed: ReplyOutcome = blocked
        ? { id: reply.id, state: 'blocked', error: 'The person blocked the bot.' }
        : error instanceof HttpError && !notSent
          ? { id: reply.id, state: 'unknown', error: `It may have reached Telegram: ${errorText(error)}` }
          : { id: reply.id, state: 'failed', error: errorText(error) };
      // The rest were not handed to Telegram: to a blocked person they never will be; else they
      // wait for the next runtime (this one is stopping, or its token was refused).
      const rest = taken.slice(i + 1).map((r) => r.id);
      if (!handOver) await record([failed, ...(blocked ? rest.map((id): ReplyOutcome => ({ id, state: 'blocked', error: failed.error })) : [])]);
      if (!blocked) await fc.store.releaseReplies(handOver ? [reply.id, ...rest] : rest);
      throw error;
    }
    await record([outcome]);
  }
}
