// The runtime's lifecycle: sync() and the periodic reconcile start and stop bots, a restart
// resumes every running bot with each update handled exactly once, and webhook mode (secret
// token checked by server/http/webhooks/, a repeated delivery handled once, the webhook deleted
// when the funnel stops).
import { and, eq, sql } from 'drizzle-orm';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { NEXT_STEP_CALLBACK_PREFIX } from '../../../contract/funnels';
import { startFakeBotApi, type FakeBotApi } from '../../../scripts/telegram/fake-bot-api';
import { funnels, handledUpdates, people, personEvents } from '../../db/schema';
import { STOPPING_RETRY_AFTER_S, WEBHOOK_MESSAGES } from '../../http/webhooks/routes';
import { createTestApp, createTestDb, expectJsonError, type TestApp, type TestDb } from '../../test/helpers';
import type { FunnelRuntime } from './runtime';
import { funnelWebhookPath, funnelWebhookSecret, WEBHOOK_SECRET_HEADER } from './webhook-port';
import { createFunnel, createOwner, pollingPastEverything, setFunnelState, testRuntime, type StageSpec } from '../../test/funnel-runtime';
import { eventually } from '../../test/eventually';

let fake: FakeBotApi;
let testDb: TestDb;
let ownerId: number;
let counter = 0;
const cleanups: Array<() => Promise<unknown>> = [];

beforeAll(async () => {
  fake = await startFakeBotApi({ webhookRetryMs: 50 });
  testDb = await createTestDb();
  ownerId = await createOwner(testDb.db);
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});
afterAll(async () => {
  await fake?.close();
  await testDb?.drop();
});

const STAGES: StageSpec[] = [
  { text: 'One', next: 'Next' },
  { text: 'Two', next: 'Next' },
];

async function funnelWithBot(state: 'draft' | 'running' | 'stopped' = 'running') {
  counter += 1;
  const bot = fake.addBot({ username: `lifecycle${counter}_bot` });
  const made = await createFunnel(testDb.db, { ownerId, token: bot.token, username: bot.username, state, stageSpecs: STAGES });
  return { ...made, token: bot.token };
}

function track(runtime: FunnelRuntime): FunnelRuntime {
  cleanups.push(() => runtime.stop());
  return runtime;
}

async function funnelRow(id: number) {
  const [row] = await testDb.db.orm.select().from(funnels).where(eq(funnels.id, id));
  return row;
}

async function handledCount(funnelId: number): Promise<number> {
  const [row] = await testDb.db.orm
    .select({ n: sql<number>`count(*)::int` })
    .from(handledUpdates)
    .where(eq(handledUpdates.funnelId, funnelId));
  return row.n;
}

describe('sync and reconcile', () => {
  it('sync() starts a funnel that was run and stops one that was stopped, archived or deleted', async () => {
    const { funnel, token } = await funnelWithBot('draft');
    const runtime = track(testRuntime(testDb.db, fake.url));
    await runtime.start();
    expect(runtime.runningFunnelIds()).not.toContain(funnel.id);

    await setFunnelState(testDb.db, funnel.id, 'running');
    await runtime.sync(funnel.id);
    expect(runtime.runningFunnelIds()).toContain(funnel.id);
    fake.sendUserMessage(token, { from: { id: 6001, first_name: 'Ann' }, text: '/start' });
    expect((await fake.waitForBotMessage(token, 6001)).text).toBe('One');

    await setFunnelState(testDb.db, funnel.id, 'stopped');
    await runtime.sync(funnel.id);
    expect(runtime.runningFunnelIds()).not.toContain(funnel.id);
    await fake.waitForBotState(token, (s) => !s.polling);
    const pollsWhenStopped = fake.calls(token, 'getUpdates').length;
    const queuedBefore = fake.botState(token).pending_update_count;
    const waiting = fake.sendUserMessage(token, { from: { id: 6001, first_name: 'Ann' }, text: '/start' });
    // The positive signal: the update is queued at Telegram, where only a getUpdates could take it.
    await fake.waitForBotState(token, (s) => s.pending_update_count === queuedBefore + 1);
    expect(waiting.update_id).toBeGreaterThan(0);
    expect(fake.calls(token, 'getUpdates')).toHaveLength(pollsWhenStopped);
    expect(fake.botMessages(token, 6001)).toHaveLength(1);

    await setFunnelState(testDb.db, funnel.id, 'running');
    await runtime.sync(funnel.id);
    // The update sent while it was stopped is waiting at Telegram and is handled now.
    await eventually(() => fake.botMessages(token, 6001).length, (n) => n === 2, 'the waiting /start answered');

    await setFunnelState(testDb.db, funnel.id, 'running', true);
    await runtime.sync(funnel.id);
    expect(runtime.runningFunnelIds()).not.toContain(funnel.id);

    await setFunnelState(testDb.db, funnel.id, 'running');
    await runtime.sync(funnel.id);
    expect(runtime.runningFunnelIds()).toContain(funnel.id);
    await testDb.db.orm.delete(funnels).where(eq(funnels.id, funnel.id));
    await runtime.sync(funnel.id);
    expect(runtime.runningFunnelIds()).not.toContain(funnel.id);
  });

  it('the periodic reconcile starts a funnel run by another process', async () => {
    const { funnel, token } = await funnelWithBot('stopped');
    const runtime = track(testRuntime(testDb.db, fake.url, { reconcileIntervalMs: 100 }));
    await runtime.start();
    await setFunnelState(testDb.db, funnel.id, 'running');
    await eventually(() => runtime.runningFunnelIds(), (ids) => ids.includes(funnel.id), 'the funnel started');
    fake.sendUserMessage(token, { from: { id: 6002, first_name: 'Bob' }, text: '/start' });
    expect((await fake.waitForBotMessage(token, 6002)).text).toBe('One');
    await setFunnelState(testDb.db, funnel.id, 'stopped');
    await eventually(() => runtime.runningFunnelIds(), (ids) => !ids.includes(funnel.id), 'the funnel stopped');
  });
});

describe('restart', () => {
  it('a new runtime resumes every running bot from its offset and handles each update exactly once', async () => {
    const a = await funnelWithBot();
    const b = await funnelWithBot();
    const first = testRuntime(testDb.db, fake.url);
    await first.start();
    const ann = { id: 6101, first_name: 'Ann' };
    fake.sendUserMessage(a.token, { from: ann, text: '/start' });
    const one = await fake.waitForBotMessage(a.token, ann.id);
    await eventually(() => funnelRow(a.funnel.id), (row) => row.updateOffset > 0, 'the offset saved');
    await first.stop();

    // While no process runs: more updates wait at Telegram.
    const bob = { id: 6102, first_name: 'Bob' };
    const queued = [
      fake.pressButton(a.token, { from: ann, message_id: one.message_id, callback_data: `${NEXT_STEP_CALLBACK_PREFIX}${a.stageIds[0]}` }),
      fake.sendUserMessage(a.token, { from: bob, text: '/start' }),
      fake.sendUserMessage(b.token, { from: bob, text: '/start' }),
      fake.sendUserMessage(b.token, { from: bob, text: 'hello' }),
    ];

    const second = track(testRuntime(testDb.db, fake.url));
    await second.start();
    expect(second.runningFunnelIds()).toEqual(expect.arrayContaining([a.funnel.id, b.funnel.id]));
    await fake.waitForBotMessage(a.token, ann.id, { predicate: (m) => m.text === 'Two' });
    await fake.waitForBotMessage(a.token, bob.id);
    await fake.waitForBotMessage(b.token, bob.id);
    await eventually(() => handledCount(a.funnel.id), (n) => n === 3, 'three updates of bot a handled');
    await eventually(() => handledCount(b.funnel.id), (n) => n === 2, 'two updates of bot b handled');
    await eventually(
      () => funnelRow(a.funnel.id),
      (row) => row.updateOffset === queued[1].update_id,
      "bot a's offset at its last update",
    );
    await eventually(() => funnelRow(b.funnel.id), (row) => row.updateOffset === queued[3].update_id, "bot b's offset");
    await second.stop();

    // Once more: nothing is handled again.
    const third = track(testRuntime(testDb.db, fake.url));
    await third.start();
    // Someone new writes to both bots: once they are answered and each bot waits for more,
    // whatever Telegram handed out with or before them has been handled.
    const cy = { id: 6103, first_name: 'Cy' };
    fake.sendUserMessage(a.token, { from: cy, text: '/start' });
    fake.sendUserMessage(b.token, { from: cy, text: '/start' });
    await fake.waitForBotMessage(a.token, cy.id);
    await fake.waitForBotMessage(b.token, cy.id);
    await pollingPastEverything(fake, a.token);
    await pollingPastEverything(fake, b.token);
    expect(fake.botMessages(a.token, ann.id).map((m) => m.text)).toEqual(['One', 'Two']);
    expect(fake.botMessages(a.token, bob.id).map((m) => m.text)).toEqual(['One']);
    expect(fake.botMessages(b.token, bob.id).map((m) => m.text)).toEqual(['One']);
    const events = await testDb.db.orm
      .select({ direction: personEvents.direction, kind: personEvents.kind, text: personEvents.text })
      .from(personEvents)
      .innerJoin(people, eq(people.id, personEvents.personId))
      .where(and(eq(personEvents.funnelId, b.funnel.id), eq(people.telegramId, bob.id)));
    expect(events.map((e) => `${e.direction}:${e.kind}:${e.text}`).sort()).toEqual(['in:command:/start', 'in:text:hello', 'out:stage_message:One']);
  });
});

describe('webhook mode', () => {
  let t: TestApp;
  let runtime: FunnelRuntime;
  let secretKey: string;
  const deliver = (funnelId: number, secret: string | undefined, payload: object) =>
    t.app.inject({
      method: 'POST',
      url: funnelWebhookPath(funnelId),
      headers: secret === undefined ? {} : { [WEBHOOK_SECRET_HEADER]: secret },
      payload,
    });

  beforeAll(async () => {
    // The app receives Telegram's POSTs (server/http/webhooks/) and hands them to the runtime,
    // made once the app listens and its address is known.
    t = await createTestApp(testDb.db, { deps: { funnelWebhooks: { deliver: (id, update) => runtime.deliver(id, update) } } });
    secretKey = t.config.secretKey;
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;
    runtime = testRuntime(testDb.db, fake.url, { transport: 'webhook', config: { telegramApiRoot: fake.url, publicUrl: `http://127.0.0.1:${port}`, secretKey } });
  });
  afterAll(async () => {
    await runtime?.stop();
    await t?.close();
  });

  it('a wrong or missing secret token is refused with 401 and a Djoser-shaped body, and nothing is handled', async () => {
    const { funnel, token } = await funnelWithBot();
    const update = { update_id: 1, message: { message_id: 1, date: 0, chat: { id: 6301, type: 'private' }, from: { id: 6301, is_bot: false, first_name: 'Dot' }, text: '/start' } };
    for (const secret of ['wrong', undefined, funnelWebhookSecret(secretKey, funnel.id + 1)]) {
      const res = await deliver(funnel.id, secret, update);
      expect(expectJsonError(res, 401)).toEqual({ detail: WEBHOOK_MESSAGES.badSecret });
    }
    expect(await handledCount(funnel.id)).toBe(0);
    expect(fake.botMessages(token, 6301)).toEqual([]);
  });

  it('a delivery for a funnel that does not exist is 404 with a Djoser-shaped body', async () => {
    const { funnel } = await funnelWithBot();
    const unknownId = funnel.id + 100_000;
    const res = await deliver(unknownId, funnelWebhookSecret(secretKey, unknownId), { update_id: 1 });
    expect(expectJsonError(res, 404)).toEqual({ detail: 'Not found.' });
  });

  it('a body that is not an update is 400 once the secret is right', async () => {
    const { funnel } = await funnelWithBot();
    const res = await deliver(funnel.id, funnelWebhookSecret(secretKey, funnel.id), { message: {} });
    expect(expectJsonError(res, 400)).toHaveProperty('update_id');
  });

  it('sets the webhook with its secret, answers deliveries, handles a repeated delivery once, deletes the webhook on stop', async () => {
    const { funnel, token } = await funnelWithBot();
    await runtime.start();
    await runtime.sync(funnel.id);
    const state = fake.botState(token);
    expect(state.webhook.url).toMatch(new RegExp(`${funnelWebhookPath(funnel.id)}$`));
    expect(state.webhook.secret_token).toBe(funnelWebhookSecret(secretKey, funnel.id));
    expect(state.webhook.secret_token).toMatch(/^[A-Za-z0-9_-]+$/);

    const cid = { id: 6201, first_name: 'Cid' };
    const update = fake.sendUserMessage(token, { from: cid, text: '/start' });
    expect((await fake.waitForBotMessage(token, cid.id)).text).toBe('One');

    // The delivery through the fake (over HTTP) was handled once.
    await eventually(() => handledCount(funnel.id), (n) => n === 1, 'the delivery recorded as handled');
    await fake.waitForBotState(token, (s) => s.pending_update_count === 0);
    // Telegram retries a delivery it thinks failed: the same update again is answered 200 and ignored.
    const again = await deliver(funnel.id, funnelWebhookSecret(secretKey, funnel.id), update);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual({});
    expect(fake.botMessages(token, cid.id)).toHaveLength(1);
    expect(await handledCount(funnel.id)).toBe(1);

    const forged = await deliver(funnel.id, 'wrong', { ...update, update_id: update.update_id + 1000 });
    expect(forged.statusCode).toBe(401);
    expect(await handledCount(funnel.id)).toBe(1);

    await setFunnelState(testDb.db, funnel.id, 'stopped');
    await runtime.sync(funnel.id);
    expect(fake.botState(token).webhook.url).toBe('');
    // A late delivery for the stopped funnel is let go with 200 (a failure would make Telegram retry it).
    const late = await deliver(funnel.id, funnelWebhookSecret(secretKey, funnel.id), { ...update, update_id: update.update_id + 2000 });
    expect(late.statusCode).toBe(200);
    expect(await handledCount(funnel.id)).toBe(1);
  });

  it('a delivery while the runtime stops is refused with 503, so Telegram delivers it again, to the next runtime', async () => {
    const { funnel, token } = await funnelWithBot();
    const secret = funnelWebhookSecret(secretKey, funnel.id);
    const eve = { id: 6401, first_name: 'Eve' };
    const update = fake.sendUserMessage(token, { from: eve, text: '/start' });
    await runtime.stop();
    const refused = await deliver(funnel.id, secret, update);
    expect(expectJsonError(refused, 503)).toEqual({ detail: WEBHOOK_MESSAGES.stopping });
    expect(refused.headers['retry-after']).toBe(String(STOPPING_RETRY_AFTER_S));
    expect(await handledCount(funnel.id)).toBe(0);

    // The next process's runtime takes the same delivery and answers it.
    const { port } = t.app.server.address() as AddressInfo;
    runtime = testRuntime(testDb.db, fake.url, { transport: 'webhook', config: { telegramApiRoot: fake.url, publicUrl: `http://127.0.0.1:${port}`, secretKey } });
    const again = await deliver(funnel.id, secret, update);
    expect(again.statusCode).toBe(200);
    expect((await fake.waitForBotMessage(token, eve.id)).text).toBe('One');
    expect(await handledCount(funnel.id)).toBe(1);
  });
});
