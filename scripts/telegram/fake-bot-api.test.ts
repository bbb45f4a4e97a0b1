// The fake Bot API behaves like Telegram for what this product uses, seen through a real grammY
// client, so tests of the service bot and the funnel runtime can trust it.
import { createHmac } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { autoRetry } from '@grammyjs/auto-retry';
import { Bot, GrammyError, InlineKeyboard, InputFile } from 'grammy';
import type { RefundedPayment, SuccessfulPayment, Update } from 'grammy/types';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../../server/test/eventually';
import { STAR_SUBSCRIPTION_MAX_PRICE, STAR_SUBSCRIPTION_PERIOD_S, startFakeBotApi, type FakeBotApi } from './fake-bot-api';

let fake: FakeBotApi;
let counter = 0;
const running: Bot[] = [];

const ann = { id: 5001, first_name: 'Ann', username: 'ann', language_code: 'en' };

/** A fresh bot in the fake for each test, so tests never see each other's chats. */
function newBot(): { token: string; bot: Bot } {
  counter += 1;
  const { token } = fake.addBot({ username: `shop${counter}_bot`, first_name: `Shop ${counter}` });
  const bot = new Bot(token, { client: { apiRoot: fake.url } });
  return { token, bot };
}

/** Starts grammY long polling and waits until its getUpdates is parked at the fake. */
async function startPolling(bot: Bot, token: string): Promise<{ done: Promise<void> }> {
  bot.catch((error) => {
    throw error;
  });
  const done = bot.start({ drop_pending_updates: false });
  done.catch(() => {}); // a test that expects the failure looks at `done` itself
  running.push(bot);
  await fake.waitForBotState(token, (s) => s.polling);
  return { done };
}

async function raw(token: string, method: string, init?: RequestInit & { query?: string }): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${fake.url}/bot${token}/${method}${init?.query ? `?${init.query}` : ''}`, init);
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

const json = (body: unknown): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

function png(width: number, height: number): Buffer {
  // Just enough of a PNG for its header to tell the size.
  const header = Buffer.alloc(33);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(header, 0);
  header.writeUInt32BE(13, 8);
  header.write('IHDR', 12, 'latin1');
  header.writeUInt32BE(width, 16);
  header.writeUInt32BE(height, 20);
  return Buffer.concat([header, Buffer.alloc(100, 7)]);
}

beforeAll(async () => {
  fake = await startFakeBotApi({ port: 0, webhookRetryMs: 50 });
});

afterEach(async () => {
  for (const bot of running.splice(0)) if (bot.isRunning()) await bot.stop().catch(() => {});
});

afterAll(async () => {
  await fake.close();
});

describe('answers like Telegram', () => {
  it('getMe tells grammY who the bot is', async () => {
    const { token, bot } = newBot();
    await bot.init();
    expect(bot.botInfo.username).toBe(`shop${counter}_bot`);
    expect(bot.botInfo.is_bot).toBe(true);
    expect(bot.botInfo.id).toBe(Number(token.split(':')[0]));
  });

  it('refuses an unknown token with 401 Unauthorized', async () => {
    const stranger = new Bot('123456:not-a-real-token', { client: { apiRoot: fake.url } });
    const error = await stranger.api.getMe().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GrammyError);
    expect((error as GrammyError).error_code).toBe(401);
    expect((error as GrammyError).description).toBe('Unauthorized');
    const response = await raw('123456:not-a-real-token', 'getMe');
    expect(response).toEqual({ status: 401, body: { ok: false, error_code: 401, description: 'Unauthorized' } });
  });

  it('answers 404 Not Found for an unknown method, and matches method names in any case', async () => {
    const { token } = newBot();
    expect(await raw(token, 'sendTelepathy')).toEqual({ status: 404, body: { ok: false, error_code: 404, description: 'Not Found' } });
    const lower = await raw(token, 'getme');
    expect(lower.status).toBe(200);
    expect((lower.body.result as { username: string }).username).toBe(`shop${counter}_bot`);
  });

  it('takes parameters as a query string, urlencoded form, JSON or multipart', async () => {
    const { token, bot } = newBot();
    fake.sendUserMessage(token, { from: ann, text: 'hi' });
    const markup = JSON.stringify({ inline_keyboard: [[{ text: 'Go', callback_data: 'go' }]] });

    const viaQuery = await raw(token, 'sendMessage', { query: `chat_id=${ann.id}&text=from+query` });
    const viaForm = await raw(token, 'sendMessage', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ chat_id: String(ann.id), text: 'from form', reply_markup: markup }).toString(),
    });
    const viaJson = await raw(token, 'sendMessage', json({ chat_id: ann.id, text: 'from json' }));
    const viaMultipart = await bot.api.sendPhoto(ann.id, new InputFile(png(10, 10), 'dot.png'), { caption: 'from multipart' });

    expect((viaQuery.body.result as { text: string }).text).toBe('from query');
    expect(viaForm.body.result).toMatchObject({ text: 'from form', reply_markup: { inline_keyboard: [[{ text: 'Go', callback_data: 'go' }]] } });
    expect((viaJson.body.result as { text: string }).text).toBe('from json');
    expect(viaMultipart.caption).toBe('from multipart');
    expect(fake.botMessages(token, ann.id).map((m) => m.text ?? m.caption)).toEqual(['from query', 'from form', 'from json', 'from multipart']);
  });
});

describe('long polling', () => {
  it('delivers /start with its payload to a polling grammY bot, and stop() confirms it', async () => {
    const { token, bot } = newBot();
    bot.command('start', (ctx) => ctx.reply(`payload: ${ctx.match}`));
    await startPolling(bot, token);

    const update = fake.sendUserMessage(token, { from: ann, text: '/start promo42' });
    expect(update.message?.entities).toEqual([{ type: 'bot_command', offset: 0, length: 6 }]);
    const reply = await fake.waitForBotMessage(token, ann.id);
    expect(reply.text).toBe('payload: promo42');
    expect(reply.chat).toMatchObject({ id: ann.id, type: 'private', first_name: 'Ann' });

    await bot.stop();
    const state = fake.botState(token);
    expect(state.polling).toBe(false);
    expect(state.pending_update_count).toBe(0);
  });

  it('holds getUpdates open until an update arrives, or answers [] when the timeout ends', async () => {
    const { token } = newBot();
    let started = Date.now();
    const empty = await raw(token, 'getUpdates', json({ timeout: 1 }));
    expect(empty.body).toEqual({ ok: true, result: [] });
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);

    started = Date.now();
    const waiting = raw(token, 'getUpdates', json({ timeout: 10 }));
    await fake.waitForBotState(token, (s) => s.polling);
    fake.sendUserMessage(token, { from: ann, text: 'hello' });
    const got = await waiting;
    expect(Date.now() - started).toBeLessThan(3000);
    expect((got.body.result as Update[]).map((u) => u.message?.text)).toEqual(['hello']);
  });

  it('keeps updates until an offset above them confirms them; limit and negative offsets work', async () => {
    const { token } = newBot();
    for (const text of ['one', 'two', 'three']) fake.sendUserMessage(token, { from: ann, text });
    const texts = (r: { body: Record<string, unknown> }) => (r.body.result as Update[]).map((u) => u.message?.text);

    const all = await raw(token, 'getUpdates', json({}));
    const ids = (all.body.result as Update[]).map((u) => u.update_id);
    expect(texts(all)).toEqual(['one', 'two', 'three']);
    expect(ids[1]).toBe(ids[0] + 1);
    expect(texts(await raw(token, 'getUpdates', json({})))).toEqual(['one', 'two', 'three']); // not confirmed yet
    expect(texts(await raw(token, 'getUpdates', json({ limit: 1 })))).toEqual(['one']);
    expect(texts(await raw(token, 'getUpdates', json({ offset: ids[1] })))).toEqual(['two', 'three']);
    expect(texts(await raw(token, 'getUpdates', json({})))).toEqual(['two', 'three']); // "one" is gone for good
    expect(texts(await raw(token, 'getUpdates', json({ offset: -1 })))).toEqual(['three']);
    expect(texts(await raw(token, 'getUpdates', json({ offset: ids[2] + 1 })))).toEqual([]);
  });

  it('filters by allowed_updates: a bot that asked only for messages gets no button presses', async () => {
    const { token, bot } = newBot();
    fake.sendUserMessage(token, { from: ann, text: 'hi' });
    const sent = await bot.api.sendMessage(ann.id, 'Pick', { reply_markup: new InlineKeyboard().text('A', 'a') });
    const first = await raw(token, 'getUpdates', json({ allowed_updates: ['message'] }));
    const lastId = (first.body.result as Update[]).at(-1)!.update_id;

    fake.pressButton(token, { from: ann, message_id: sent.message_id, callback_data: 'a' });
    fake.sendUserMessage(token, { from: ann, text: 'after' });
    const next = await raw(token, 'getUpdates', json({ offset: lastId + 1 }));
    expect((next.body.result as Update[]).map((u) => Object.keys(u)[1])).toEqual(['message']);
    expect((next.body.result as Update[])[0].update_id).toBe(lastId + 1); // a filtered update takes no id

    await raw(token, 'getUpdates', json({ offset: lastId + 2, allowed_updates: [] }));
    fake.pressButton(token, { from: ann, message_id: sent.message_id, callback_data: 'a' });
    const again = await raw(token, 'getUpdates', json({}));
    expect((again.body.result as Update[]).map((u) => u.callback_query?.data)).toEqual(['a']);
  });

  it('ends an older long poll with 409 Conflict when a second one starts', async () => {
    const { token } = newBot();
    const first = raw(token, 'getUpdates', json({ timeout: 20 }));
    await fake.waitForBotState(token, (s) => s.polling);
    await raw(token, 'getUpdates', json({ timeout: 0 }));
    expect(await first).toEqual({
      status: 409,
      body: {
        ok: false,
        error_code: 409,
        description: 'Conflict: terminated by other getUpdates request; make sure that only one bot instance is running',
      },
    });
  });
});

describe('webhooks', () => {
  let server: Server;
  let hookUrl: string;
  const received: Array<{ secret: string | undefined; update: Update }> = [];
  let answers: Array<(res: ServerResponse) => void> = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        received.push({ secret: req.headers['x-telegram-bot-api-secret-token'] as string | undefined, update: JSON.parse(body) as Update });
        const answer = answers.shift();
        if (answer) answer(res);
        else res.end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    hookUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  afterEach(() => {
    received.length = 0;
    answers = [];
  });

  it('POSTs updates to the webhook with the secret header, and refuses getUpdates meanwhile', async () => {
    const { token, bot } = newBot();
    await bot.api.setWebhook(hookUrl, { secret_token: 's3cret_-X' });
    const info = await bot.api.getWebhookInfo();
    expect(info).toMatchObject({ url: hookUrl, pending_update_count: 0 });

    const error = await bot.api.getUpdates().catch((e: unknown) => e);
    expect((error as GrammyError).error_code).toBe(409);
    expect((error as GrammyError).description).toBe(
      "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first",
    );

    fake.sendUserMessage(token, { from: ann, text: 'via webhook' });
    await fake.waitForBotState(token, (s) => s.pending_update_count === 0);
    expect(received).toHaveLength(1);
    expect(received[0].secret).toBe('s3cret_-X');
    expect(received[0].update.message?.text).toBe('via webhook');

    await bot.api.deleteWebhook();
    expect((await bot.api.getWebhookInfo()).url).toBe('');
    fake.sendUserMessage(token, { from: ann, text: 'polled' });
    expect((await bot.api.getUpdates()).map((u) => u.message?.text)).toEqual(['polled']);
  });

  it('retries a failing webhook until it answers 2xx, and reports the last error', async () => {
    const { token, bot } = newBot();
    const fail = (res: ServerResponse) => {
      res.statusCode = 500;
      res.end('boom');
    };
    answers = [fail, fail];
    await bot.api.setWebhook(hookUrl);
    fake.sendUserMessage(token, { from: ann, text: 'persist' });
    await fake.waitForBotState(token, (s) => s.pending_update_count === 0);
    expect(received.map((r) => r.update.message?.text)).toEqual(['persist', 'persist', 'persist']);
    const info = await bot.api.getWebhookInfo();
    expect(info.last_error_message).toBe('Wrong response from the webhook: 500 Internal Server Error');
    expect(info.last_error_date).toBeGreaterThan(0);
  });

  it('runs a Bot API call the webhook puts in its response body', async () => {
    const { token, bot } = newBot();
    answers = [
      (res) => {
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ method: 'sendMessage', chat_id: ann.id, text: 'answered in the response' }));
      },
    ];
    await bot.api.setWebhook(hookUrl);
    fake.sendUserMessage(token, { from: ann, text: 'hi' });
    const reply = await fake.waitForBotMessage(token, ann.id);
    expect(reply.text).toBe('answered in the response');
  });
});

describe('sending messages', () => {
  it('parses parse_mode HTML into entities, and refuses broken HTML the way Telegram does', async () => {
    const { token, bot } = newBot();
    fake.sendUserMessage(token, { from: ann, text: 'hi' });
    const sent = await bot.api.sendMessage(ann.id, '<b>Hi</b> <a href="https://example.com/x">there</a> &amp; <i>you</i>', { parse_mode: 'HTML' });
    expect(sent.text).toBe('Hi there & you');
    expect(sent.entities).toEqual([
      { type: 'bold', offset: 0, length: 2 },
      { type: 'text_link', offset: 3, length: 5, url: 'https://example.com/x' },
      { type: 'italic', offset: 11, length: 3 },
    ]);
    const broken = await bot.api.sendMessage(ann.id, '<b>Hi', { parse_mode: 'HTML' }).catch((e: unknown) => e);
    expect((broken as GrammyError).description).toBe(`Bad Request: can't parse entities: Can't find end tag corresponding to start tag "b"`);
    const unknownTag = await bot.api.sendMessage(ann.id, 'x <p>y</p>', { parse_mode: 'HTML' }).catch((e: unknown) => e);
    expect((unknownTag as GrammyError).description).toBe(`Bad Request: can't parse entities: Unsupported start tag "p" at byte offset 2`);
  });

  it('refuses empty and too long texts, captions over 1024 characters and unknown chats', async () => {
    const { token, bot } = newBot();
    fake.sendUserMessage(token, { from: ann, text: 'hi' });
    const failure = (p: Promise<unknown>) => p.then(() => 'sent', (e: GrammyError) => `${e.error_code} ${e.description}`);
    expect(await failure(bot.api.sendMessage(ann.id, '   '))).toBe('400 Bad Request: message text is empty');
    expect(await failure(bot.api.sendMessage(ann.id, 'x'.repeat(4097)))).toBe('400 Bad Request: message is too long');
    expect(await failure(bot.api.sendMessage(ann.id, 'x'.repeat(4096)))).toBe('sent');
    expect(await failure(bot.api.sendPhoto(ann.id, new InputFile(png(5, 5)), { caption: 'c'.repeat(1025) }))).toBe(
      '400 Bad Request: message caption is too long',
    );
    expect(await failure(bot.api.sendMessage(999_999, 'anyone?'))).toBe('400 Bad Request: chat not found');
  });

  it('stores uploaded photos: file_id reuse, getFile and download give the same picture', async () => {
    const { token, bot } = newBot();
    fake.sendUserMessage(token, { from: ann, text: 'hi' });
    const picture = png(640, 480);
    const keyboard = new InlineKeyboard().url('Shop', 'https://example.com/shop');
    const sent = await bot.api.sendPhoto(ann.id, new InputFile(picture, 'cat.png'), { caption: 'A cat', reply_markup: keyboard });
    const largest = sent.photo!.at(-1)!;
    expect(largest).toMatchObject({ width: 640, height: 480, file_size: picture.length });
    expect(sent.reply_markup).toEqual({ inline_keyboard: [[{ text: 'Shop', url: 'https://example.com/shop' }]] });

    const again = await bot.api.sendPhoto(ann.id, largest.file_id);
    expect(again.photo!.at(-1)!.file_id).toBe(largest.file_id);

    const file = await bot.api.getFile(largest.file_id);
    const download = await fetch(`${fake.url}/file/bot${token}/${file.file_path}`);
    expect(Buffer.from(await download.arrayBuffer()).equals(picture)).toBe(true);

    const wrong = await bot.api.sendPhoto(ann.id, 'AgACAgIAAxkBAAnope').catch((e: GrammyError) => e.description);
    expect(wrong).toBe('Bad Request: wrong file identifier/HTTP URL specified');
  });

  it('sends videos by upload or URL, and will not send a video file_id as a photo', async () => {
    const { token, bot } = newBot();
    fake.sendUserMessage(token, { from: ann, text: 'hi' });
    const uploaded = await bot.api.sendVideo(ann.id, new InputFile(Buffer.alloc(2048, 1), 'clip.mp4'), { duration: 7, caption: 'Watch' });
    expect(uploaded.video).toMatchObject({ duration: 7, file_size: 2048, file_name: 'clip.mp4' });
    expect(uploaded.caption).toBe('Watch');
    const byUrl = await bot.api.sendVideo(ann.id, 'https://cdn.example.com/intro.mp4');
    expect(byUrl.video?.file_id).toBeTruthy();
    const mixedUp = await bot.api.sendPhoto(ann.id, uploaded.video!.file_id).catch((e: GrammyError) => e.description);
    expect(mixedUp).toBe("Bad Request: can't use file of type Video as Photo");
  });

  it('runs a button round trip: press → callback answer, edited keyboard, next message', async () => {
    const { token, bot } = newBot();
    bot.command('start', (ctx) => ctx.reply('Stage 1', { reply_markup: new InlineKeyboard().text('Next ›', 'next') }));
    bot.callbackQuery('next', async (ctx) => {
      await ctx.answerCallbackQuery({ text: 'Moving on' });
      await ctx.editMessageReplyMarkup();
      await ctx.reply('Stage 2');
    });
    await startPolling(bot, token);

    fake.sendUserMessage(token, { from: ann, text: '/start' });
    const stage1 = await fake.waitForBotMessage(token, ann.id);
    expect(stage1.reply_markup?.inline_keyboard[0][0]).toEqual({ text: 'Next ›', callback_data: 'next' });

    const press = fake.pressButton(token, { from: ann, message_id: stage1.message_id, callback_data: 'next' });
    expect(press.callback_query?.message?.message_id).toBe(stage1.message_id);
    expect(await fake.waitForCallbackAnswer(token, press.callback_query!.id)).toMatchObject({ text: 'Moving on' });
    expect((await fake.waitForBotMessage(token, ann.id)).text).toBe('Stage 2');

    const [first] = fake.botMessages(token, ann.id);
    expect(first.reply_markup).toBeUndefined();
    expect(first.edit_date).toBeGreaterThan(0);
    const late = await bot.api.answerCallbackQuery(press.callback_query!.id).catch((e: GrammyError) => e.description);
    expect(late).toBe('Bad Request: query is too old and response timeout expired or query ID is invalid');
    expect(() => fake.pressButton(token, { from: ann, message_id: stage1.message_id, callback_data: 'next' })).toThrow(/no button/);
  });

  it('edits and deletes like Telegram, with its errors for no-op edits and missing messages', async () => {
    const { token, bot } = newBot();
    const userMessage = fake.sendUserMessage(token, { from: ann, text: 'hi' }).message!;
    const sent = await bot.api.sendMessage(ann.id, 'Draft');
    const edited = await bot.api.editMessageText(ann.id, sent.message_id, 'Final');
    expect(edited).toMatchObject({ text: 'Final', message_id: sent.message_id });
    const noop = await bot.api.editMessageText(ann.id, sent.message_id, 'Final').catch((e: GrammyError) => e.description);
    expect(noop).toMatch(/^Bad Request: message is not modified/);
    const notMine = await bot.api.editMessageText(ann.id, userMessage.message_id, 'x').catch((e: GrammyError) => e.description);
    expect(notMine).toBe("Bad Request: message can't be edited");

    expect(await bot.api.deleteMessage(ann.id, sent.message_id)).toBe(true);
    expect(fake.botMessages(token, ann.id)).toEqual([]);
    const twice = await bot.api.deleteMessage(ann.id, sent.message_id).catch((e: GrammyError) => e.description);
    expect(twice).toBe('Bad Request: message to delete not found');
    const gone = await bot.api.editMessageText(ann.id, sent.message_id, 'x').catch((e: GrammyError) => e.description);
    expect(gone).toBe('Bad Request: message to edit not found');
  });
});

describe('bot settings', () => {
  it('keeps descriptions and short descriptions per language, within Telegram limits', async () => {
    const { bot } = newBot();
    await bot.api.setMyDescription('Sells courses');
    await bot.api.setMyDescription('Продаёт курсы', { language_code: 'ru' });
    await bot.api.setMyShortDescription('Courses');
    expect((await bot.api.getMyDescription()).description).toBe('Sells courses');
    expect((await bot.api.getMyDescription({ language_code: 'ru' })).description).toBe('Продаёт курсы');
    expect((await bot.api.getMyShortDescription()).short_description).toBe('Courses');
    expect(await bot.api.setMyDescription('d'.repeat(512))).toBe(true);
    expect(await bot.api.setMyDescription('d'.repeat(513)).catch((e: GrammyError) => e.error_code)).toBe(400);
    expect(await bot.api.setMyShortDescription('s'.repeat(121)).catch((e: GrammyError) => e.error_code)).toBe(400);
  });

  it('keeps commands per language and the menu button per chat or for everyone', async () => {
    const { token, bot } = newBot();
    fake.sendUserMessage(token, { from: ann, text: 'hi' });
    await bot.api.setMyCommands([{ command: 'start', description: 'Open' }]);
    await bot.api.setMyCommands([{ command: 'start', description: 'Открыть' }], { language_code: 'ru' });
    expect(await bot.api.getMyCommands()).toEqual([{ command: 'start', description: 'Open' }]);
    expect(await bot.api.getMyCommands({ language_code: 'ru' })).toEqual([{ command: 'start', description: 'Открыть' }]);
    expect(await bot.api.setMyCommands([{ command: 'Bad Command', description: 'x' }]).catch((e: GrammyError) => e.description)).toBe(
      'Bad Request: BOT_COMMAND_INVALID',
    );

    expect(await bot.api.getChatMenuButton()).toEqual({ type: 'commands' });
    const app = { type: 'web_app' as const, text: 'Open', web_app: { url: 'https://app.example.com/' } };
    await bot.api.setChatMenuButton({ menu_button: app });
    await bot.api.setChatMenuButton({ chat_id: ann.id, menu_button: { ...app, text: 'Открыть' } });
    expect(await bot.api.getChatMenuButton()).toEqual(app);
    expect(await bot.api.getChatMenuButton({ chat_id: ann.id })).toEqual({ ...app, text: 'Открыть' });
    expect(fake.botState(token).default_menu_button).toEqual(app);
  });
});

describe('trouble a bot meets', () => {
  it('a person who blocked the bot: 403 on sends, my_chat_member updates, writing again unblocks', async () => {
    const { token, bot } = newBot();
    fake.sendUserMessage(token, { from: ann, text: 'hi' });
    const blockedUpdate = fake.setBlocked(token, ann.id, true);
    expect(blockedUpdate?.my_chat_member?.new_chat_member.status).toBe('kicked');

    const error = await bot.api.sendMessage(ann.id, 'still there?').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GrammyError);
    expect((error as GrammyError).error_code).toBe(403);
    expect((error as GrammyError).description).toBe('Forbidden: bot was blocked by the user');

    fake.sendUserMessage(token, { from: ann, text: '/start' });
    const updates = await bot.api.getUpdates();
    expect(updates.map((u) => u.my_chat_member?.new_chat_member.status ?? u.message?.text)).toEqual(['hi', 'kicked', 'member', '/start']);
    expect((await bot.api.sendMessage(ann.id, 'welcome back')).text).toBe('welcome back');
  });

  it('a revoked token: every call gets 401 and a polling grammY bot stops with it', async () => {
    const { token, bot } = newBot();
    const { done } = await startPolling(bot, token);
    fake.revokeToken(token);
    const stopped = await done.then(() => 'ended', (e: GrammyError) => `${e.error_code} ${e.description}`);
    expect(stopped).toBe('401 Unauthorized');
    expect(await bot.api.getMe().catch((e: GrammyError) => e.error_code)).toBe(401);
  });

  it('a rate limit: 429 with retry_after, which the auto-retry plugin waits out', async () => {
    const { token, bot } = newBot();
    fake.sendUserMessage(token, { from: ann, text: 'hi' });
    fake.rateLimit(token, { calls: 1, retryAfter: 1 });
    const error = (await bot.api.sendMessage(ann.id, 'too fast').catch((e: unknown) => e)) as GrammyError;
    expect(error.error_code).toBe(429);
    expect(error.description).toBe('Too Many Requests: retry after 1');
    expect(error.parameters.retry_after).toBe(1);

    bot.api.config.use(autoRetry());
    fake.rateLimit(token, { calls: 1, retryAfter: 1 });
    const started = Date.now();
    const sent = await bot.api.sendMessage(ann.id, 'patient');
    expect(sent.text).toBe('patient');
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(fake.calls(token, 'sendMessage').map((c) => c.error_code ?? 'ok')).toEqual([429, 429, 'ok']);
  });

  it('any injected failure, for the methods named', async () => {
    const { token, bot } = newBot();
    fake.failNextCalls(token, { count: 1, error_code: 502, description: 'Bad Gateway', methods: ['getMe'] });
    expect(await bot.api.getMe().catch((e: GrammyError) => `${e.error_code} ${e.description}`)).toBe('502 Bad Gateway');
    expect((await bot.api.getMe()).id).toBe(Number(token.split(':')[0]));
  });
});

describe('control API over HTTP and the page', () => {
  const control = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${fake.url}/control${path}`, {
      method,
      ...(body ? { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) } : {}),
    });
    return { status: response.status, body: (await response.json()) as { ok: boolean; result?: never; description?: string } };
  };

  it('creates a bot, plays a person and reads the chat back', async () => {
    const created = await control('POST', '/bots', { username: 'http_demo_bot', first_name: 'Demo' });
    expect(created.status).toBe(201);
    const token = (created.body.result as unknown as { token: string }).token;
    expect(token).toMatch(/^\d+:[A-Za-z0-9_-]+$/);
    const bot = new Bot(token, { client: { apiRoot: fake.url } });
    expect((await bot.api.getMe()).username).toBe('http_demo_bot');

    const t = encodeURIComponent(token);
    const sent = await control('POST', `/bots/${t}/messages`, { from: ann, text: '/start' });
    expect(sent.body.ok).toBe(true);
    await bot.api.sendMessage(ann.id, 'Welcome', { reply_markup: new InlineKeyboard().text('Go', 'go') });
    const pressed = await control('POST', `/bots/${t}/callback-queries`, { from: ann, message_id: 2, callback_data: 'go' });
    expect(pressed.body.ok).toBe(true);

    const chat = await control('GET', `/bots/${t}/chats/${ann.id}`);
    const snapshot = chat.body.result as unknown as { chat: { entries: Array<{ from_bot: boolean; message: { text: string } }> } };
    expect(snapshot.chat.entries.map((e) => [e.from_bot, e.message.text])).toEqual([
      [false, '/start'],
      [true, 'Welcome'],
    ]);
    expect((await bot.api.getUpdates()).map((u) => u.message?.text ?? u.callback_query?.data)).toEqual(['/start', 'go']);

    const refused = await control('POST', '/bots', { username: 'no_suffix' });
    expect(refused).toMatchObject({ status: 400, body: { ok: false } });
    expect(refused.body.description).toMatch(/end in "bot"/);
  });

  it('opens a Mini App with init data signed for the bot, as a Telegram client does', async () => {
    const { token } = newBot();
    const response = await control('POST', `/bots/${encodeURIComponent(token)}/web-app-url`, { url: 'http://127.0.0.1:3000/', from: ann });
    const launch = new URL(response.body.result as unknown as string);
    const initData = new URLSearchParams(new URLSearchParams(launch.hash.slice(1)).get('tgWebAppData')!);
    const hash = initData.get('hash');
    initData.delete('hash');
    const checkString = [...initData.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([k, v]) => `${k}=${v}`).join('\n');
    const secret = createHmac('sha256', 'WebAppData').update(token).digest();
    expect(createHmac('sha256', secret).update(checkString).digest('hex')).toBe(hash);
    expect(JSON.parse(initData.get('user')!)).toMatchObject({ id: ann.id, first_name: 'Ann' });
  });

  it('serves the subscriber page at /', async () => {
    const response = await fetch(`${fake.url}/`);
    expect(response.headers.get('content-type')).toContain('text/html');
    const html = await response.text();
    expect(html).toContain('<title>Fake Telegram</title>');
    expect(html).toContain('/control/bots');
  });

  it('says what the bot did send when waitForBotMessage times out', async () => {
    const { token, bot } = newBot();
    fake.sendUserMessage(token, { from: ann, text: 'hi' });
    await bot.api.sendMessage(ann.id, 'not this one');
    await bot.api.sendMessage(4242, 'nobody').catch(() => {});
    const error = await fake
      .waitForBotMessage(token, ann.id, { since: 'any', predicate: (m) => m.text === 'that one', timeoutMs: 100 })
      .catch((e: Error) => e.message);
    expect(error).toContain('"not this one"');
    expect(error).toContain('sendMessage → 400 Bad Request: chat not found');
  });
});

describe("Telegram's sending limits", () => {
  /** People who pressed /start, so the bot may write to them. */
  function subscribers(token: string, count: number, from = 90_000): number[] {
    const ids: number[] = [];
    for (let i = 0; i < count; i++) {
      fake.sendUserMessage(token, { from: { id: from + i, first_name: `P${i}` }, text: '/start' });
      ids.push(from + i);
    }
    return ids;
  }
  const send = (token: string, chatId: number, extra: Record<string, unknown> = {}) => raw(token, 'sendMessage', json({ chat_id: chatId, text: 'Hi', ...extra }));

  it('answers the 31st message of a second with 429 and retry_after, and takes it after the wait', async () => {
    const { token } = newBot();
    const people = subscribers(token, 31);
    const answers = await Promise.all(people.map((id) => send(token, id)));
    const refused = answers.filter((a) => a.status === 429);
    expect(refused).toHaveLength(1);
    expect(refused[0].body).toMatchObject({ ok: false, error_code: 429, parameters: { retry_after: 1 } });
    const stats = fake.limitStats(token);
    expect(stats.too_many_requests).toBe(1);
    expect(stats.max_per_second).toBeLessThanOrEqual(30);
    expect(Object.values(stats.per_second).reduce((a, b) => a + b, 0)).toBe(30);
    const refusedChat = people[answers.indexOf(refused[0])];
    expect(fake.botMessages(token, refusedChat)).toHaveLength(0);
    await new Promise((resolve) => setTimeout(resolve, 1050));
    expect((await send(token, refusedChat)).status).toBe(200);
    expect(fake.botMessages(token, refusedChat)).toHaveLength(1);
  });

  it('allows a short burst in one chat, then 429', async () => {
    const { token } = newBot();
    const [chat] = subscribers(token, 1, 91_000);
    const statuses = [];
    for (let i = 0; i < 6; i++) statuses.push((await send(token, chat)).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
  });

  it('lets an eligible bot burst with allow_paid_broadcast and counts the Stars; refuses one that is not', async () => {
    const { token } = newBot();
    const people = subscribers(token, 100, 92_000);
    expect((await send(token, people[0], { allow_paid_broadcast: true })).body).toMatchObject({ ok: false, error_code: 400 });
    fake.setPaidBroadcastEligible(token, true);
    const answers = await Promise.all(people.map((id) => send(token, id, { allow_paid_broadcast: true })));
    expect(answers.every((a) => a.status === 200)).toBe(true);
    expect(fake.limitStats(token)).toMatchObject({ paid_messages: 70, stars_spent: 7, too_many_requests: 0 });
  });

  it('deletes a message for 48 hours only', async () => {
    const { token } = newBot();
    const [chat] = subscribers(token, 1, 93_000);
    const first = (await send(token, chat)).body.result as { message_id: number };
    expect((await raw(token, 'deleteMessage', json({ chat_id: chat, message_id: first.message_id }))).body).toEqual({ ok: true, result: true });
    const second = (await send(token, chat)).body.result as { message_id: number };
    fake.ageMessages(token, 48 * 3600 + 60);
    expect((await raw(token, 'deleteMessage', json({ chat_id: chat, message_id: second.message_id }))).body).toMatchObject({
      ok: false,
      error_code: 400,
      description: "Bad Request: message can't be deleted for everyone",
    });
  });
});

describe('a state file (--state), as npm run dev:telegram uses', () => {
  it('keeps bots, chats, messages and the update offset across a restart', async () => {
    const stateFile = path.join(mkdtempSync(path.join(tmpdir(), 'fake-telegram-')), 'data', 'fake-telegram.json');
    const first = await startFakeBotApi({ port: 0, stateFile });
    const { token } = first.addBot({ username: 'kept_bot' });
    const get = async (api: FakeBotApi, body: Record<string, unknown>) => {
      const response = await fetch(`${api.url}/bot${token}/getUpdates`, json(body));
      return ((await response.json()) as { result: Update[] }).result;
    };
    first.sendUserMessage(token, { from: ann, text: '/start' });
    const [start] = await get(first, {});
    await fetch(`${first.url}/bot${token}/sendMessage`, json({ chat_id: ann.id, text: 'Welcome, Ann' }));
    await get(first, { offset: start.update_id + 1 }); // confirms /start
    first.sendUserMessage(token, { from: ann, text: 'still waiting' });
    await first.close();

    const second = await startFakeBotApi({ port: 0, stateFile });
    try {
      expect(second.listBots().map((bot) => bot.username)).toEqual(['kept_bot']);
      expect(second.chatMessages(token, ann.id).map((entry) => [entry.from_bot, entry.message.text])).toEqual([
        [false, '/start'],
        [true, 'Welcome, Ann'],
        [false, 'still waiting'],
      ]);
      // The confirmed update stays confirmed; the one not yet taken is still there, numbered on.
      const pending = await get(second, {});
      expect(pending.map((update) => [update.update_id, update.message?.text])).toEqual([[start.update_id + 1, 'still waiting']]);
      // A change made now survives the next restart too (saved without waiting for close).
      second.sendUserMessage(token, { from: ann, text: 'after the restart' });
      await eventually(() => readFileSync(stateFile, 'utf8'), (saved) => saved.includes('after the restart'), 'the new message in the state file');
    } finally {
      await second.close();
    }
  });
});

describe('Stars payments, with Telegram’s rules', () => {
  const invoice = (overrides: Record<string, unknown> = {}) => ({
    title: 'Pro',
    description: 'Pro plan for 30 days',
    payload: 'plan:1',
    provider_token: '',
    currency: 'XTR',
    prices: [{ label: 'Pro', amount: 250 }],
    subscription_period: STAR_SUBSCRIPTION_PERIOD_S,
    ...overrides,
  });

  /** A polling bot that answers every pre_checkout_query with `answer` and keeps what it is told. */
  async function payingBot(answer: (query: { invoice_payload: string }) => { ok: true } | { ok: false; error_message: string }) {
    const { token, bot } = newBot();
    const payments: SuccessfulPayment[] = [];
    const refunds: RefundedPayment[] = [];
    bot.on('pre_checkout_query', async (ctx) => {
      const decision = answer(ctx.preCheckoutQuery);
      await (decision.ok ? ctx.answerPreCheckoutQuery(true) : ctx.answerPreCheckoutQuery(false, { error_message: decision.error_message }));
    });
    bot.on('message:successful_payment', (ctx) => void payments.push(ctx.message.successful_payment));
    bot.on('message:refunded_payment', (ctx) => void refunds.push(ctx.message.refunded_payment));
    await startPolling(bot, token);
    return { token, bot, payments, refunds };
  }

  it('createInvoiceLink: a Stars subscription gives a t.me/$ link; Telegram’s refusals otherwise', async () => {
    const { token } = newBot();
    const ok = await raw(token, 'createInvoiceLink', json(invoice()));
    expect(ok.body.result).toMatch(/^https:\/\/t\.me\/\$[A-Za-z0-9_-]+$/);
    const refusals: Array<[Record<string, unknown>, string]> = [
      [{ provider_token: 'stripe:123' }, 'Bad Request: PAYMENT_PROVIDER_INVALID'],
      [{ prices: [{ label: 'a', amount: 100 }, { label: 'b', amount: 150 }] }, 'Bad Request: STARS_INVOICE_INVALID'],
      [{ payload: 'x'.repeat(129) }, 'Bad Request: INVOICE_PAYLOAD_INVALID'],
      [{ payload: '' }, 'Bad Request: INVOICE_PAYLOAD_INVALID'],
      [{ subscription_period: 86_400 }, 'Bad Request: SUBSCRIPTION_PERIOD_INVALID'],
      [{ prices: [{ label: 'Pro', amount: STAR_SUBSCRIPTION_MAX_PRICE + 1 }] }, 'Bad Request: CURRENCY_TOTAL_AMOUNT_INVALID'],
    ];
    for (const [overrides, description] of refusals) {
      const refused = await raw(token, 'createInvoiceLink', json(invoice(overrides)));
      expect({ overrides, status: refused.status, description: refused.body.description }).toEqual({ overrides, status: 400, description });
    }
    // 128 bytes of payload (64 two-byte letters) is still fine.
    expect((await raw(token, 'createInvoiceLink', json(invoice({ payload: 'я'.repeat(64) })))).status).toBe(200);
  });

  it('pays: pre_checkout_query, then successful_payment; renews; stops renewing once cancelled', async () => {
    const { token, bot, payments } = await payingBot(() => ({ ok: true }));
    const link = await bot.api.createInvoiceLink('Pro', 'Pro plan', 'plan:1', '', 'XTR', [{ label: 'Pro', amount: 250 }], {
      subscription_period: STAR_SUBSCRIPTION_PERIOD_S,
    });
    const before = Math.floor(Date.now() / 1000);
    const paid = await fake.payInvoice({ link, userId: ann.id });
    expect(paid).toEqual({ status: 'paid', chargeId: expect.any(String) });
    await eventually(() => payments, (seen) => seen.length === 1, 'the successful_payment');
    expect(payments[0]).toMatchObject({
      currency: 'XTR',
      total_amount: 250,
      invoice_payload: 'plan:1',
      telegram_payment_charge_id: paid.chargeId,
      is_recurring: true,
      is_first_recurring: true,
    });
    const firstExpiry = payments[0].subscription_expiration_date!;
    expect(firstExpiry - before).toBeGreaterThanOrEqual(STAR_SUBSCRIPTION_PERIOD_S);
    expect(firstExpiry - before).toBeLessThan(STAR_SUBSCRIPTION_PERIOD_S + 60);

    const renewed = fake.renewSubscription({ chargeId: paid.chargeId! });
    expect(renewed.status).toBe('paid');
    expect(renewed.chargeId).not.toBe(paid.chargeId);
    await eventually(() => payments, (seen) => seen.length === 2, 'the renewal');
    expect(payments[1]).toMatchObject({ telegram_payment_charge_id: renewed.chargeId, is_recurring: true, subscription_expiration_date: firstExpiry + STAR_SUBSCRIPTION_PERIOD_S });
    expect(payments[1].is_first_recurring).toBeUndefined();

    await expect(bot.api.editUserStarSubscription(ann.id, 'stxnosuchcharge', true)).rejects.toThrow('SUBSCRIPTION_NOT_FOUND');
    expect(await bot.api.editUserStarSubscription(ann.id, paid.chargeId!, true)).toBe(true);
    expect(fake.starSubscription(paid.chargeId!)).toMatchObject({ canceled: true, ended: false });
    expect(fake.renewSubscription({ chargeId: paid.chargeId! })).toEqual({ status: 'failed' });
    expect(fake.calls(token, 'editUserStarSubscription').map((call) => call.ok)).toEqual([false, true]);
  });

  it('a refused pre-checkout fails the payment: no successful_payment', async () => {
    const { token, bot, payments } = await payingBot(() => ({ ok: false, error_message: 'This plan is no longer sold' }));
    const link = await bot.api.createInvoiceLink('Pro', 'Pro plan', 'plan:2', '', 'XTR', [{ label: 'Pro', amount: 100 }]);
    expect(await fake.payInvoice({ link, userId: ann.id })).toEqual({ status: 'failed' });
    // Nothing arrives after the refusal: a later message proves the queue moved on past it.
    fake.sendUserMessage(token, { from: ann, text: 'hello' });
    await fake.waitForBotState(token, (state) => state.pending_update_count === 0);
    expect(payments).toEqual([]);
  });

  it('refundStarPayment: refunded_payment follows, a second refund is refused, the transactions show both ways', async () => {
    const { bot, refunds } = await payingBot(() => ({ ok: true }));
    const link = await bot.api.createInvoiceLink('Pro', 'Pro plan', 'plan:3', '', 'XTR', [{ label: 'Pro', amount: 300 }], {
      subscription_period: STAR_SUBSCRIPTION_PERIOD_S,
    });
    const paid = await fake.payInvoice({ link, userId: ann.id });
    await expect(bot.api.refundStarPayment(ann.id + 1, paid.chargeId!)).rejects.toThrow('USER_ID_INVALID');
    expect(await bot.api.refundStarPayment(ann.id, paid.chargeId!)).toBe(true);
    await eventually(() => refunds, (seen) => seen.length === 1, 'the refunded_payment');
    expect(refunds[0]).toMatchObject({ currency: 'XTR', total_amount: 300, invoice_payload: 'plan:3', telegram_payment_charge_id: paid.chargeId });
    await expect(bot.api.refundStarPayment(ann.id, paid.chargeId!)).rejects.toThrow('CHARGE_ALREADY_REFUNDED');
    // A refunded subscription does not renew.
    expect(fake.renewSubscription({ chargeId: paid.chargeId! })).toEqual({ status: 'failed' });
    const { transactions } = await bot.api.getStarTransactions({ limit: 100 });
    expect(transactions.map((t) => [t.id, t.amount, t.source ? 'in' : 'out'])).toEqual([
      [paid.chargeId, 300, 'in'],
      [paid.chargeId, 300, 'out'],
    ]);
  });

  it('a refund Telegram makes by itself reaches the bot as refunded_payment', async () => {
    const { bot, refunds } = await payingBot(() => ({ ok: true }));
    const link = await bot.api.createInvoiceLink('Pro', 'Pro plan', 'plan:4', '', 'XTR', [{ label: 'Pro', amount: 50 }]);
    const paid = await fake.payInvoice({ link, userId: ann.id });
    fake.refundPayment({ chargeId: paid.chargeId! });
    await eventually(() => refunds, (seen) => seen.length === 1, 'the refunded_payment');
    expect(refunds[0].telegram_payment_charge_id).toBe(paid.chargeId);
  });

  it('sendInvoice: an invoice message in Stars with Telegram’s refusals; the person pays it over HTTP', async () => {
    const { token, bot, payments } = await payingBot((query) => (query.invoice_payload === 'fp:1:2' ? { ok: true } : { ok: false, error_message: 'No' }));
    fake.sendUserMessage(token, { from: ann, text: '/start' });
    const message = (overrides: Record<string, unknown> = {}) => {
      const { subscription_period: _period, ...single } = invoice({ payload: 'fp:1:2', prices: [{ label: 'Course', amount: 500 }] });
      return json({ chat_id: ann.id, ...single, ...overrides });
    };
    const refusals: Array<[Record<string, unknown>, string]> = [
      [{ provider_token: 'stripe:123' }, 'Bad Request: PAYMENT_PROVIDER_INVALID'],
      [{ currency: 'USD' }, 'Bad Request: PAYMENT_PROVIDER_INVALID'],
      [{ prices: [{ label: 'a', amount: 100 }, { label: 'b', amount: 150 }] }, 'Bad Request: STARS_INVOICE_INVALID'],
      [{ prices: [{ label: 'a', amount: 100_001 }] }, 'Bad Request: CURRENCY_TOTAL_AMOUNT_INVALID'],
      [{ prices: [{ label: 'a', amount: 0 }] }, 'Bad Request: CURRENCY_TOTAL_AMOUNT_INVALID'],
      [{ title: 'x'.repeat(33) }, 'Bad Request: INVOICE_TITLE_INVALID'],
      [{ description: 'x'.repeat(256) }, 'Bad Request: INVOICE_DESCRIPTION_INVALID'],
      [{ payload: 'x'.repeat(129) }, 'Bad Request: INVOICE_PAYLOAD_INVALID'],
      [{ subscription_period: STAR_SUBSCRIPTION_PERIOD_S }, 'Bad Request: SUBSCRIPTION_PERIOD_INVALID'],
      [{ chat_id: 999_999 }, 'Bad Request: chat not found'],
    ];
    for (const [overrides, description] of refusals) {
      const refused = await raw(token, 'sendInvoice', message(overrides));
      expect({ overrides, status: refused.status, description: refused.body.description }).toEqual({ overrides, status: 400, description });
    }
    const sent = await raw(token, 'sendInvoice', message());
    expect(sent.status).toBe(200);
    const invoiceMessage = sent.body.result as { message_id: number; invoice: unknown };
    expect(invoiceMessage.invoice).toMatchObject({ title: 'Pro', currency: 'XTR', total_amount: 500 });
    const paying = (messageId: number) =>
      fetch(`${fake.url}/fake/payInvoiceMessage`, json({ token, chat_id: ann.id, message_id: messageId }));
    const paid = (await (await paying(invoiceMessage.message_id)).json()) as { status: string; chargeId: string };
    expect(paid).toEqual({ status: 'paid', chargeId: expect.any(String) });
    await eventually(() => payments, (seen) => seen.length === 1, 'the successful_payment');
    expect(payments[0]).toMatchObject({ currency: 'XTR', total_amount: 500, invoice_payload: 'fp:1:2', telegram_payment_charge_id: paid.chargeId });
    expect(await bot.api.refundStarPayment(ann.id, paid.chargeId)).toBe(true);
    await expect(bot.api.refundStarPayment(ann.id, paid.chargeId)).rejects.toThrow('CHARGE_ALREADY_REFUNDED');
    expect((await paying(invoiceMessage.message_id + 100)).status).toBe(404);
  });

  it('over HTTP: POST /fake/payInvoice and /fake/renewSubscription answer as the in-process calls', async () => {
    const { bot, payments } = await payingBot(() => ({ ok: true }));
    const link = await bot.api.createInvoiceLink('Pro', 'Pro plan', 'plan:5', '', 'XTR', [{ label: 'Pro', amount: 75 }], {
      subscription_period: STAR_SUBSCRIPTION_PERIOD_S,
    });
    const paid = (await (await fetch(`${fake.url}/fake/payInvoice`, json({ link, user_id: ann.id }))).json()) as { status: string; chargeId: string };
    expect(paid).toEqual({ status: 'paid', chargeId: expect.any(String) });
    const renewed = (await (await fetch(`${fake.url}/fake/renewSubscription`, json({ charge_id: paid.chargeId }))).json()) as { status: string };
    expect(renewed.status).toBe('paid');
    await eventually(() => payments, (seen) => seen.length === 2, 'both payments');
    const unknown = await fetch(`${fake.url}/fake/payInvoice`, json({ link: 'https://t.me/$nosuchinvoice', user_id: ann.id }));
    expect(unknown.status).toBe(404);
  });

  it('no answer within the time limit fails the payment, and a late answer is refused', async () => {
    const quick = await startFakeBotApi({ port: 0, preCheckoutTimeoutMs: 300 });
    try {
      const { token } = quick.addBot({ username: 'slow_pay_bot' });
      const link = (await (await fetch(`${quick.url}/bot${token}/createInvoiceLink`, json(invoice()))).json()) as { result: string };
      const paying = quick.payInvoice({ link: link.result, userId: ann.id });
      const updates = async () => ((await (await fetch(`${quick.url}/bot${token}/getUpdates`, json({}))).json()) as { result: Update[] }).result;
      const [update] = await eventually(updates, (list) => list.length === 1, 'the pre_checkout_query');
      expect(update.pre_checkout_query).toMatchObject({ total_amount: 250, currency: 'XTR', invoice_payload: 'plan:1', from: { id: ann.id } });
      expect(await paying).toEqual({ status: 'failed' });
      const late = await fetch(`${quick.url}/bot${token}/answerPreCheckoutQuery`, json({ pre_checkout_query_id: update.pre_checkout_query!.id, ok: true }));
      expect(((await late.json()) as { description: string }).description).toBe(
        'Bad Request: query is too old and response timeout expired or query ID is invalid',
      );
    } finally {
      await quick.close();
    }
  });

  it('a bot whose allowed_updates leave out pre_checkout_query cannot be paid', async () => {
    const { token } = newBot();
    await raw(token, 'getUpdates', json({ allowed_updates: ['message'], timeout: 0 }));
    const link = (await raw(token, 'createInvoiceLink', json(invoice()))).body.result as string;
    expect(await fake.payInvoice({ link, userId: ann.id })).toEqual({ status: 'failed' });
  });
});
