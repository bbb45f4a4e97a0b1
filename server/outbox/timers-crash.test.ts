// Timers with real server processes (issue 24, "Wait"): timers that fell due while the server was
// down fire once it starts, and exactly once through a kill -9 in the middle of firing them, and
// with two processes on one PostgreSQL firing at once. Three bots' people wait in a stage whose
// wait (1 minute) is long over; each must be moved once (one 'timer' move, one reply: sent by the
// funnel's bot runtime, or left unknown by the kill; the next stage's message at most once in the
// fake Bot API's chats).
import { afterAll, describe, expect, it } from 'vitest';
import { FUNNELS_API, type PeoplePage } from '../../contract/funnels';
import { startFakeBotApi, type FakeBotApi } from '../../scripts/telegram/fake-bot-api';
import type { Db } from '../db';
import { eventually, until, whileRunning } from '../test/eventually';
import { createTestDb, TEST_DATABASE_URL, type TestDb } from '../test/helpers';
import { apiGet, freePort, loginKey, newDataDir, openDb, seedDueTimers, startServer, TIME_IS_UP, untilHealthy, type RunningServer, type ServerData } from '../test/server-process';

const BOTS = 3;

let fake: FakeBotApi | undefined;
const testDbs: TestDb[] = [];
const servers: RunningServer[] = [];
afterAll(async () => {
  for (const s of servers) if (s.child.exitCode === null) s.child.kill('SIGKILL');
  await Promise.all(servers.map((s) => s.exited));
  await fake?.close();
  for (const t of testDbs) await t.drop();
});

/** Of the bots' chats: how many got the timer's message more than once, and how many got it at all. */
function timeIsUp(api: FakeBotApi, tokens: string[]): { twice: number; got: number } {
  let twice = 0;
  let got = 0;
  for (const token of tokens) {
    for (const chat of api.botState(token).chats) {
      const count = api.botMessages(token, chat.id).filter((m) => m.text?.startsWith(TIME_IS_UP)).length;
      if (count > 1) twice += 1;
      if (count > 0) got += 1;
    }
  }
  return { twice, got };
}

/** What the database says of the timers: each person moved once by one, with one reply (sent, or queued). */
async function firedOnce(db: Db, funnelIds: number[]) {
  const [row] = await db.query<{ fired: number; waiting: number; other: number; moves: number; moved_twice: number; rows: number; rows_twice: number }>(
    // The timer's reply: sent (its row gone, kept in the person's history as the stage's message),
    // or still in the outbox (waiting, or unknown: on the wire when the process was killed).
    `with replies as (
       select person_id from person_events where funnel_id = any($1) and direction = 'out' and kind = 'stage_message'
       union all
       select person_id from outbox where funnel_id = any($1) and reply and stage_id is not null)
     select (select count(*) from person_timers where funnel_id = any($1) and state = 'fired')::int as fired,
            (select count(*) from person_timers where funnel_id = any($1) and state = 'waiting')::int as waiting,
            (select count(*) from person_timers where funnel_id = any($1) and state not in ('fired', 'waiting'))::int as other,
            (select count(*) from stage_moves where funnel_id = any($1) and via = 'timer')::int as moves,
            (select count(*) from (select person_id from stage_moves where funnel_id = any($1) and via = 'timer' group by 1 having count(*) > 1) x)::int as moved_twice,
            (select count(*) from replies)::int as rows,
            (select count(*) from (select person_id from replies group by 1 having count(*) > 1) x)::int as rows_twice`,
    [funnelIds],
  );
  return row;
}

describe('timers due while the server was down', () => {
  it('fire once after a start, also through a kill -9 while they are being fired and sent', { timeout: 240_000 }, async () => {
    // 1,000 a bot: enough for the kill to land mid-firing, light enough not to starve the timing tests beside it in the suite.
    const people = 1_000;
    fake ??= await startFakeBotApi();
    const testDb = TEST_DATABASE_URL ? await createTestDb() : undefined;
    if (testDb) testDbs.push(testDb);
    const data: ServerData = { dataDir: newDataDir(), databaseUrl: testDb?.url ?? null };
    const seedDb = testDb?.db ?? (await openDb(data));
    const { email, made } = await seedDueTimers(seedDb, fake, BOTS, people);
    if (!testDb) await seedDb.close();
    const tokens = made.map((m) => m.token);

    const first = startServer(data, await freePort(), fake.url);
    servers.push(first);
    await untilHealthy(first);
    await until(() => timeIsUp(fake!, tokens).got >= 30, 'the first moved people to get the message', whileRunning(first, 60_000));
    first.child.kill('SIGKILL');
    await first.exited;
    const atKill = timeIsUp(fake, tokens).got;
    // How far the firing had got (the process is gone: the embedded database can be opened).
    const killedDb = testDb?.db ?? (await openDb(data));
    const firedAtKill = (await firedOnce(killedDb, made.map((m) => m.funnelId))).fired;
    if (!testDb) await killedDb.close();

    const port = await freePort();
    const second = startServer(data, port, fake.url);
    servers.push(second);
    await untilHealthy(second);
    const key = await loginKey(port, email);
    for (const m of made) {
      await eventually(
        () => apiGet<PeoplePage>(port, key, `${FUNNELS_API.people(m.funnelId)}?stage=${m.laterId}&limit=1`),
        (page) => page.count === people,
        `everyone of funnel ${m.funnelId} moved to Later`,
        { timeoutMs: 120_000, pollMs: 250 },
      );
    }
    second.child.kill('SIGTERM');
    expect(await second.exited, second.output()).toBe(0);

    const db = testDb?.db ?? (await openDb(data));
    const counts = await firedOnce(db, made.map((m) => m.funnelId));
    if (!testDb) await db.close();
    expect(counts).toEqual({ fired: BOTS * people, waiting: 0, other: 0, moves: BOTS * people, moved_twice: 0, rows: BOTS * people, rows_twice: 0 });
    expect(timeIsUp(fake, tokens).twice).toBe(0);
    console.log(
      `kill -9 with ${firedAtKill} of ${BOTS * people} timers fired and ${atKill} of their messages sent: after a start every timer fired once (${counts.fired}), one move and one message each, 0 twice`,
    );
  });
});

describe('two processes on one PostgreSQL', () => {
  it.skipIf(!TEST_DATABASE_URL)('fire each due timer once: one move each, the message once to everyone', { timeout: 240_000 }, async () => {
    const people = 600;
    fake ??= await startFakeBotApi();
    const testDb = await createTestDb();
    testDbs.push(testDb);
    const { made } = await seedDueTimers(testDb.db, fake, BOTS, people);
    const tokens = made.map((m) => m.token);
    const data = { dataDir: newDataDir(), databaseUrl: testDb.url };
    const pair = [startServer({ ...data, dataDir: newDataDir() }, await freePort(), fake.url), startServer({ ...data, dataDir: newDataDir() }, await freePort(), fake.url)];
    servers.push(...pair);
    await Promise.all(pair.map((s) => untilHealthy(s)));
    await until(() => timeIsUp(fake!, tokens).got === BOTS * people, 'everyone to get the message', whileRunning(pair[0], 120_000));
    expect(await firedOnce(testDb.db, made.map((m) => m.funnelId))).toEqual({
      fired: BOTS * people,
      waiting: 0,
      other: 0,
      moves: BOTS * people,
      moved_twice: 0,
      rows: BOTS * people,
      rows_twice: 0,
    });
    expect(timeIsUp(fake, tokens)).toEqual({ twice: 0, got: BOTS * people });
    console.log(`two processes: ${BOTS * people} timers fired once each, the message once to everyone`);
  });
});
