// PostgreSQL stops for 20 s in the middle of a mailing and comes back: a real server process mails
// two bots of 600 people through the fake Bot API. The messages whose answers came while the
// database was away are recorded once it answers again (not left `unknown`), the claimed rows
// that never went out are sent after it, and in the end everyone has the message exactly once,
// shown as sent. Runs in the suite's PostgreSQL run (a private server that the test stops).
import { afterAll, describe, expect, it } from 'vitest';
import { startFakeBotApi, type FakeBotApi } from '../../scripts/telegram/fake-bot-api';
import { createDb, migrate } from '../db';
import { until, whileRunning } from '../test/eventually';
import { PG_CLUSTER_SKIP_REASON, startPgCluster, type PgCluster } from '../test/pg-cluster';
import { freePort, loginKey, newDataDir, seedMailings, startServer, twiceAndNone, untilHealthy, untilMailingFinished, type RunningServer } from '../test/server-process';

const BOTS = 2;
const PEOPLE = 600;
const OUTAGE_MS = 20_000;

let fake: FakeBotApi | undefined;
let cluster: PgCluster | undefined;
let server: RunningServer | undefined;
afterAll(async () => {
  if (server && server.child.exitCode === null) server.child.kill('SIGKILL');
  await fake?.close();
  await cluster?.destroy();
});

describe.skipIf(PG_CLUSTER_SKIP_REASON !== null)(`a mailing through a database outage${PG_CLUSTER_SKIP_REASON ? ` (${PG_CLUSTER_SKIP_REASON})` : ''}`, () => {
  it('reaches everyone exactly once and shows every one of them as sent', { timeout: 300_000 }, async () => {
    fake = await startFakeBotApi();
    cluster = await startPgCluster();
    const db = await createDb({ databaseUrl: cluster.url, dataDir: newDataDir() }, { poolMax: 3 });
    await migrate(db);
    const { email, made } = await seedMailings(db, fake, { bots: BOTS, people: PEOPLE });
    await db.close();
    const tokens = made.map((m) => m.token);
    const delivered = () => tokens.reduce((sum, token) => sum + Object.values(fake!.limitStats(token).per_second).reduce((a, b) => a + b, 0), 0);

    const port = await freePort();
    server = startServer({ dataDir: newDataDir(), databaseUrl: cluster.url }, port, fake.url);
    await untilHealthy(server);
    await until(() => delivered() >= 150, 'the mailing under way', whileRunning(server, 60_000));
    await cluster.stop('fast');
    const atStop = delivered();
    await new Promise((resolve) => setTimeout(resolve, OUTAGE_MS));
    await cluster.start();
    expect(server.child.exitCode, server.output()).toBeNull();

    const key = await loginKey(port, email);
    for (const m of made) {
      const mailing = await untilMailingFinished(port, key, m.mailingId);
      expect(mailing.state, server.output()).toBe('finished');
      expect(mailing.progress).toMatchObject({ total: PEOPLE, sent: PEOPLE, unknown: 0, failed: 0 });
      expect(twiceAndNone(fake, m.token)).toEqual({ twice: 0, none: 0 });
    }
    console.log(`database stopped for ${OUTAGE_MS / 1000} s after ${atStop} of ${BOTS * PEOPLE} messages: all sent once, 0 unknown`);
  });
});
