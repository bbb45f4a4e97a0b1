// Two server processes on one PostgreSQL mail 3,000 people from two bots at once: nobody gets the
// message twice, everybody gets it, and each bot stays within Telegram's 30 messages in every
// second (the fake Bot API counts them) — the per-bot lease makes one process at a time send a
// bot's outbox. PostgreSQL only (CI runs the server suite on it): the embedded database is one
// process's.
import { afterAll, describe, expect, it } from 'vitest';
import { MAILINGS_API } from '../../contract/mailings';
import { startFakeBotApi, type FakeBotApi } from '../../scripts/telegram/fake-bot-api';
import { until } from '../test/eventually';
import { createTestDb, TEST_DATABASE_URL, type TestDb } from '../test/helpers';
import { freePort, loginKey, newDataDir, seedMailings, startServer, twiceAndNone, untilHealthy, untilMailingFinished, type RunningServer } from '../test/server-process';

const PEOPLE = 1_500;
let fake: FakeBotApi | undefined;
let testDb: TestDb | undefined;
const extraDbs: TestDb[] = [];
const servers: RunningServer[] = [];
afterAll(async () => {
  for (const s of servers) {
    s.child.kill('SIGCONT');
    if (s.child.exitCode === null) s.child.kill('SIGTERM');
  }
  await Promise.all(servers.map((s) => s.exited));
  await fake?.close();
  await testDb?.drop();
  for (const t of extraDbs) await t.drop();
});

describe('two processes on one PostgreSQL', () => {
  it.skipIf(!TEST_DATABASE_URL)('mail 3,000 people from two bots: nobody twice, nobody skipped, each bot within its rate', { timeout: 240_000 }, async () => {
    fake = await startFakeBotApi();
    testDb = await createTestDb();
    // Both processes must be running before the mailings start, so both compete for the bots.
    const { email, made } = await seedMailings(testDb.db, fake, { bots: 2, people: PEOPLE, start: false });
    const data = { dataDir: newDataDir(), databaseUrl: testDb.url };
    const ports = [await freePort(), await freePort()];
    for (const port of ports) servers.push(startServer({ ...data, dataDir: newDataDir() }, port, fake.url));
    await Promise.all(servers.map((s) => untilHealthy(s)));
    const key = await loginKey(ports[0], email);
    for (const m of made) {
      const res = await fetch(`http://127.0.0.1:${ports[made.indexOf(m) % 2]}${MAILINGS_API.send(m.mailingId)}`, {
        method: 'POST',
        headers: { authorization: `Token ${key}`, 'content-type': 'application/json' },
        body: '{}',
      });
      expect(res.status, await res.text()).toBe(200);
    }
    for (const m of made) {
      const mailing = await untilMailingFinished(ports[1], key, m.mailingId);
      expect(mailing.state).toBe('finished');
      expect(mailing.progress).toMatchObject({ total: PEOPLE, sent: PEOPLE, unknown: 0, failed: 0 });
      expect(twiceAndNone(fake, m.token)).toEqual({ twice: 0, none: 0 });
      const stats = fake.limitStats(m.token);
      expect(stats.max_per_second).toBeLessThanOrEqual(30);
      console.log(`bot ${made.indexOf(m) + 1}: ${PEOPLE} sent, at most ${stats.max_per_second} in a second, ${stats.too_many_requests} 429s`);
    }
  });
});

describe('a holder frozen past its lease', () => {
  it.skipIf(!TEST_DATABASE_URL)(
    'sends nothing more once another process holds the lease: never over 30 a second, nobody twice, nobody lost',
    { timeout: 240_000 },
    async () => {
      fake ??= await startFakeBotApi();
      const testDb = await createTestDb();
      extraDbs.push(testDb);
      const people = 600;
      const { email, made } = await seedMailings(testDb.db, fake, { bots: 1, people, start: false });
      const [{ token, mailingId }] = made;
      const sent = () => Object.values(fake!.limitStats(token).per_second).reduce((a, b) => a + b, 0);
      const data = { dataDir: newDataDir(), databaseUrl: testDb.url };
      const first = startServer({ ...data, dataDir: newDataDir() }, await freePort(), fake.url);
      servers.push(first);
      await untilHealthy(first);
      const key = await loginKey(first.port, email);
      const res = await fetch(`http://127.0.0.1:${first.port}${MAILINGS_API.send(mailingId)}`, {
        method: 'POST',
        headers: { authorization: `Token ${key}`, 'content-type': 'application/json' },
        body: '{}',
      });
      expect(res.status, await res.text()).toBe(200);
      await until(() => sent() >= 60, 'the first process to be sending', 60_000);
      // The second process waits for the lease; the first freezes mid-batch, past its lease.
      const second = startServer({ ...data, dataDir: newDataDir() }, await freePort(), fake.url);
      servers.push(second);
      await untilHealthy(second);
      first.child.kill('SIGSTOP');
      const atFreeze = sent();
      await until(() => sent() >= atFreeze + 60, 'the second process to take the bot over', 60_000);
      await new Promise((resolve) => setTimeout(resolve, 1_000)); // a second of sending by the new holder before the wake
      first.child.kill('SIGCONT');

      const mailing = await untilMailingFinished(second.port, key, mailingId);
      expect(mailing.state).toBe('finished');
      expect(twiceAndNone(fake, token)).toEqual({ twice: 0, none: 0 });
      // The requests on the wire at the freeze were answered; their outcomes land on the wake.
      expect(mailing.progress).toMatchObject({ total: people, sent: people, unknown: 0, failed: 0 });
      const stats = fake.limitStats(token);
      expect(stats.too_many_requests).toBe(0);
      expect(stats.max_in_sliding_second).toBeLessThanOrEqual(30);
      console.log(`frozen after ${atFreeze} of ${people}: the new holder sent the rest, at most ${stats.max_in_sliding_second} in a sliding second, 0 429s, 0 twice, 0 lost`);
    },
  );
});
