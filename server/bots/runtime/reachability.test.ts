// "Cannot reach Telegram since …": a running funnel whose bot's calls fail (5xx, or no
// connection at all) for longer than the threshold says so in the funnel API, with the time the
// failures began; the first call that gets through clears it. The real runtime polls the fake
// Bot API; the API reads the runtime of the same process.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FUNNELS_API, type Funnel } from '../../../contract/funnels';
import { startFakeBotApi, type FakeBotApi } from '../../../scripts/telegram/fake-bot-api';
import { auth, createTestApp, createTestDb, signedInUser, type TestApp, type TestDb } from '../../test/helpers';
import { createFunnel, pollingPastEverything, testRuntime } from '../../test/funnel-runtime';
import { eventually } from '../../test/eventually';
import type { FunnelRuntime } from './runtime';

/** Failures alone for this long make the bot "unreachable" here (the real threshold is longer). */
const UNREACHABLE_AFTER_MS = 1_000;

let fake: FakeBotApi;
let testDb: TestDb;
let t: TestApp;
let runtime: FunnelRuntime;
let owner: { id: number; key: string };

beforeAll(async () => {
  fake = await startFakeBotApi();
  testDb = await createTestDb();
  runtime = testRuntime(testDb.db, fake.url, { unreachableAfterMs: UNREACHABLE_AFTER_MS });
  t = await createTestApp(testDb.db, {
    config: { telegramApiRoot: fake.url },
    deps: {
      funnelRuntime: {
        sync: (funnelId) => runtime.sync(funnelId),
        stagesChanged: (funnelId) => runtime.stagesChanged(funnelId),
        telegramUnreachableSince: (funnelId) => runtime.telegramUnreachableSince(funnelId),
      },
    },
  });
  owner = await signedInUser(t);
  await runtime.start();
});
afterAll(async () => {
  await runtime?.stop();
  await t?.close();
  await fake?.close();
  await testDb?.drop();
});

let counter = 0;
async function runningFunnel() {
  counter += 1;
  const bot = fake.addBot({ username: `reach${counter}_bot` });
  const { funnel } = await createFunnel(testDb.db, { ownerId: owner.id, token: bot.token, username: bot.username, stageSpecs: [{ text: 'Hi', next: null }] });
  await runtime.sync(funnel.id);
  await pollingPastEverything(fake, bot.token);
  return { funnelId: funnel.id, token: bot.token };
}

/** Someone presses Start: the bot's long poll under way returns, and its next one begins. */
function endLongPoll(token: string): void {
  counter += 1;
  fake.sendUserMessage(token, { from: { id: 1000 + counter, first_name: 'Ann' }, text: '/start' });
}

async function funnelSeen(funnelId: number): Promise<Funnel> {
  const res = await t.app.inject({ method: 'GET', url: FUNNELS_API.funnel(funnelId), headers: auth(owner.key) });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as Funnel;
}

async function listedFunnel(funnelId: number): Promise<Funnel | undefined> {
  const res = await t.app.inject({ method: 'GET', url: FUNNELS_API.funnels, headers: auth(owner.key) });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as Funnel[]).find((f) => f.id === funnelId);
}

describe('a running bot that cannot reach Telegram', () => {
  it('says since when once 5xx answers last past the threshold, on the funnel and in the list, and clears on the first success', { timeout: 30_000 }, async () => {
    const { funnelId, token } = await runningFunnel();
    expect((await funnelSeen(funnelId)).telegram_unreachable_since).toBeNull();

    const outageBegan = Date.now();
    fake.failCallsFor(token, { ms: 4_000, error_code: 502, description: 'Bad Gateway', methods: ['getUpdates'] });
    // The long poll under way ends with this update; every poll after it fails.
    endLongPoll(token);
    const seen = await eventually(() => funnelSeen(funnelId), (f) => f.telegram_unreachable_since !== null, 'the funnel says it cannot reach Telegram', 10_000);
    expect(seen.state).toBe('running');
    const since = Date.parse(seen.telegram_unreachable_since!);
    // Since the first failure (not since the threshold passed).
    expect(since).toBeGreaterThanOrEqual(outageBegan - 50);
    expect(Date.now() - since).toBeGreaterThanOrEqual(UNREACHABLE_AFTER_MS);
    expect((await listedFunnel(funnelId))?.telegram_unreachable_since).toBe(seen.telegram_unreachable_since);

    // Telegram answers again: the next poll gets through and the state clears.
    await eventually(() => funnelSeen(funnelId), (f) => f.telegram_unreachable_since === null, 'the funnel is back to plain running', 15_000);
    expect((await listedFunnel(funnelId))?.telegram_unreachable_since).toBeNull();
  });

  it('says so when connections are refused, and not for a hiccup shorter than the threshold', { timeout: 30_000 }, async () => {
    const { funnelId, token } = await runningFunnel();
    // A hiccup: one failed poll, retried at once, never shown.
    fake.failNextCalls(token, { count: 1, error_code: 500, description: 'Internal Server Error', methods: ['getUpdates'] });
    endLongPoll(token);
    await eventually(() => fake.calls(token, 'getUpdates').filter((c) => !c.ok).length, (failed) => failed >= 1, 'the failed poll', 10_000);
    await pollingPastEverything(fake, token);
    expect((await funnelSeen(funnelId)).telegram_unreachable_since).toBeNull();

    const refused = fake.refuseConnectionsFor(3_000);
    const seen = await eventually(() => funnelSeen(funnelId), (f) => f.telegram_unreachable_since !== null, 'the funnel says it cannot reach Telegram', 10_000);
    expect(seen.state).toBe('running');
    await refused;
    await eventually(() => funnelSeen(funnelId), (f) => f.telegram_unreachable_since === null, 'the funnel is back to plain running', 15_000);
  });

  it('a funnel that does not run never says it', async () => {
    const { funnelId } = await runningFunnel();
    const stopped = await t.app.inject({ method: 'POST', url: FUNNELS_API.stop(funnelId), headers: auth(owner.key) });
    expect(stopped.statusCode, stopped.body).toBe(200);
    const seen = await funnelSeen(funnelId);
    expect(seen.state).toBe('stopped');
    expect(seen.telegram_unreachable_since).toBeNull();
  });
});
