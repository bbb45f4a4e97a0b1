// Replies while the bot's mailing goes out at its full rate: the reply and the mailing share the
// bot's limiter, and every message, reply or mailing, holds Telegram's window until its answer.
// The fake Bot API counts every send in a sliding second and answers 429 past 30, as Telegram
// does: no 429, never more than 30 in a second, everyone gets their mailing and their reply.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeBotApi, type FakeBotApi } from '../../../scripts/telegram/fake-bot-api';
import { Params } from '../../../scripts/telegram/fake-bot-api/request-body';
import { mailings } from '../../db/schema';
import type { OutboxSender } from '../../outbox/engine';
import { createMailingService } from '../../mailings/mailings';
import { BotRateLimits } from '../../telegram/rate-limiter';
import { eventually } from '../../test/eventually';
import { createFunnel, createOwner, testRuntime } from '../../test/funnel-runtime';
import { createTestDb, type TestDb } from '../../test/helpers';
import { addSubscribers, testOutboxSender } from '../../test/mailings';
import type { FunnelRuntime } from './runtime';

/** Telegram's cap for one bot's messages in any second. */
const TELEGRAM_PER_SECOND = 30;
const MAILED = 300;
const REPLIED = 60;

let fake: FakeBotApi;
let testDb: TestDb;
let runtime: FunnelRuntime | undefined;
let sender: OutboxSender | undefined;

beforeAll(async () => {
  fake = await startFakeBotApi();
  testDb = await createTestDb();
});
afterAll(async () => {
  await sender?.stop();
  await runtime?.stop();
  await fake?.close();
  await testDb?.drop();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('replies during a mailing', () => {
  it(`${REPLIED} /starts while ${MAILED} people are mailed by the same bot: no 429, never more than ${TELEGRAM_PER_SECOND} sends in a sliding second`, { timeout: 120_000 }, async () => {
    const { db } = testDb;
    const ownerId = await createOwner(db);
    const bot = fake.addBot({ username: 'busy_mailing_bot' });
    const { token } = bot;
    const { funnel } = await createFunnel(db, { ownerId, token, username: bot.username, stageSpecs: [{ text: 'Welcome', next: null }] });
    const subscribers = await addSubscribers(db, fake, token, funnel.id, MAILED);
    // Their /starts were handled long ago: Telegram has confirmed them.
    const last = fake.sendUserMessage(token, { from: { id: 1, first_name: 'Last' }, text: 'hi' }).update_id;
    await fake.callMethod(token, 'getUpdates', new Params({ offset: last + 1, timeout: 0 }, new Map()));
    const [mailing] = await db.orm
      .insert(mailings)
      .values({
        funnelId: funnel.id,
        title: 'Sale',
        message: { text: 'Sale today, {first_name|friend}!', media_id: null, buttons: [], next_button: null },
        audience: { stages_in: [], stages_out: [], tags_in: [], tags_out: [] },
      })
      .returning();

    // One limiter per bot, shared by the runtime's replies and the mailing engine, as in main.ts.
    const limits = new BotRateLimits(29);
    runtime = testRuntime(db, fake.url, { limits });
    await runtime.start();
    sender = testOutboxSender(db, fake.url, { limits });
    void sender.start();
    await createMailingService({ db, now: () => new Date() }).startNow(mailing.id);
    await eventually(() => fake.calls(token, 'sendMessage').length, (n) => n >= 30, 'the mailing under way', 30_000);

    const replyIds: number[] = [];
    for (let i = 0; i < REPLIED; i++) {
      const id = 9_000_000 + i;
      replyIds.push(id);
      fake.sendUserMessage(token, { from: { id, first_name: `R${i}` }, text: '/start' });
      await sleep(50);
    }

    await eventually(
      () => subscribers.filter((p) => !fake.botMessages(token, Number(p.telegramId)).some((m) => m.text?.startsWith('Sale today'))).length,
      (missing) => missing === 0,
      'everyone mailed',
      60_000,
    );
    await eventually(
      () => replyIds.filter((id) => fake.botMessages(token, id).length === 0).length,
      (missing) => missing === 0,
      'every /start answered',
      60_000,
    );
    for (const id of replyIds) expect(fake.botMessages(token, id).map((m) => m.text)).toEqual(['Welcome']);
    const stats = fake.limitStats(token);
    console.log(`replies during a mailing: ${stats.too_many_requests} 429s, at most ${stats.max_in_sliding_second} sends in a sliding second`);
    expect(stats.too_many_requests).toBe(0);
    expect(stats.max_in_sliding_second).toBeLessThanOrEqual(TELEGRAM_PER_SECOND);
  });
});
