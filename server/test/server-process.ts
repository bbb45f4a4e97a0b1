// A real server process (server/main.ts) for the tests that kill it: its database prepared
// beforehand (embedded PGlite files under a DATA_DIR, or a PostgreSQL database in CI), funnels whose
// bots live in the fake Bot API, and the HTTP API of the running process to watch it.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { MAILINGS_API, type Mailing } from '../../contract/mailings';
import type { FakeTelegram } from '../../scripts/telegram/fake-bot-api/fake-telegram';
import { hashPassword } from '../accounts/passwords';
import { createDb, migrate, type Db } from '../db';
import { funnels, mailings, stages, users } from '../db/schema';
import { botTokenHash, botTokenHint, encryptSecret } from '../funnels/secret-box';
import { createMailingService } from '../mailings/mailings';
import { eventually, until, whileRunning } from './eventually';
import { addSubscribers } from './mailings';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const SECRET_KEY = 'crash-test-secret-key-0123456789abcdef';
export const OWNER_PASSWORD = 'Kill-9-and-back!';

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Where the server process keeps its data: a fresh DATA_DIR, and DATABASE_URL when given. */
export interface ServerData {
  dataDir: string;
  databaseUrl: string | null;
}

export function newDataDir(): string {
  return mkdtempSync(path.join(os.tmpdir(), 'funnels-crash-'));
}

/** Opens the process's database from this test (PGlite: only while the process is not running). */
export async function openDb(data: ServerData): Promise<Db> {
  const db = await createDb({ databaseUrl: data.databaseUrl, dataDir: data.dataDir });
  await migrate(db);
  return db;
}

/** An owner, `bots` funnels of `people` subscribers each, and a mailing per funnel (started unless `start` is false). */
export async function seedMailings(db: Db, fake: FakeTelegram, { bots, people, start = true }: { bots: number; people: number; start?: boolean }) {
  const email = `owner.${Date.now()}@example.com`;
  const [owner] = await db.orm.insert(users).values({ email, isActive: true, passwordHash: await hashPassword(OWNER_PASSWORD) }).returning();
  const service = createMailingService({ db, now: () => new Date() });
  const made: Array<{ token: string; funnelId: number; mailingId: number }> = [];
  for (let b = 0; b < bots; b++) {
    const username = `crash${Date.now().toString(36)}${b}_bot`;
    const { token } = fake.addBot({ username, first_name: `Crash ${b}` });
    const [funnel] = await db.orm
      .insert(funnels)
      .values({
        ownerId: owner.id,
        name: `Crash ${b}`,
        botTokenEncrypted: encryptSecret(token, SECRET_KEY),
        botTokenHash: botTokenHash(token),
        botTokenHint: botTokenHint(token),
        botId: Number(token.split(':')[0]),
        botUsername: username,
      })
      .returning();
    await addSubscribers(db, fake, token, funnel.id, people);
    const [mailing] = await db.orm
      .insert(mailings)
      .values({
        funnelId: funnel.id,
        title: 'Crash sale',
        message: { text: 'Sale today, {first_name|friend}!', media_id: null, buttons: [], next_button: null },
        audience: { stages_in: [], stages_out: [], tags_in: [], tags_out: [] },
      })
      .returning();
    made.push({ token, funnelId: funnel.id, mailingId: mailing.id });
  }
  if (start) for (const m of made) await service.startNow(m.mailingId);
  return { email, made };
}

/** An owner and one running funnel (long polling) whose first stage greets: the reply /start causes. */
export async function seedRunningFunnel(db: Db, fake: FakeTelegram, text = 'Welcome, {first_name|friend}!') {
  const [owner] = await db.orm
    .insert(users)
    .values({ email: `owner.${Date.now()}@example.com`, isActive: true, passwordHash: await hashPassword(OWNER_PASSWORD) })
    .returning();
  const username = `reply${Date.now().toString(36)}_bot`;
  const { token } = fake.addBot({ username, first_name: 'Replies' });
  const [funnel] = await db.orm
    .insert(funnels)
    .values({
      ownerId: owner.id,
      name: 'Replies',
      state: 'running',
      botTokenEncrypted: encryptSecret(token, SECRET_KEY),
      botTokenHash: botTokenHash(token),
      botTokenHint: botTokenHint(token),
      botId: Number(token.split(':')[0]),
      botUsername: username,
    })
    .returning();
  const [stage] = await db.orm
    .insert(stages)
    .values({ funnelId: funnel.id, title: 'Hello', position: 0, message: { text, media_id: null, buttons: [], next_button: null } })
    .returning();
  return { token, funnelId: funnel.id, stageId: stage.id };
}

export interface RunningServer {
  child: ChildProcess;
  port: number;
  exited: Promise<number | null>;
  output(): string;
}

/** Starts server/main.ts as its own process (as `npm start` runs it, without the build step). */
export function startServer(data: ServerData, port: number, apiRoot: string, env: Record<string, string> = {}): RunningServer {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'server/main.ts')], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: data.dataDir,
      ...(data.databaseUrl ? { DATABASE_URL: data.databaseUrl } : { DATABASE_URL: '' }),
      SECRET_KEY,
      TELEGRAM_API_ROOT: apiRoot,
      TELEGRAM_BOT_TOKEN: '',
      DIST_DIR: path.join(data.dataDir, 'no-dist'),
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stdout?.on('data', (chunk: Buffer) => (log = (log + chunk.toString()).slice(-20_000)));
  child.stderr?.on('data', (chunk: Buffer) => (log = (log + chunk.toString()).slice(-20_000)));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, port, exited, output: () => log };
}

/** Whether a server answers its health check on `port` now. */
export async function answers(port: number): Promise<boolean> {
  try {
    return (await fetch(`http://127.0.0.1:${port}/api/health`)).ok;
  } catch {
    return false; // not listening (yet, or any more)
  }
}

/** Resolves once the server answers its health check; fails with its output if it exits first. */
export async function untilHealthy(server: RunningServer, timeoutMs = 60_000): Promise<void> {
  await until(() => answers(server.port), 'the server to answer its health check', whileRunning(server, timeoutMs, 100));
}

export async function loginKey(port: number, email: string): Promise<string> {
  const res = await fetch(`http://127.0.0.1:${port}/api/token/login/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: OWNER_PASSWORD }),
  });
  if (!res.ok) throw new Error(`login failed: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { auth_token: string }).auth_token;
}

export async function apiGet<T>(port: number, key: string, url: string): Promise<T> {
  const res = await fetch(`http://127.0.0.1:${port}${url}`, { headers: { authorization: `Token ${key}` } });
  if (!res.ok) throw new Error(`${url}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/**
 * Runs an npm script of this project as an operator would (`npm start`), with the same npm that
 * runs the tests. `group`: in a process group of its own, as systemd starts a service, so a test
 * can signal the whole group (`kill -TERM -<pgid>`) as systemd's stop does.
 */
export function npm(script: string[], env: Record<string, string>, { group = false } = {}) {
  const npmCli = process.env.npm_execpath;
  const options = { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] as ['ignore', 'pipe', 'pipe'], detached: group };
  const child = npmCli?.endsWith('.js') ? spawn(process.execPath, [npmCli, ...script], options) : spawn('npm', script, options);
  let log = '';
  child.stdout.on('data', (chunk: Buffer) => (log = (log + chunk.toString()).slice(-50_000)));
  child.stderr.on('data', (chunk: Buffer) => (log = (log + chunk.toString()).slice(-50_000)));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, exited, output: () => log };
}

/** The environment `npm start` needs to serve one test: its port, its data, the fake Bot API, no build. */
export function startEnv(data: ServerData, port: number, apiRoot: string): Record<string, string> {
  return {
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: data.dataDir,
    DATABASE_URL: data.databaseUrl ?? '',
    SECRET_KEY,
    TELEGRAM_API_ROOT: apiRoot,
    TELEGRAM_BOT_TOKEN: '',
    SKIP_BUILD: '1',
    DIST_DIR: path.join(data.dataDir, 'no-dist'),
    LOG_LEVEL: 'info',
  };
}

/** Of a bot's chats in the fake: how many people got its messages more than once, and how many got none. */
export function twiceAndNone(fake: FakeTelegram, token: string): { twice: number; none: number } {
  let twice = 0;
  let none = 0;
  for (const chat of fake.botState(token).chats) {
    const count = fake.botMessages(token, chat.id).length;
    if (count > 1) twice += 1;
    if (count === 0) none += 1;
  }
  return { twice, none };
}

/** Reads a mailing through the process's API until it has finished; fails with its last state after the timeout. */
export async function untilMailingFinished(port: number, key: string, mailingId: number, timeoutMs = 150_000): Promise<Mailing> {
  return eventually(() => apiGet<Mailing>(port, key, MAILINGS_API.mailing(mailingId)), (mailing) => mailing.state === 'finished', `mailing ${mailingId} to finish`, { timeoutMs, pollMs: 250 });
}

/** The start of the text of the stage seedDueTimers' timers move people to. */
export const TIME_IS_UP = 'Time is up';

/** An owner and `bots` funnels whose `people` each wait in Welcome, their timers (to Later) due a minute ago. */
export async function seedDueTimers(db: Db, api: FakeTelegram, bots: number, people: number) {
  const email = `owner.${Date.now()}@example.com`;
  const [owner] = await db.orm.insert(users).values({ email, isActive: true, passwordHash: await hashPassword(OWNER_PASSWORD) }).returning();
  const made: Array<{ token: string; funnelId: number; laterId: number }> = [];
  for (let b = 0; b < bots; b++) {
    const username = `timer${Date.now().toString(36)}${b}_bot`;
    const { token } = api.addBot({ username, first_name: `Timer ${b}` });
    // Running: a fired timer's reply is sent by the funnel's bot runtime, as every move's is.
    const [funnel] = await db.orm
      .insert(funnels)
      .values({
        ownerId: owner.id,
        name: `Timer ${b}`,
        state: 'running',
        botTokenEncrypted: encryptSecret(token, SECRET_KEY),
        botTokenHash: botTokenHash(token),
        botTokenHint: botTokenHint(token),
        botId: Number(token.split(':')[0]),
        botUsername: username,
      })
      .returning();
    const [welcome, later] = await db.orm
      .insert(stages)
      .values([
        { funnelId: funnel.id, title: 'Welcome', position: 0, message: { text: 'Welcome', media_id: null, buttons: [], next_button: null } },
        { funnelId: funnel.id, title: 'Later', position: 1, message: { text: `${TIME_IS_UP}, {first_name|friend}!`, media_id: null, buttons: [], next_button: null } },
      ])
      .returning();
    await db.query(`update stages set wait = $2 where id = $1`, [welcome.id, { amount: 1, unit: 'minutes', to_stage_id: later.id, only_if_silent: false }]);
    await addSubscribers(db, api, token, funnel.id, people, { stageId: welcome.id });
    // Their /start updates are behind the bot's offset (handled long ago, as far as the runtime
    // knows): it polls only what comes after them.
    const last = api.sendUserMessage(token, { from: { id: 990_000_000 + b, first_name: 'Seed' }, text: 'seeded' });
    await db.query('update funnels set update_offset = $2 where id = $1', [funnel.id, last.update_id + 1]);
    // Placed in Welcome (the trigger makes their timers), a minute before the server started.
    await db.query(`insert into stage_moves (funnel_id, person_id, to_stage_id, via) select funnel_id, id, stage_id, 'start' from people where funnel_id = $1`, [funnel.id]);
    await db.query(`update person_timers set due_at = now() - interval '1 minute' where funnel_id = $1`, [funnel.id]);
    made.push({ token, funnelId: funnel.id, laterId: later.id });
  }
  return { email, made };
}
