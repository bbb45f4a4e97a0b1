// A mailing through a kill -9 and through a stop of the whole process group, with real server
// processes: three bots of 1,000 people (about 35 s at Telegram's 30 a second per bot) through
// the fake Bot API, which enforces Telegram's limits and counts what each chat received.
// - kill -9 after about a thousand messages, then a start on the same data: every person has the
//   message exactly once, except the rows whose request may have reached Telegram at the kill
//   (the requests in flight, a few per bot): those are `unknown`, never sent again. A claimed row
//   that was not yet on the wire is sent after the restart.
// - SIGTERM to the process group (systemd's default stop: npm and node both get it, and npm passes
//   a second one on): the server stops cleanly (its "stopping" line, exit 0), every message on the
//   wire is recorded, and after a start nobody is unknown, nobody twice, nobody without it.
import { afterAll, describe, expect, it } from 'vitest';
import { MAILINGS_API, type Mailing, type RecipientsPage } from '../../contract/mailings';
import { startFakeBotApi, type FakeBotApi } from '../../scripts/telegram/fake-bot-api';
import { until, whileRunning, type WatchedProcess } from '../test/eventually';
import { createTestDb, type TestDb } from '../test/helpers';
import {
  answers,
  apiGet,
  freePort,
  loginKey,
  newDataDir,
  npm,
  openDb,
  seedMailings,
  startEnv,
  startServer,
  untilHealthy,
  type RunningServer,
  twiceAndNone,
  untilMailingFinished,
  type ServerData,
} from '../test/server-process';

const BOTS = 3;
const PEOPLE = 1_000;
/** Requests one bot may have on the wire at once: its sends are 34 ms apart and the fake answers in a few. */
const MAX_IN_FLIGHT_PER_BOT = 5;

let fake: FakeBotApi;
const testDbs: TestDb[] = [];
const servers: RunningServer[] = [];
const groups: number[] = [];
afterAll(async () => {
  for (const s of servers) if (s.child.exitCode === null) s.child.kill('SIGKILL');
  for (const pgid of groups) {
    try {
      process.kill(-pgid, 'SIGKILL');
    } catch {
      // gone already
    }
  }
  await fake?.close();
  for (const t of testDbs) await t.drop();
});

const delivered = (tokens: string[]) =>
  tokens.reduce((sum, token) => sum + Object.values(fake.limitStats(token).per_second).reduce((a, b) => a + b, 0), 0);

/** Three bots' mailings seeded and started on a fresh database (PostgreSQL in CI, else a DATA_DIR). */
async function seeded() {
  fake ??= await startFakeBotApi();
  const testDb = process.env.TEST_DATABASE_URL ? await createTestDb() : undefined;
  if (testDb) testDbs.push(testDb);
  const data: ServerData = { dataDir: newDataDir(), databaseUrl: testDb?.url ?? null };
  const db = testDb?.db ?? (await openDb(data));
  const { email, made } = await seedMailings(db, fake, { bots: BOTS, people: PEOPLE });
  if (!testDb) await db.close();
  return { data, email, made, tokens: made.map((m) => m.token) };
}

async function untilDelivered(tokens: string[], count: number, run: WatchedProcess) {
  await until(() => delivered(tokens) >= count, `${count} messages delivered`, whileRunning(run, 120_000));
}

/** Starts the server again on the same data and waits for every mailing to finish; answers them. */
async function finishAfterRestart(data: ServerData, email: string, made: Array<{ mailingId: number }>): Promise<{ done: Mailing[]; key: string; port: number }> {
  const port = await freePort();
  const second = startServer(data, port, fake.url);
  servers.push(second);
  await untilHealthy(second);
  const key = await loginKey(port, email);
  const done: Mailing[] = [];
  for (const m of made) {
    const mailing = await untilMailingFinished(port, key, m.mailingId, 120_000);
    expect(mailing.state, second.output()).toBe('finished');
    done.push(mailing);
  }
  return { done, key, port };
}

describe('a mailing through kill -9', () => {
  it('reaches everyone exactly once, except the requests in flight at the kill (unknown), and finishes', { timeout: 240_000 }, async () => {
    const { data, email, made, tokens } = await seeded();
    const first = startServer(data, await freePort(), fake.url);
    servers.push(first);
    await untilHealthy(first);
    await untilDelivered(tokens, 1_000, first);
    first.child.kill('SIGKILL');
    await first.exited;
    const atKill = delivered(tokens);
    expect(atKill).toBeLessThan(BOTS * PEOPLE);

    const { done, key, port } = await finishAfterRestart(data, email, made);
    let unknownTotal = 0;
    let missing = 0;
    for (const [index, m] of made.entries()) {
      const { progress } = done[index];
      expect(progress.total).toBe(PEOPLE);
      expect(progress.sent + progress.unknown).toBe(PEOPLE);
      expect(progress.failed + progress.waiting + progress.sending).toBe(0);
      // Only what was on the wire: the claimed batch that had not gone out yet was sent after the start.
      expect(progress.unknown).toBeLessThanOrEqual(MAX_IN_FLIGHT_PER_BOT);
      unknownTotal += progress.unknown;
      const unknown = await apiGet<RecipientsPage>(port, key, `${MAILINGS_API.recipients(m.mailingId)}?state=unknown&limit=200`);
      expect(new Set(unknown.results.map((r) => r.person_id)).size).toBe(progress.unknown);
      const { twice, none } = twiceAndNone(fake, m.token);
      expect(twice).toBe(0);
      // Whoever got nothing is one of the unknown rows: a request that was on the wire at the kill.
      expect(none).toBeLessThanOrEqual(progress.unknown);
      missing += none;
      expect(fake.limitStats(m.token).max_per_second).toBeLessThanOrEqual(30);
    }
    console.log(`kill -9 after ${atKill} of ${BOTS * PEOPLE} messages: ${unknownTotal} unknown (on the wire), ${missing} of them never arrived, 0 twice`);
  });
});

describe('a mailing through SIGTERM to the process group', () => {
  it('stops cleanly with every outcome recorded; after a start everyone has it once and nobody is unknown', { timeout: 240_000 }, async () => {
    const { data, email, made, tokens } = await seeded();
    const port = await freePort();
    const run = npm(['start'], startEnv(data, port, fake.url), { group: true });
    groups.push(run.child.pid!);
    await until(() => answers(port), 'npm start to answer', whileRunning(run, 120_000, 50));
    await untilDelivered(tokens, 600, run);
    process.kill(-run.child.pid!, 'SIGTERM'); // as systemd stops a service: npm and node at once
    expect(await run.exited, run.output()).toBe(0);
    expect(run.output()).toMatch(/"signal":"SIGTERM","msg":"stopping"/);
    const atStop = delivered(tokens);
    expect(atStop).toBeLessThan(BOTS * PEOPLE);

    const { done } = await finishAfterRestart(data, email, made);
    for (const [index, m] of made.entries()) {
      expect(done[index].progress).toMatchObject({ total: PEOPLE, sent: PEOPLE, unknown: 0, failed: 0 });
      expect(twiceAndNone(fake, m.token)).toEqual({ twice: 0, none: 0 });
      expect(fake.limitStats(m.token).max_per_second).toBeLessThanOrEqual(30);
    }
    console.log(`SIGTERM to the group after ${atStop} of ${BOTS * PEOPLE} messages: 0 unknown, 0 twice, 0 lost`);
  });
});
