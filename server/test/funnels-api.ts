// Shared by the product API tests: an app whose Telegram is the local fake Bot API, a runtime
// port that records its calls, signed-in users, and a connected funnel in one call.
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, expect } from 'vitest';
import { FUNNELS_API, type Funnel, type Stage, type Tag } from '../../contract/funnels';
import { startFakeBotApi, type FakeBotApi } from '../../scripts/telegram/fake-bot-api';
import type { FunnelRuntimePort } from '../funnels/runtime-port';
import { auth, createTestApp, createTestDb, signedInUser, type TestApp, type TestDb } from './helpers';
import { people } from '../db/schema';

export interface FunnelsTestEnv {
  testDb: TestDb;
  t: TestApp;
  fake: FakeBotApi;
  synced: number[];
  /** The funnels whose stages the services told the runtime had changed, in order. */
  stagesChanged: number[];
  close(): Promise<void>;
}

export async function funnelsTestEnv(): Promise<FunnelsTestEnv> {
  const testDb = await createTestDb();
  const fake = await startFakeBotApi();
  const synced: number[] = [];
  const stagesChanged: number[] = [];
  const runtime: FunnelRuntimePort = {
    async sync(funnelId) {
      synced.push(funnelId);
    },
    stagesChanged(funnelId) {
      stagesChanged.push(funnelId);
    },
  };
  const t = await createTestApp(testDb.db, { config: { telegramApiRoot: fake.url }, deps: { funnelRuntime: runtime } });
  return {
    testDb,
    t,
    fake,
    synced,
    stagesChanged,
    async close() {
      await t.close();
      await fake.close();
      await testDb.drop();
    },
  };
}

/** The calling test file's env: filled in before its tests run, closed after them. */
export function useFunnelsTestEnv(): FunnelsTestEnv {
  const env = {} as FunnelsTestEnv;
  beforeAll(async () => {
    Object.assign(env, await funnelsTestEnv());
  });
  afterAll(async () => {
    await env.close?.();
  });
  return env;
}

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export function call(env: FunnelsTestEnv, key: string, method: Method, url: string, payload?: unknown): Promise<LightMyRequestResponse> {
  return env.t.app.inject({ method, url, headers: auth(key), ...(payload === undefined ? {} : { payload: payload as object }) });
}

/** The answer's JSON, after checking its status. */
export function ok<T = Record<string, unknown>>(res: LightMyRequestResponse, status = 200): T {
  expect(res.statusCode, res.body).toBe(status);
  return res.json() as T;
}

let botCounter = 0;
export function newBot(env: FunnelsTestEnv, firstName = 'Shop') {
  botCounter += 1;
  return env.fake.addBot({ username: `shop${botCounter}_${Math.random().toString(36).slice(2, 8)}_bot`, first_name: firstName });
}

export async function user(env: FunnelsTestEnv): Promise<string> {
  return (await signedInUser(env.t)).key;
}

export async function connectFunnel(env: FunnelsTestEnv, key: string, name?: string): Promise<Funnel & { token: string }> {
  const bot = newBot(env);
  const funnel = ok<Funnel>(await call(env, key, 'POST', FUNNELS_API.funnels, { bot_token: bot.token, ...(name ? { name } : {}) }), 201);
  return { ...funnel, token: bot.token };
}

export async function addStage(env: FunnelsTestEnv, key: string, funnelId: number, body: Record<string, unknown> = {}): Promise<Stage> {
  return ok<Stage>(await call(env, key, 'POST', FUNNELS_API.stages(funnelId), { title: 'Stage', ...body }), 201);
}

/** A stage with a message, as a funnel needs before it can run. */
export async function addRunnableStage(env: FunnelsTestEnv, key: string, funnelId: number, body: Record<string, unknown> = {}): Promise<Stage> {
  const stage = await addStage(env, key, funnelId, body);
  ok(await call(env, key, 'PUT', FUNNELS_API.stageMessage(stage.id), { text: `Hello from ${stage.title}`, media_id: null, buttons: [], next_button: null }));
  return stage;
}

export async function addTag(env: FunnelsTestEnv, key: string, funnelId: number, title: string): Promise<Tag> {
  return ok<Tag>(await call(env, key, 'POST', FUNNELS_API.tags(funnelId), { title }), 201);
}

let telegramIdCounter = 1000;
/** A person as the bot runtime would create one. */
export async function addPerson(env: FunnelsTestEnv, funnelId: number, fields: Partial<typeof people.$inferInsert> = {}) {
  telegramIdCounter += 1;
  const [row] = await env.t.db.orm
    .insert(people)
    .values({ funnelId, telegramId: telegramIdCounter, firstName: 'Ann', ...fields })
    .returning();
  return row;
}

export const NOT_FOUND = { detail: 'Not found.', code: 'not_found' };
