// Shared by the mailing tests: subscribers the fake Bot API knows (they pressed /start there, so
// Telegram may write to them) and outbox senders pointed at the fake.
import { afterEach } from 'vitest';
import type { FakeTelegram } from '../../scripts/telegram/fake-bot-api/fake-telegram';
import type { Db } from '../db';
import { people } from '../db/schema';
import { decryptBotToken } from '../funnels/secret-box';
import type { RuntimeLog } from '../bots/runtime/funnel-context';
import { mailingEvents } from '../mailings/state';
import { OutboxSender, type OutboxSenderOptions } from '../outbox/engine';
import { BotRateLimits } from '../telegram/rate-limiter';
import type { FunnelsTestEnv } from './funnels-api';

export const quietLog: RuntimeLog = { info() {}, warn() {}, error() {}, debug() {} };

let nextTelegramId = 5_000_000;

/** `count` people who pressed /start on the bot in the fake, and their rows in the funnel. */
export async function addSubscribers(
  db: Db,
  fake: Pick<FakeTelegram, 'sendUserMessage'>,
  token: string,
  funnelId: number,
  count: number,
  fields: Partial<typeof people.$inferInsert> = {},
) {
  const rows: Array<typeof people.$inferInsert> = [];
  for (let i = 0; i < count; i++) {
    const id = nextTelegramId++;
    const firstName = fields.firstName ?? `Person${i}`;
    fake.sendUserMessage(token, { from: { id, first_name: firstName }, text: '/start' });
    rows.push({ funnelId, telegramId: id, firstName, ...fields });
  }
  const made = [];
  for (let i = 0; i < rows.length; i += 1000) made.push(...(await db.orm.insert(people).values(rows.slice(i, i + 1000)).returning()));
  return made;
}

export function testOutboxSender(db: Db, apiRoot: string, options: Partial<OutboxSenderOptions> = {}): OutboxSender {
  return new OutboxSender({
    db,
    apiRoot,
    tokenOf: (row) => row.botTokenEncrypted!,
    log: quietLog,
    limits: new BotRateLimits(29),
    mailings: mailingEvents(db),
    tickMs: 50,
    retryDelaysMs: [50, 100, 200],
    ...options,
  });
}

/**
 * The calling test file's running outbox senders for the API tests: pointed at the env's fake Bot
 * API, reading the funnels' tokens as the app stored them (encrypted). Each test's senders stop
 * when it ends: one still running would claim the next test's rows.
 */
export function useOutboxSenders(env: FunnelsTestEnv): (options?: Partial<OutboxSenderOptions>) => OutboxSender {
  const running: OutboxSender[] = [];
  afterEach(async () => {
    await Promise.all(running.splice(0).map((sender) => sender.stop()));
  });
  return (options = {}) => {
    const sender = testOutboxSender(env.t.db, env.fake.url, { tokenOf: (row) => decryptBotToken(row, env.t.config), ...options });
    running.push(sender);
    void sender.start();
    return sender;
  };
}
