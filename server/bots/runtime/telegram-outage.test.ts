// Telegram unreachable mid-conversation: 502 to every message for 15 s, then connections refused
// for 20 s. Subscribers keep pressing /start and next-step meanwhile. Every update gets its reply
// exactly once, and once Telegram is back the bot answers within a few seconds (not after the
// 16 s its doubling backoff had reached). The refusal lasts 20 s, not 15, because polling's old
// doubling backoff (1 + 2 + 4 + 8 s) happened to try again right at 15 s; at 20 s it is 11 s late.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Message } from 'grammy/types';
import { startFakeBotApi, type FakeBotApi } from '../../../scripts/telegram/fake-bot-api';
import { createTestDb, type TestDb } from '../../test/helpers';
import { createFunnel, createOwner, testRuntime } from '../../test/funnel-runtime';
import { eventually } from '../../test/eventually';
import { POLL_RETRY_MIN_MS } from './funnel-bot';
import type { FunnelRuntime } from './runtime';

const OUTAGE_MS = 15_000;
const REFUSED_MS = 20_000;
/** The first reply after Telegram is back comes within this (the goal is about 5 s). */
const BACK_WITHIN_MS = 8_000;

let fake: FakeBotApi;
let testDb: TestDb;
let runtime: FunnelRuntime | undefined;

beforeAll(async () => {
  fake = await startFakeBotApi();
  testDb = await createTestDb();
});
afterAll(async () => {
  await runtime?.stop();
  await fake?.close();
  await testDb?.drop();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('Telegram unreachable mid-conversation', () => {
  it('502 for 15 s, then refused connections for 20 s: every update is answered once, and within seconds of Telegram coming back', { timeout: 120_000 }, async () => {
    const ownerId = await createOwner(testDb.db);
    const bot = fake.addBot({ username: 'outage_tg_bot' });
    const { token } = bot;
    await createFunnel(testDb.db, { ownerId, token, username: bot.username, stageSpecs: [{ text: 'Welcome', next: 'Go on' }, { text: 'Two', next: null }] });
    // The real backoffs of polling and of replies: the ones under test.
    runtime = testRuntime(testDb.db, fake.url, { pollRetryMinMs: POLL_RETRY_MIN_MS, sendRetryDelaysMs: undefined });
    await runtime.start();
    const person = (id: number) => ({ id, first_name: `P${id}` });
    /** What each person should end with: the texts of the bot's messages, in order. */
    const expected = new Map<number, string[]>();
    const start = (id: number) => {
      fake.sendUserMessage(token, { from: person(id), text: '/start' });
      expected.set(id, ['Welcome']);
    };
    const pressNext = (id: number, welcome: Message) => {
      const data = welcome.reply_markup?.inline_keyboard.flat().find((b) => 'callback_data' in b)?.callback_data;
      if (!data) throw new Error('no next-step button');
      fake.pressButton(token, { from: person(id), message_id: welcome.message_id, callback_data: data });
      expected.set(id, ['Welcome', 'Two']);
    };

    // Before: a conversation under way.
    for (const id of [1, 2, 3, 4]) start(id);
    const welcomes = new Map<number, Message>();
    for (const id of [1, 2, 3, 4]) welcomes.set(id, await fake.waitForBotMessage(token, id));

    // 502 to every message for 15 s: the updates are taken, their replies wait it out.
    fake.failCallsFor(token, { ms: OUTAGE_MS, error_code: 502, description: 'Bad Gateway', methods: ['sendMessage'] });
    pressNext(1, welcomes.get(1)!);
    start(11);
    await sleep(5_000);
    pressNext(2, welcomes.get(2)!);
    start(12);
    await sleep(OUTAGE_MS - 5_000);

    // Then nothing answers (connections refused); people go on pressing.
    const refused = fake.refuseConnectionsFor(REFUSED_MS);
    await sleep(1_000);
    pressNext(3, welcomes.get(3)!);
    start(13);
    await sleep(8_000);
    pressNext(4, welcomes.get(4)!);
    start(14);
    await refused;
    const backAt = Date.now();

    const firstReplyAt = await eventually(
      () => fake.calls(token, 'sendMessage').find((c) => c.ok && c.at >= backAt)?.at,
      (at) => at !== undefined,
      'a reply after Telegram came back',
      30_000,
    );
    const lateMs = firstReplyAt! - backAt;
    console.log(`first reply ${lateMs} ms after Telegram came back`);
    expect(lateMs).toBeLessThan(BACK_WITHIN_MS);

    const texts = (id: number) => fake.botMessages(token, id).map((m) => m.text);
    await eventually(
      () => [...expected].filter(([id, want]) => texts(id).length < want.length).map(([id]) => id),
      (missing) => missing.length === 0,
      'every update answered',
      30_000,
    );
    // Exactly once each: nothing more arrives, nothing twice.
    for (const [id, want] of expected) expect(texts(id), `person ${id}`).toEqual(want);
  });
});
