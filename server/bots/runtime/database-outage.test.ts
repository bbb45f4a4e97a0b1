// PostgreSQL down for 20 s mid-conversation (a private server of this file: pg-cluster.ts), while
// subscribers keep pressing /start and next-step: afterwards every update got its reply exactly
// once. By long polling (the updates are polled again once the database is back) and by webhook
// (a delivery the database could not take is answered 503, and Telegram delivers it again).
import { mkdtempSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Message } from 'grammy/types';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startFakeBotApi, type FakeBotApi } from '../../../scripts/telegram/fake-bot-api';
import { createDb, migrate, type Db } from '../../db';
import { webhookRoutes } from '../../http/webhooks/routes';
import { eventually } from '../../test/eventually';
import { createFunnel, createOwner, testRuntime } from '../../test/funnel-runtime';
import { PG_CLUSTER_SKIP_REASON, startPgCluster, type PgCluster } from '../../test/pg-cluster';
import type { FunnelRuntime } from './runtime';

const OUTAGE_MS = 20_000;
const SECRET_KEY = 'database-outage-secret';

let cluster: PgCluster;
let db: Db;
let fake: FakeBotApi;
const cleanups: Array<() => Promise<unknown>> = [];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.skipIf(PG_CLUSTER_SKIP_REASON !== null)(`PostgreSQL down for 20 s mid-conversation (${PG_CLUSTER_SKIP_REASON ?? 'on a private PostgreSQL'})`, () => {
  beforeAll(async () => {
    cluster = await startPgCluster();
    db = await createDb({ databaseUrl: cluster.url, dataDir: mkdtempSync(path.join(os.tmpdir(), 'funnels-outage-')) }, { poolMax: 5 });
    await migrate(db);
    fake = await startFakeBotApi({ webhookRetryMs: 250 });
  }, 60_000);
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  afterAll(async () => {
    await fake?.close();
    await db?.close().catch(() => undefined);
    await cluster?.destroy();
  });

  /** A running funnel of two stages, and a conversation: who should end with which messages. */
  async function conversation(username: string) {
    const ownerId = await createOwner(db);
    const bot = fake.addBot({ username });
    const { funnel } = await createFunnel(db, { ownerId, token: bot.token, username, stageSpecs: [{ text: 'Welcome', next: 'Go on' }, { text: 'Two', next: null }] });
    const { token } = bot;
    const person = (id: number) => ({ id, first_name: `P${id}` });
    const expected = new Map<number, string[]>();
    return {
      funnel,
      token,
      start(id: number) {
        fake.sendUserMessage(token, { from: person(id), text: '/start' });
        expected.set(id, ['Welcome']);
      },
      pressNext(id: number, welcome: Message) {
        const data = welcome.reply_markup?.inline_keyboard.flat().find((b) => 'callback_data' in b)?.callback_data;
        if (!data) throw new Error('no next-step button');
        fake.pressButton(token, { from: person(id), message_id: welcome.message_id, callback_data: data });
        expected.set(id, ['Welcome', 'Two']);
      },
      /** Every update answered, each exactly once. */
      async everyoneAnsweredOnce() {
        const texts = (id: number) => fake.botMessages(token, id).map((m) => m.text);
        await eventually(
          () => [...expected].filter(([id, want]) => texts(id).length < want.length).map(([id]) => id),
          (missing) => missing.length === 0,
          'every update answered after the database came back',
          60_000,
        );
        for (const [id, want] of expected) expect(texts(id), `person ${id}`).toEqual(want);
      },
    };
  }

  /** Stops the database for OUTAGE_MS while `during` runs (people pressing), then starts it again. */
  async function outage(during: () => Promise<void>): Promise<void> {
    await cluster.stop('fast');
    const startedAt = Date.now();
    try {
      await during();
      await sleep(Math.max(0, OUTAGE_MS - (Date.now() - startedAt)));
    } finally {
      await cluster.start();
    }
  }

  async function startRuntime(runtime: FunnelRuntime): Promise<FunnelRuntime> {
    cleanups.push(() => runtime.stop());
    await runtime.start();
    return runtime;
  }

  it('by long polling: /start and next-step pressed while the database is down are each answered once when it is back', { timeout: 180_000 }, async () => {
    const talk = await conversation('outage_db_poll_bot');
    await startRuntime(testRuntime(db, fake.url));
    for (const id of [1, 2, 3, 4]) talk.start(id);
    const welcomes = new Map<number, Message>();
    for (const id of [1, 2, 3, 4]) welcomes.set(id, await fake.waitForBotMessage(talk.token, id));

    await outage(async () => {
      await sleep(1_000);
      talk.pressNext(1, welcomes.get(1)!);
      talk.start(11);
      await sleep(5_000);
      talk.pressNext(2, welcomes.get(2)!);
      talk.start(12);
      await sleep(8_000);
      talk.pressNext(3, welcomes.get(3)!);
      talk.start(13);
      talk.start(14);
    });
    talk.pressNext(4, welcomes.get(4)!);
    await talk.everyoneAnsweredOnce();
  });

  it('by webhook: a delivery while the database is down is answered 503, and handled once when Telegram delivers it again', { timeout: 180_000 }, async () => {
    const talk = await conversation('outage_db_hook_bot');
    // The app receives the fake's POSTs and hands them to the runtime, made once its address is known.
    const runtimeOf: { runtime?: FunnelRuntime } = {};
    const app: FastifyInstance = Fastify();
    await app.register(webhookRoutes({ secretKey: SECRET_KEY, webhooks: { deliver: (id, update) => runtimeOf.runtime!.deliver(id, update) } }));
    await app.listen({ port: 0, host: '127.0.0.1' });
    cleanups.push(() => app.close());
    const { port } = app.server.address() as AddressInfo;
    const runtime = testRuntime(db, fake.url, { transport: 'webhook', config: { telegramApiRoot: fake.url, publicUrl: `http://127.0.0.1:${port}`, secretKey: SECRET_KEY } });
    runtimeOf.runtime = runtime;
    await startRuntime(runtime);
    await runtime.sync(talk.funnel.id);
    for (const id of [1, 2]) talk.start(id);
    const welcomes = new Map<number, Message>();
    for (const id of [1, 2]) welcomes.set(id, await fake.waitForBotMessage(talk.token, id));

    await outage(async () => {
      await sleep(1_000);
      talk.start(11);
      talk.pressNext(1, welcomes.get(1)!);
      // The positive signal that Telegram was told to try again: the webhook's last error.
      await eventually(
        () => fake.botState(talk.token).webhook.last_error_message,
        (message) => message !== undefined && /503/.test(message),
        'a delivery answered 503',
        10_000,
      );
      talk.start(12);
    });
    talk.pressNext(2, welcomes.get(2)!);
    await talk.everyoneAnsweredOnce();
    await eventually(() => fake.botState(talk.token).pending_update_count, (n) => n === 0, 'every delivery taken', 30_000);
  });
});
