// Shared by the server tests: a fresh database per test file (in-memory PGlite, or a new
// database on the PostgreSQL server named by TEST_DATABASE_URL), a configured app, a mailer
// that records what it sends, a movable clock, and the steps most tests start from.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, expect, inject } from 'vitest';
import { API } from '../../contract/auth';
import { buildApp, type AppDeps } from '../app';
import { loadConfig, type Config } from '../config';
import { createDb, migrate, type Db } from '../db';
import { createServices, type Services } from '../services';
import type { Mailer, MailMessage } from '../mail/mailer';

export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL?.trim() || null;

export interface TestDb {
  db: Db;
  /** The URL of the database made for this test, when running against PostgreSQL. */
  url: string | null;
  drop(): Promise<void>;
}

/**
 * A new, migrated, empty database for one test file: a copy of the run's migrated template
 * (server/test/global-setup.ts), or with `fromScratch` an empty one the migrations run on here.
 */
export async function createTestDb(options: { fromScratch?: boolean } = {}): Promise<TestDb> {
  // Read lazily: inject() exists only inside a Vitest run.
  const template = options.fromScratch ? null : inject(TEST_DATABASE_URL ? 'postgresTemplate' : 'pgliteTemplate');
  if (!TEST_DATABASE_URL) {
    const db = await createDb(
      { databaseUrl: null, dataDir: os.tmpdir() },
      { inMemory: true, ...(template ? { loadDataDir: template } : {}) },
    );
    if (!template) await migrate(db);
    return { db, url: null, drop: () => db.close() };
  }
  const name = `funnels_test_${process.pid}_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await admin.connect();
  await admin.query(template ? `create database "${name}" template "${template}"` : `create database "${name}"`);
  await admin.end();
  const url = new URL(TEST_DATABASE_URL);
  url.pathname = `/${name}`;
  const db = await createDb({ databaseUrl: url.toString(), dataDir: os.tmpdir() }, { poolMax: 5 });
  if (!template) await migrate(db);
  return {
    db,
    url: url.toString(),
    async drop() {
      await db.close().catch(() => undefined); // may already be closed by the test
      const cleanup = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await cleanup.connect();
      await cleanup.query(`drop database if exists "${name}" with (force)`);
      await cleanup.end();
    },
  };
}

export function tempDir(prefix = 'funnels-test-'): string {
  return mkdtempSync(path.join(os.tmpdir(), prefix));
}

export const TEST_BOT_TOKEN = '123456789:TEST-service-bot-token_aaaaaaaaaaaaaaa';

/** A Config for tests: its own data dir, no SPA, generous rate limits unless asked. */
export function testConfig(overrides: Partial<Config> = {}): Config {
  const dataDir = tempDir('funnels-data-');
  const base = loadConfig({
    DATA_DIR: dataDir,
    SECRET_KEY: 'test-secret-key-' + randomBytes(8).toString('hex'),
    PUBLIC_URL: 'https://funnels.test',
    DIST_DIR: path.join(dataDir, 'no-dist'),
    TELEGRAM_BOT_TOKEN: TEST_BOT_TOKEN,
    // Tests' webhook receivers listen on 127.0.0.1 (the https public URL would refuse them).
    WEBHOOKS_ALLOW_LOCAL: '1',
  });
  return { ...base, rateLimit: { windowS: 900, perIp: 10_000, perEmail: 10_000 }, ...overrides };
}

/** Records every message; tests wait for the one they expect. */
export interface RecordingMailer extends Mailer {
  messages: MailMessage[];
  /** Resolves with the first message (already sent or still to come) to this address. */
  next(to: string, timeoutMs?: number): Promise<MailMessage>;
}

export function recordingMailer(): RecordingMailer {
  const messages: MailMessage[] = [];
  const waiters: { to: string; resolve: (m: MailMessage) => void }[] = [];
  return {
    kind: 'outbox',
    messages,
    async send(message) {
      messages.push(message);
      for (const waiter of [...waiters]) {
        if (message.to === waiter.to) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve(message);
        }
      }
    },
    async close() {},
    next(to, timeoutMs = 5_000) {
      const found = messages.find((m) => m.to === to);
      if (found) {
        messages.splice(messages.indexOf(found), 1);
        return Promise.resolve(found);
      }
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no mail to ${to} within ${timeoutMs} ms`)), timeoutMs);
        waiters.push({
          to,
          resolve: (m) => {
            clearTimeout(timer);
            messages.splice(messages.indexOf(m), 1);
            resolve(m);
          },
        });
      });
    },
  };
}

/** A clock tests can move. */
export function testClock(start = new Date()) {
  let current = start.getTime();
  return {
    now: () => new Date(current),
    advance(seconds: number) {
      current += seconds * 1000;
    },
  };
}

export interface TestApp {
  app: FastifyInstance;
  db: Db;
  config: Config;
  mailer: RecordingMailer;
  clock: ReturnType<typeof testClock>;
  close(): Promise<void>;
}

/** The handle of a built app: readied, and closed with its data folder. */
async function readyTestApp<Extra extends object>(
  app: FastifyInstance,
  parts: Omit<TestApp, 'app' | 'close'>,
  extra: Extra,
): Promise<TestApp & Extra> {
  await app.ready();
  return {
    app,
    ...parts,
    ...extra,
    async close() {
      await app.close();
      rmSync(parts.config.dataDir, { recursive: true, force: true });
    },
  };
}

/** An app on the given database (one per test file) with a recording mailer and a test clock. */
export async function createTestApp(
  db: Db,
  options: { config?: Partial<Config>; deps?: Partial<AppDeps>; mailer?: Mailer } = {},
): Promise<TestApp> {
  const config = testConfig(options.config);
  const mailer = recordingMailer();
  const clock = testClock();
  const app = await buildApp({
    config,
    db,
    mailer: options.mailer ?? mailer,
    logger: false,
    now: clock.now,
    ...options.deps,
  });
  return readyTestApp(app, { db, config, mailer, clock }, {});
}

/**
 * Like createTestApp, with the services built here on the test clock and handed back too: for
 * tests that call a service directly (billing's payments, the partner programme's hooks).
 */
export async function createTestAppWithServices(db: Db, configOverrides: Partial<Config> = {}): Promise<TestApp & { services: Services }> {
  const config = testConfig(configOverrides);
  const clock = testClock();
  const mailer = recordingMailer();
  const services = createServices({ config, db, mailer, log: { info: () => {}, warn: () => {}, error: () => {} }, now: clock.now });
  const app = await buildApp({ config, db, mailer, logger: false, services });
  return readyTestApp(app, { db, config, mailer, clock }, { services });
}

/**
 * A fresh database and app for the calling test file: made before its tests run, closed and
 * dropped after them. Read `.app` and `.db` inside tests (they exist once beforeAll has run).
 */
export function useTestApp(): { readonly app: TestApp; readonly db: TestDb } {
  let testDb: TestDb | undefined;
  let t: TestApp | undefined;
  beforeAll(async () => {
    testDb = await createTestDb();
    t = await createTestApp(testDb.db);
  });
  afterAll(async () => {
    await t?.close();
    await testDb?.drop();
  });
  return {
    get app() {
      if (!t) throw new Error('useTestApp: the app exists only once beforeAll has run');
      return t;
    },
    get db() {
      if (!testDb) throw new Error('useTestApp: the database exists only once beforeAll has run');
      return testDb;
    },
  };
}

let emailCounter = 0;
/**
 * A unique address per call, so tests in one file never collide. The random part is letters
 * only: six random hex digits are all digits about 6% of the time, and then a numeric test
 * password was also "too similar to the email".
 */
export function uniqueEmail(label = 'user'): string {
  emailCounter += 1;
  const letters = [...randomBytes(6)].map((byte) => String.fromCharCode(97 + (byte % 26))).join('');
  return `${label}.${emailCounter}.${letters}@example.com`;
}

export const GOOD_PASSWORD = 'Sunny-meadow-42';

/** {uid, token} from an activation or reset link. */
export function linkParts(link: string): { uid: string; token: string } {
  const match = /\/(?:activate|reset-pass)\/([^/]+)\/([^/]+)\/?$/.exec(new URL(link).pathname);
  if (!match) throw new Error(`not an e-mail link: ${link}`);
  return { uid: match[1], token: match[2] };
}

export function linkIn(message: MailMessage): string {
  expect(message.links?.length).toBe(1);
  return message.links![0];
}

export const auth = (key: string) => ({ authorization: `Token ${key}` });

export async function post(app: FastifyInstance, url: string, payload?: unknown, headers: Record<string, string> = {}) {
  return app.inject({ method: 'POST', url, payload: payload as object, headers });
}

/** Registers an account and returns the activation mail's link parts. */
export async function register(t: TestApp, email = uniqueEmail(), extra: Record<string, unknown> = {}) {
  const res = await post(t.app, API.register, { email, password: GOOD_PASSWORD, re_password: GOOD_PASSWORD, ...extra });
  expect(res.statusCode, res.body).toBe(201);
  const mail = await t.mailer.next(email);
  return { email, id: res.json().id as number, mail, ...linkParts(linkIn(mail)) };
}

/** Registers, activates and signs in; returns the account and its API key. */
export async function signedInUser(t: TestApp, email = uniqueEmail(), extra: Record<string, unknown> = {}) {
  const account = await register(t, email, extra);
  const activated = await post(t.app, API.activation, { uid: account.uid, token: account.token });
  expect(activated.statusCode, activated.body).toBe(204);
  const key = await login(t.app, email, GOOD_PASSWORD);
  return { ...account, key };
}

export async function login(app: FastifyInstance, email: string, password: string): Promise<string> {
  const res = await post(app, API.login, { email, password });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().auth_token as string;
}

/** Every answer of the API is JSON with a Djoser-shaped body. */
export function expectJsonError(res: LightMyRequestResponse, status: number): Record<string, unknown> {
  expect(res.statusCode, res.body).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  return res.json();
}
