// The one way a message's content reaches a chat, for the bot runtime's replies and the delivery
// engine's mailings and letters alike: Telegram HTML text, or a photo/video with it as caption,
// the buttons, and a paid broadcast when asked. Also the one table that says what a Bot API
// failure means (sendFailure) and the one rule for when to try again (retryDelayMs).
//
// Media is uploaded from the database the first time; Telegram's file_id is kept (in the
// database and in one cache per database in this process, shared by the runtime and the engine)
// and reused after that. A file_id Telegram no longer takes (another bot's, or expired) is dropped
// and the file uploaded again, its new file_id replacing the old one everywhere.
import { type Api, GrammyError, HttpError, InputFile } from 'grammy';
import type { InlineKeyboardMarkup, Message, ReplyKeyboardMarkup, ReplyKeyboardRemove } from 'grammy/types';
import type { DeliveryErrorReason } from '../../contract/delivery';
import type { Db } from '../db';
import { TEXT_OPTIONS } from '../messages/render';
import { describeBotApiError, surelyNotDelivered } from './client';

export type MediaKind = 'photo' | 'video';

/** What to send: the text is already personalised; `extra` rides along on the call's options. */
export interface OutgoingMessage {
  text: string;
  mediaId: number | null;
  /** Inline buttons, or (a stage's question) a reply keyboard or its removal. */
  replyMarkup?: InlineKeyboardMarkup | ReplyKeyboardMarkup | ReplyKeyboardRemove;
  /** allow_paid_broadcast: past the free 30/s, paid in Stars. */
  paid?: boolean;
  /** Options only this server reads (a prepaid rate slot under a symbol): JSON and multipart leave them out. */
  extra?: object;
}

/**
 * Makes one Bot API call (an upload or a send by file_id): the runtime passes its retry of
 * failures that surely did not deliver; the engine calls once and writes the outcome.
 */
export type CallTelegram = (call: () => Promise<Message>) => Promise<Message>;

const callOnce: CallTelegram = (call) => call();

interface KnownFile {
  fileId: string;
  kind: MediaKind;
}

/** media id → file_id (or the upload that will give it), one map per database: media ids are its. */
const fileIdCaches = new WeakMap<Db, Map<number, Promise<KnownFile>>>();
/** Entries kept per database; past it the oldest go (each is read again from the database). */
const FILE_ID_CACHE_MAX = 10_000;

function fileIdCache(db: Db): Map<number, Promise<KnownFile>> {
  let cache = fileIdCaches.get(db);
  if (!cache) fileIdCaches.set(db, (cache = new Map()));
  return cache;
}

function fileIdOf(message: Message, kind: MediaKind): string | undefined {
  return kind === 'photo' ? message.photo?.at(-1)?.file_id : message.video?.file_id;
}

/** A file_id Telegram no longer takes (another bot's, or expired): the file is uploaded again. */
export function isStaleFileId(error: unknown): boolean {
  return error instanceof GrammyError && error.error_code === 400 && /wrong file identifier|file reference|can't use file|invalid file_id/i.test(error.description);
}

/**
 * Sends `message` to `chatId` through `api` as `funnelId`'s bot (its media is looked up as that
 * funnel's only). Throws what Telegram answered; sendFailure says what it means.
 */
export async function sendContent(db: Db, api: Api, funnelId: number, chatId: number, message: OutgoingMessage, call: CallTelegram = callOnce): Promise<Message> {
  const { text, mediaId, replyMarkup, paid, extra } = message;
  const common = { ...(replyMarkup ? { reply_markup: replyMarkup } : {}), ...(paid ? { allow_paid_broadcast: true } : {}), ...extra };
  if (mediaId === null) return call(() => api.sendMessage(chatId, text, { ...TEXT_OPTIONS, ...common }));
  const options = { ...common, ...(text ? { caption: text, parse_mode: TEXT_OPTIONS.parse_mode } : {}) };
  const sendAs = (kind: MediaKind, file: string | InputFile) =>
    call(() => (kind === 'photo' ? api.sendPhoto(chatId, file, options) : api.sendVideo(chatId, file, options)));

  const cache = fileIdCache(db);
  const cached = cache.get(mediaId);
  const known = cached ? await cached.catch(() => undefined) : await storedFileId(db, funnelId, mediaId);
  if (known) {
    const entry = cached ?? Promise.resolve(known);
    if (!cached) cache.set(mediaId, entry);
    try {
      return await sendAs(known.kind, known.fileId);
    } catch (error) {
      if (!isStaleFileId(error)) throw error;
      // Dropped only if still there: another send may have put a fresh upload in its place meanwhile.
      if (cache.get(mediaId) === entry) cache.delete(mediaId);
    }
  }
  // One upload per media at a time: every other send of it waits for its file_id.
  const pending = cache.get(mediaId);
  if (pending) {
    const fresh = await pending.catch(() => undefined);
    if (fresh && fresh.fileId !== known?.fileId) return sendAs(fresh.kind, fresh.fileId);
  }
  let settle!: { resolve(file: KnownFile): void; reject(error: unknown): void };
  const upload = new Promise<KnownFile>((resolve, reject) => (settle = { resolve, reject }));
  upload.catch(() => {
    if (cache.get(mediaId) === upload) cache.delete(mediaId);
  });
  cache.set(mediaId, upload);
  if (cache.size > FILE_ID_CACHE_MAX) cache.delete(cache.keys().next().value!);
  try {
    const [row] = await db.query<{ kind: MediaKind; filename: string; data: Uint8Array }>('select kind, filename, data from media where id = $1 and funnel_id = $2', [
      mediaId,
      funnelId,
    ]);
    if (!row) throw new Error(`media ${mediaId} of funnel ${funnelId} is missing`);
    const sent = await sendAs(row.kind, new InputFile(Buffer.from(row.data), row.filename));
    const fileId = fileIdOf(sent, row.kind);
    if (fileId) {
      await db.query('update media set telegram_file_id = $2 where id = $1', [mediaId, fileId]);
      settle.resolve({ fileId, kind: row.kind });
    } else settle.reject(new Error('Telegram gave no file_id'));
    return sent;
  } catch (error) {
    settle.reject(error);
    throw error;
  }
}

async function storedFileId(db: Db, funnelId: number, mediaId: number): Promise<KnownFile | undefined> {
  const [row] = await db.query<{ kind: MediaKind; telegram_file_id: string | null }>('select kind, telegram_file_id from media where id = $1 and funnel_id = $2', [
    mediaId,
    funnelId,
  ]);
  if (!row) throw new Error(`media ${mediaId} of funnel ${funnelId} is missing`);
  return row.telegram_file_id ? { fileId: row.telegram_file_id, kind: row.kind } : undefined;
}

/** Forgets the file_ids this process keeps for a database (tests; a bot replaced by another). */
export function forgetFileIds(db: Db): void {
  fileIdCaches.delete(db);
}

/** What a failed send means, for whoever sent it. */
export type SendFailure =
  /** 429: Telegram asks the bot to wait this long. */
  | { kind: 'rate_limited'; retryAfterS: number }
  /** 403: the person blocked the bot. */
  | { kind: 'blocked'; error: string }
  /** 400 chat not found: the person never pressed Start (or deleted the chat). */
  | { kind: 'chat_not_found'; error: string }
  /** 400 on allow_paid_broadcast: the bot may not use paid broadcasts. */
  | { kind: 'paid_broadcast_unavailable'; error: string }
  /** 401: the token was revoked; nothing more goes out with it. */
  | { kind: 'token_revoked'; error: string }
  /** Telegram's 5xx, or a connection never made: surely not delivered, safe to try again. */
  | { kind: 'not_delivered'; error: string }
  /** A timeout or a reset mid-request: it may have been delivered, so it is never sent again blindly. */
  | { kind: 'maybe_delivered'; error: string }
  /** Anything else (a 400 for the content, …): sending it again would fail again. */
  | { kind: 'refused'; error: string };

/**
 * What Telegram's words say happened, first match wins. Read from the description alone, so that
 * the text an outbox row keeps (the description, or describeBotApiError's line) classifies the same
 * way long after the send.
 */
const REASON_PATTERNS: ReadonlyArray<readonly [DeliveryErrorReason, RegExp]> = [
  ['user_deactivated', /user is deactivated/i],
  ['kicked', /bot was kicked|bot is not a member|not a member of the (channel|supergroup|group)|have no rights to send|need administrator rights/i],
  ['blocked', /bot was blocked by the user|user is blocked/i],
  ['chat_not_found', /chat not found|peer_id_invalid|can't initiate conversation|chat_id is empty/i],
  ['message_gone', /message to delete not found|message not found/i],
  ['cannot_delete', /message can't be deleted/i],
  ['message_too_long', /message is too long|caption is too long|text is too long|message_too_long|media_caption_too_long/i],
  ['file_too_big', /too large|too big|file_parts_invalid/i],
  ['bad_markup', /can't parse entities|unsupported start tag|can't find end tag|button_data_invalid|button_url_invalid|wrong http url|reply markup|inline keyboard|keyboard button/i],
  ['rate_limited', /too many requests|retry after|flood/i],
  ['network', /network request|timed? ?out|econn|etimedout|eai_again|enotfound|ehostunreach|enetunreach|socket hang up|bad gateway|service unavailable|internal server error|gateway time-?out/i],
];

/**
 * The one classification of why a message did not reach a person (or could not be deleted), as
 * the API tells the owner: Telegram's `description` (or the stored error text) and, when known, its
 * code. Null for no error.
 */
export function deliveryErrorReason(description: string | null, code?: number): DeliveryErrorReason | null {
  if (!description && code === undefined) return null;
  const text = description ?? '';
  const found = REASON_PATTERNS.find(([, pattern]) => pattern.test(text));
  if (found) return found[0];
  if (code === 403) return 'blocked';
  if (code === 429) return 'rate_limited';
  if (code === 413) return 'file_too_big';
  if (code !== undefined && code >= 500) return 'network';
  return 'other';
}

/**
 * The one table of Bot API failures. A stale file_id never gets here: sendContent uploads the
 * file again. The token is kept out of every error text.
 */
export function sendFailure(error: unknown, token: string): SendFailure {
  const said = (text: string) => text.split(token).join('<token>');
  if (error instanceof GrammyError) {
    const code = error.error_code;
    const description = said(error.description);
    if (code === 429) return { kind: 'rate_limited', retryAfterS: error.parameters.retry_after ?? 1 };
    if (code === 403) return { kind: 'blocked', error: description };
    if (code === 401) return { kind: 'token_revoked', error: description };
    if (code >= 500) return { kind: 'not_delivered', error: description };
    if (code === 400 && deliveryErrorReason(error.description, code) === 'chat_not_found') return { kind: 'chat_not_found', error: description };
    if (code === 400 && /paid broadcast/i.test(error.description)) return { kind: 'paid_broadcast_unavailable', error: description };
    return { kind: 'refused', error: description };
  }
  const text = describeBotApiError(error, token);
  if (error instanceof HttpError) return surelyNotDelivered(error) ? { kind: 'not_delivered', error: text } : { kind: 'maybe_delivered', error: text };
  return { kind: 'refused', error: text };
}

/**
 * The one retry rule for a failure that surely did not deliver: the wait before attempt
 * `failedAttempts + 1`, from `delays`; null once they are used up (the caller then gives up, or
 * repeats the last wait when `repeatLast`, as a reply does until its deadline).
 */
export function retryDelayMs(failedAttempts: number, delays: readonly number[], { repeatLast = false, jitter = 0 } = {}): number | null {
  if (failedAttempts < 1) return 0;
  if (failedAttempts <= delays.length) return delays[failedAttempts - 1];
  if (!repeatLast || delays.length === 0) return null;
  const last = delays[delays.length - 1];
  return last * (1 - jitter + Math.random() * 2 * jitter);
}
