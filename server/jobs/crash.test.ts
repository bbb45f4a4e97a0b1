// kill -9 in the middle of a mailing: a real server process mails 3,000 people (three bots of
// 1,000, so it takes about 35 s at Telegram's 30 a second per bot, not 100 s) through the fake
// Bot API, which enforces Telegram's limits; the process is killed with SIGKILL after about a
// thousand messages, and started again on the same data. Every person then has the message
// exactly once, except the rows that were on the wire at the kill: counted as unknown (at most the
// claimed batch per bot, and the previous batch's last sends) and never sent again; every mailing
// finishes.
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_SEND_RATE, MAILINGS_API, type Mailing, type RecipientsPage } from '../../contract/mailings';
import { CLAIM_SECONDS } from './outbox-sender';
import { startFakeBotApi, type FakeBotApi } from '../../scripts/telegram/fake-bot-api';
import { createTestDb, type TestDb } from '../test/helpers';
import { apiGet, freePort, loginKey, newDataDir, openDb, seedMailings, startServer, untilHealthy, type RunningServer, type ServerData } from '../test/server-process';

const BOTS = 3;
const PEOPLE = 1_000;
/**
 * What may be on the wire at the kill, per bot: the claimed batch (half a second at 29 a second)
 * plus the last sends of the batch before it whose answers had not come back yet.
 */
const MAX_UNKNOWN_PER_BOT = 2 * Math.ceil(DEFAULT_SEND_RATE * CLAIM_SECONDS);

let fake: FakeBotApi;
let testDb: TestDb | undefined;
const servers: RunningServer[] = [];
afterAll(async () => {
  for (const s of servers) if (s.child.exitCode === null) s.child.kill('SIGKILL');
  await fake?.close();
  await testDb?.drop();
});

const delivered = (tokens: string[]) =>
  tokens.reduce((sum, token) => sum + Object.values(fake.limitStats(token).per_second).reduce((a, b) => a + b, 0), 0);

describe('a mailing through kill -9', () => {
  it('reaches everyone exactly once, except the counted unknown rows, and finishes', { timeout: 240_000 }, async () => {
    fake = await startFakeBotApi();
    // On PostgreSQL (CI) the process uses a throw-away database; embedded, its DATA_DIR's files.
    testDb = process.env.TEST_DATABASE_URL ? await createTestDb() : undefined;
    const data: ServerData = { dataDir: newDataDir(), databaseUrl: testDb?.url ?? null };
    const db = testDb?.db ?? (await openDb(data));
    const { email, made } = await seedMailings(db, fake, { bots: BOTS, people: PEOPLE });
    if (!testDb) await db.close();
    const tokens = made.map((m) => m.token);
    const port = await freePort();

    const first = startServer(data, port, fake.url);
    servers.push(first);
    await untilHealthy(first);
    while (delivered(tokens) < 1_000) {
      if (first.child.exitCode !== null) throw new Error(first.output());
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    first.child.kill('SIGKILL');
    await first.exited;
    const atKill = delivered(tokens);
    expect(atKill).toBeLessThan(BOTS * PEOPLE);

    const second = startServer(data, port, fake.url);
    servers.push(second);
    await untilHealthy(second);
    const key = await loginKey(port, email);
    const done: Mailing[] = [];
    for (const m of made) {
      const deadline = Date.now() + 120_000;
      let mailing = await apiGet<Mailing>(port, key, MAILINGS_API.mailing(m.mailingId));
      while (mailing.state !== 'finished' && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 250));
        mailing = await apiGet<Mailing>(port, key, MAILINGS_API.mailing(m.mailingId));
      }
      expect(mailing.state, second.output()).toBe('finished');
      done.push(mailing);
    }

    let unknownTotal = 0;
    for (const [index, m] of made.entries()) {
      const { progress } = done[index];
      expect(progress.total).toBe(PEOPLE);
      expect(progress.sent + progress.unknown).toBe(PEOPLE);
      expect(progress.failed + progress.waiting + progress.sending).toBe(0);
      expect(progress.unknown).toBeLessThanOrEqual(MAX_UNKNOWN_PER_BOT);
      unknownTotal += progress.unknown;
      const unknown = await apiGet<RecipientsPage>(port, key, `${MAILINGS_API.recipients(m.mailingId)}?state=unknown&limit=200`);
      const unknownPeople = new Set(unknown.results.map((r) => r.person_id));
      expect(unknownPeople.size).toBe(progress.unknown);
      const state = fake.botState(m.token);
      let twice = 0;
      let none = 0;
      for (const chat of state.chats) {
        const count = fake.botMessages(m.token, chat.id).length;
        if (count > 1) twice += 1;
        if (count === 0) none += 1;
      }
      expect(twice).toBe(0);
      // Nobody is skipped: whoever got nothing is one of the unknown rows.
      expect(none).toBeLessThanOrEqual(progress.unknown);
      expect(fake.limitStats(m.token).max_per_second).toBeLessThanOrEqual(30);
    }
    console.log(`kill -9 after ${atKill} of ${BOTS * PEOPLE} messages: ${unknownTotal} unknown, 0 twice, 0 lost`);

    second.child.kill('SIGTERM');
    await second.exited;
  });
});
