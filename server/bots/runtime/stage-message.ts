// Sends a stage's message to a person: Telegram HTML text (or a photo/video with it as caption),
// URL buttons one per row, and the next-step button. Media is uploaded from the database the
// first time and Telegram's file_id is kept and reused after that.
import { type Api, InputFile } from 'grammy';
import type { InlineKeyboardMarkup, Message } from 'grammy/types';
import { fillPlaceholders, type PersonValues } from '../../../contract/personalise';
import { messageKeyboard, nextStepData, TEXT_OPTIONS } from '../../messages/render';
import type { SendTicket } from '../../telegram/rate-limiter';
import { callForPerson, type FunnelContext } from './funnel-context';
import type { RuntimeStage } from './store';

function fileIdOf(message: Message, kind: 'photo' | 'video'): string | undefined {
  if (kind === 'photo') return message.photo?.at(-1)?.file_id;
  return message.video?.file_id;
}

/** A file_id Telegram no longer knows (another bot's, or expired): upload again. */
function isStaleFileId(error: unknown): boolean {
  const description = (error as { description?: string }).description ?? '';
  return /wrong file identifier|file reference|can't use file/i.test(description);
}

/** The person's fields a message may be personalised with, as Telegram gives them. */
export function personValues(from: { first_name: string; last_name?: string; username?: string }): PersonValues {
  return { first_name: from.first_name, last_name: from.last_name, username: from.username };
}

/**
 * A slot of the bot's rate taken before the reply's claim (so that a kill while waiting for the
 * rate leaves the update unclaimed, not a reply unknown): the call's first attempt sends in it, a
 * retry takes a new one. Its ticket holds Telegram's window until the answer (done()), so the
 * time the claim took cannot crowd a second. It rides on the call's options under a symbol, which
 * the JSON and multipart bodies leave out.
 */
export const PREPAID_SLOT = Symbol('prepaid rate slot');
export interface PrepaidSlot {
  ticket: SendTicket;
  used: boolean;
}

/**
 * Sends `stage`'s message to the person, personalised with their fields; answers what was sent,
 * or null when the stage has neither text nor media. Throws PersonBlockedError when they blocked
 * the bot. A failure that surely did not deliver is retried until `giveUpAt` (callForPerson).
 * Recording it is the caller's (replies.ts).
 */
export async function sendStageMessage(
  fc: FunnelContext,
  api: Api,
  chatId: number,
  stage: RuntimeStage,
  person: PersonValues,
  giveUpAt?: number,
  slot?: PrepaidSlot,
): Promise<{ message: Message; text: string } | null> {
  const { media_id } = stage.message;
  const text = fillPlaceholders(stage.message.text, person);
  const reply_markup = messageKeyboard(stage.message, nextStepData(stage.id));
  const prepaid = slot ? { [PREPAID_SLOT]: slot } : {};
  if (media_id !== null) return { message: await sendMedia(fc, api, chatId, media_id, text, reply_markup, prepaid, giveUpAt), text };
  if (text.trim() === '') return null;
  const message = await callForPerson(
    fc,
    chatId,
    () => api.sendMessage(chatId, text, { ...TEXT_OPTIONS, ...(reply_markup ? { reply_markup } : {}), ...prepaid }),
    giveUpAt,
  );
  return { message, text };
}

async function sendMedia(
  fc: FunnelContext,
  api: Api,
  chatId: number,
  mediaId: number,
  caption: string,
  reply_markup: InlineKeyboardMarkup | undefined,
  prepaid: object,
  giveUpAt: number | undefined,
): Promise<Message> {
  const extra = { ...(caption ? { caption, parse_mode: TEXT_OPTIONS.parse_mode } : {}), ...(reply_markup ? { reply_markup } : {}), ...prepaid };
  let known = fc.fileIds.get(mediaId);
  if (!known) {
    const row = await fc.store.media(fc.funnelId, mediaId, false);
    if (!row) throw new Error(`media ${mediaId} of funnel ${fc.funnelId} is missing`);
    if (row.telegramFileId) {
      known = { fileId: row.telegramFileId, kind: row.kind };
      fc.fileIds.set(mediaId, known);
    }
  }
  const send = (kind: 'photo' | 'video', file: string | InputFile) =>
    callForPerson<Message>(fc, chatId, () => (kind === 'photo' ? api.sendPhoto(chatId, file, extra) : api.sendVideo(chatId, file, extra)), giveUpAt);
  if (known) {
    try {
      return await send(known.kind, known.fileId);
    } catch (error) {
      if (!isStaleFileId(error)) throw error;
      fc.fileIds.delete(mediaId);
    }
  }
  const row = await fc.store.media(fc.funnelId, mediaId, true);
  if (!row?.data) throw new Error(`media ${mediaId} of funnel ${fc.funnelId} is missing`);
  const message = await send(row.kind, new InputFile(row.data, row.filename));
  const fileId = fileIdOf(message, row.kind);
  if (fileId) {
    fc.fileIds.set(mediaId, { fileId, kind: row.kind });
    await fc.store.saveFileId(mediaId, fileId);
  }
  return message;
}
