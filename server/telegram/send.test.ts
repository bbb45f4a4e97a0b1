// The one sender (send.ts) against the fake Bot API, which answers as Telegram does: what arrives
// in the chat, what each Bot API failure means (sendFailure, row by row), the retry rule, and a
// media file_id Telegram no longer takes (for a reply and a mailing: bots/runtime/stale-media.test.ts).
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeBotApi, type FakeBotApi } from '../../scripts/telegram/fake-bot-api';
import { media } from '../db/schema';
import { createFunnel, createOwner, TINY_PNG } from '../test/funnel-runtime';
import { createTestDb, type TestDb } from '../test/helpers';
import { addSubscribers } from '../test/mailings';
import { createApi } from './client';
import { deliveryErrorReason, forgetFileIds, retryDelayMs, sendContent, sendFailure } from './send';

let fake: FakeBotApi;
let testDb: TestDb;
let ownerId: number;
let counter = 0;
/** A file_id Telegram never gave this bot (another bot's, or expired). */
const STALE_FILE_ID = 'AgACAgIAAxkBAAIstale-file-id-of-another-bot';

beforeAll(async () => {
  fake = await startFakeBotApi();
  testDb = await createTestDb();
  ownerId = await createOwner(testDb.db);
});
afterAll(async () => {
  await fake?.close();
  await testDb?.drop();
});

/** A bot with a funnel whose first stage has a photo, and one person who pressed Start. */
async function botWithPhoto() {
  counter += 1;
  const bot = fake.addBot({ username: `send${counter}_bot` });
  const made = await createFunnel(testDb.db, { ownerId, token: bot.token, username: bot.username, stageSpecs: [{ text: 'Look, {first_name}', photo: TINY_PNG, next: null }] });
  const [person] = await addSubscribers(testDb.db, fake, bot.token, made.funnel.id, 1);
  const mediaId = made.mediaIds[0]!;
  return { token: bot.token, funnelId: made.funnel.id, mediaId, chatId: person.telegramId, api: createApi(bot.token, { apiRoot: fake.url, timeoutSeconds: 10 }) };
}

async function storedFileId(mediaId: number): Promise<string | null> {
  const [row] = await testDb.db.orm.select({ fileId: media.telegramFileId }).from(media).where(eq(media.id, mediaId));
  return row.fileId;
}

async function failureOf(call: () => Promise<unknown>, token: string) {
  try {
    await call();
  } catch (error) {
    return sendFailure(error, token);
  }
  throw new Error('the call did not fail');
}

describe('sendContent', () => {
  it('sends text with its buttons, and a photo by upload once, then by its file_id', async () => {
    const { api, funnelId, mediaId, chatId, token } = await botWithPhoto();
    const replyMarkup = { inline_keyboard: [[{ text: 'Shop', url: 'https://example.com/' }]] };
    const text = await sendContent(testDb.db, api, funnelId, chatId, { text: '<b>Hi</b>', mediaId: null, replyMarkup });
    expect(text.text).toBe('Hi');
    expect(text.reply_markup?.inline_keyboard[0][0]).toMatchObject({ text: 'Shop', url: 'https://example.com/' });

    const first = await sendContent(testDb.db, api, funnelId, chatId, { text: 'Photo', mediaId });
    const fileId = first.photo?.at(-1)?.file_id;
    expect(fileId).toBeTruthy();
    expect(await storedFileId(mediaId)).toBe(fileId);
    const second = await sendContent(testDb.db, api, funnelId, chatId, { text: 'Again', mediaId });
    expect(second.caption).toBe('Again');
    expect(fake.calls(token, 'sendPhoto').length).toBe(2);
    // The second went by file_id: Telegram stored no second file.
    expect(second.photo?.at(-1)?.file_unique_id).toBe(first.photo?.at(-1)?.file_unique_id);
  });

  it('a stored file_id Telegram no longer takes: the file is uploaded again and its new file_id replaces the old one', async () => {
    const { api, funnelId, mediaId, chatId } = await botWithPhoto();
    await testDb.db.orm.update(media).set({ telegramFileId: STALE_FILE_ID }).where(eq(media.id, mediaId));
    forgetFileIds(testDb.db);
    const sent = await sendContent(testDb.db, api, funnelId, chatId, { text: 'Still here', mediaId });
    expect(sent.caption).toBe('Still here');
    const fresh = await storedFileId(mediaId);
    expect(fresh).not.toBe(STALE_FILE_ID);
    expect(fresh).toBe(sent.photo?.at(-1)?.file_id);
  });

  it("never sends another funnel's media", async () => {
    const mine = await botWithPhoto();
    const theirs = await botWithPhoto();
    await expect(sendContent(testDb.db, mine.api, mine.funnelId, mine.chatId, { text: 'x', mediaId: theirs.mediaId })).rejects.toThrow(/missing/);
    expect(fake.calls(mine.token, 'sendPhoto')).toHaveLength(0);
  });
});

describe('sendFailure: what each Bot API failure means', () => {
  it('429 → wait retry_after', async () => {
    const { api, funnelId, chatId, token } = await botWithPhoto();
    fake.rateLimit(token, { calls: 1, retryAfter: 7 });
    expect(await failureOf(() => sendContent(testDb.db, api, funnelId, chatId, { text: 'x', mediaId: null }), token)).toEqual({ kind: 'rate_limited', retryAfterS: 7 });
  });

  it('403 → blocked', async () => {
    const { api, funnelId, chatId, token } = await botWithPhoto();
    fake.setBlocked(token, chatId, true);
    expect(await failureOf(() => sendContent(testDb.db, api, funnelId, chatId, { text: 'x', mediaId: null }), token)).toMatchObject({ kind: 'blocked' });
  });

  it('400 chat not found → chat_not_found', async () => {
    const { api, funnelId, token } = await botWithPhoto();
    expect(await failureOf(() => sendContent(testDb.db, api, funnelId, 777_000_001, { text: 'x', mediaId: null }), token)).toMatchObject({ kind: 'chat_not_found' });
  });

  it('400 on a paid broadcast the bot may not use → paid_broadcast_unavailable', async () => {
    const { api, funnelId, chatId, token } = await botWithPhoto();
    expect(await failureOf(() => sendContent(testDb.db, api, funnelId, chatId, { text: 'x', mediaId: null, paid: true }), token)).toMatchObject({
      kind: 'paid_broadcast_unavailable',
    });
  });

  it('401 → token_revoked, and the token is never in the text', async () => {
    const { api, funnelId, chatId, token } = await botWithPhoto();
    fake.revokeToken(token);
    const failure = await failureOf(() => sendContent(testDb.db, api, funnelId, chatId, { text: 'x', mediaId: null }), token);
    expect(failure).toMatchObject({ kind: 'token_revoked' });
    expect(JSON.stringify(failure)).not.toContain(token);
  });

  it('5xx → not_delivered (safe to send again)', async () => {
    const { api, funnelId, chatId, token } = await botWithPhoto();
    fake.failNextCalls(token, { count: 1, error_code: 502, description: 'Bad Gateway' });
    expect(await failureOf(() => sendContent(testDb.db, api, funnelId, chatId, { text: 'x', mediaId: null }), token)).toMatchObject({ kind: 'not_delivered' });
  });

  it('a connection refused → not_delivered; the token stays out of the text', async () => {
    const { funnelId, chatId, token } = await botWithPhoto();
    const nowhere = createApi(token, { apiRoot: 'http://127.0.0.1:9', timeoutSeconds: 5 });
    const failure = await failureOf(() => sendContent(testDb.db, nowhere, funnelId, chatId, { text: 'x', mediaId: null }), token);
    expect(failure).toMatchObject({ kind: 'not_delivered' });
    expect(JSON.stringify(failure)).not.toContain(token);
  });

  it('any other 400 → refused (sending it again would fail again)', async () => {
    const { api, funnelId, chatId, token } = await botWithPhoto();
    expect(await failureOf(() => sendContent(testDb.db, api, funnelId, chatId, { text: '<b>broken', mediaId: null }), token)).toMatchObject({ kind: 'refused' });
  });
});

describe('retryDelayMs: the one retry rule', () => {
  it('waits each delay in turn, then gives up, or repeats the last one when asked', () => {
    const delays = [100, 500];
    expect([1, 2, 3].map((n) => retryDelayMs(n, delays))).toEqual([100, 500, null]);
    expect(retryDelayMs(5, delays, { repeatLast: true })).toBe(500);
  });
});

describe('deliveryErrorReason: what the owner is told happened to a person', () => {
  it('reads Telegram’s words (and the stored error lines) as one stable reason each', () => {
    const cases: Array<[string | null, number | undefined, string | null]> = [
      ['Forbidden: bot was blocked by the user', 403, 'blocked'],
      ['Bad Request: chat not found', 400, 'chat_not_found'],
      ['sendMessage answered 400 Bad Request: chat not found', undefined, 'chat_not_found'],
      ['Forbidden: user is deactivated', 403, 'user_deactivated'],
      ['Forbidden: bot was kicked from the group chat', 403, 'kicked'],
      ['Bad Request: message is too long', 400, 'message_too_long'],
      ["Bad Request: can't parse entities: Unsupported start tag \"x\" at byte offset 0", 400, 'bad_markup'],
      ['Request Entity Too Large', 413, 'file_too_big'],
      ['Too Many Requests: retry after 5', 429, 'rate_limited'],
      ["Network request for 'sendMessage' failed! (ECONNRESET)", undefined, 'network'],
      ['deleteMessage answered 400 Bad Request: message to delete not found', undefined, 'message_gone'],
      ["deleteMessage answered 400 Bad Request: message can't be deleted", undefined, 'cannot_delete'],
      ['Bad Request: something new', 400, 'other'],
      ['Forbidden: something new', 403, 'blocked'],
      [null, undefined, null],
    ];
    expect(cases.map(([text, code]) => deliveryErrorReason(text, code))).toEqual(cases.map(([, , reason]) => reason));
  });
});
