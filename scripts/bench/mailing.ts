// npm run bench:mailing — the delivery engine against the fake Bot API (in its own process,
// enforcing Telegram's limits: 30 messages a second per bot, 429 with retry_after), with the
// engine, the bot runtime and the database (embedded PGlite unless DATABASE_URL is set) in this
// process. Two scenarios, one after the other:
//   A. one bot mailing BENCH_PEOPLE people (default 3,000; the figure is 10,000), while
//      20 new subscribers press /start and the runtime answers them (replies go first);
//   B. BENCH_BOTS bots (default 50) mailing BENCH_PER_BOT people each (default 1,000) at once.
// Prints per scenario: messages/s per bot against the cap of 30 (median and lowest; goal ≥ 95 %),
// 429s (goal 0), people who got it twice and people who did not get it (goal 0 and 0), this
// process's peak RSS (goal < 300 MB on PostgreSQL), and in A the reply time of the /start
// presses during the mailing (goal p99 < 1 s). Letters are not benched here yet.
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { DEFAULT_SEND_RATE } from '../../contract/mailings';
import { FunnelRuntime } from '../../server/bots/runtime/runtime';
import { createDb, migrate, type Db } from '../../server/db';
import { mailings, people as peopleTable } from '../../server/db/schema';
import { OutboxSender } from '../../server/jobs/outbox-sender';
import { createMailingService } from '../../server/mailings/mailings';
import { createFunnel, createOwner, silentLog } from '../../server/test/funnel-runtime';
import { BotRateLimits } from '../../server/telegram/rate-limiter';
import type { Spread } from './stats';

const PEOPLE = Number(process.env.BENCH_PEOPLE ?? 3000);
const BOTS = Number(process.env.BENCH_BOTS ?? 50);
const PER_BOT = Number(process.env.BENCH_PER_BOT ?? 1000);
const TEXT = 'The autumn sale starts now!';
const CAP = 30;

function ask<T>(child: ChildProcess, message: unknown, replyType: string): Promise<T> {
  return new Promise((resolve) => {
    const onMessage = (reply: { type: string }) => {
      if (reply.type !== replyType) return;
      child.off('message', onMessage);
      resolve(reply as T);
    };
    child.on('message', onMessage);
    if (message) child.send(message as object);
  });
}

async function benchDb(): Promise<{ db: Db; cleanup(): Promise<void> }> {
  const base = process.env.DATABASE_URL?.trim();
  if (!base) {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bench-mailing-'));
    const db = await createDb({ databaseUrl: null, dataDir });
    await migrate(db);
    return { db, cleanup: async () => (await db.close(), rmSync(dataDir, { recursive: true, force: true })) };
  }
  const name = `bench_mailing_${process.pid}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`create database "${name}"`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  const db = await createDb({ databaseUrl: url.toString(), dataDir: os.tmpdir() });
  await migrate(db);
  return {
    db,
    async cleanup() {
      await db.close();
      const drop = new pg.Client({ connectionString: base });
      await drop.connect();
      await drop.query(`drop database if exists "${name}" with (force)`);
      await drop.end();
    },
  };
}

interface Report {
  perBot: Array<{ rate: number; max: number; tooMany: number; twice: number; got: number }>;
  replies: Spread;
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
const ms = (v: number) => (Number.isNaN(v) ? '—' : `${v.toFixed(0)} ms`);

async function scenario(
  name: string,
  child: ChildProcess,
  url: string,
  { bots, people, probes }: { bots: number; people: number; probes: number },
): Promise<void> {
  const { db, cleanup } = await benchDb();
  const ownerId = await createOwner(db);
  const { bots: made } = await ask<{ bots: Array<{ token: string; username: string }> }>(child, { type: 'addBots', count: bots }, 'bots');
  const funnels = [];
  for (const [i, bot] of made.entries()) {
    const { funnel } = await createFunnel(db, { ownerId, token: bot.token, username: bot.username, stageSpecs: [{ text: 'Welcome! Here is the guide.', next: 'Next' }, { text: 'Thanks', next: null }] });
    await ask(child, { type: 'subscribe', token: bot.token, from: 1_000_000 + i * 100_000, count: people }, 'subscribed');
    funnels.push(funnel);
  }
  // The people rows (the fake already knows their chats).
  for (const [i, funnel] of funnels.entries()) {
    const values = Array.from({ length: people }, (_, k) => ({ funnelId: funnel.id, telegramId: 1_000_000 + i * 100_000 + k, firstName: `P${k}` }));
    for (let k = 0; k < values.length; k += 2000) await db.orm.insert(peopleTable).values(values.slice(k, k + 2000));
  }
  const limits = new BotRateLimits(DEFAULT_SEND_RATE);
  const runtime = probes
    ? new FunnelRuntime({
        db,
        config: { telegramApiRoot: url, publicUrl: 'http://127.0.0.1:9', secretKey: 'bench' },
        tokenOf: (f) => f.botTokenEncrypted,
        log: silentLog,
        transport: 'polling',
        reconcileIntervalMs: 0,
        limits,
      })
    : null;
  // The subscribers' /start that made the chats is old news: the runtime starts after it.
  await runtime?.start();
  const service = createMailingService({ db, now: () => new Date() });
  const sender = new OutboxSender({ db, apiRoot: url, tokenOf: (f) => f.botTokenEncrypted, log: silentLog, limits, startMailing: (id) => service.startNow(id) });
  const ids = [];
  for (const funnel of funnels) {
    const [m] = await db.orm
      .insert(mailings)
      .values({ funnelId: funnel.id, title: 'Bench', message: { text: TEXT, media_id: null, buttons: [], next_button: null }, audience: { stages_in: [], stages_out: [], tags_in: [], tags_out: [] } })
      .returning();
    ids.push(m.id);
  }
  global.gc?.();
  let peakRss = 0;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 100);
  const startedAt = performance.now();
  await sender.start();
  for (const id of ids) await service.startNow(id);
  sender.wake();
  if (probes) {
    // Let the runtime take in the old /starts first, then probe during the mailing.
    await new Promise((resolve) => setTimeout(resolve, 3000));
    await ask(child, { type: 'probe', token: made[0].token, from: 9_000_000, count: probes, everyMs: 500 }, 'probing');
  }
  for (;;) {
    const rows = await db.query<{ n: number }>(`select count(*)::int as n from mailings where id = any($1::int[]) and state <> 'finished'`, [ids]);
    if (Number(rows[0].n) === 0) break;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  const seconds = (performance.now() - startedAt) / 1000;
  clearInterval(sampler);
  await sender.stop();
  await runtime?.stop();
  const report = await ask<Report>(child, { type: 'report', tokens: made.map((b) => b.token), text: TEXT }, 'report');
  const rates = report.perBot.map((b) => b.rate).sort((a, b) => a - b);
  const median = rates[Math.floor(rates.length / 2)];
  const total = bots * people;
  const got = report.perBot.reduce((n, b) => n + b.got, 0);
  console.log(`\n${name}: ${bots} bot(s) × ${people} people = ${total} messages in ${seconds.toFixed(1)} s on ${process.env.DATABASE_URL ? 'PostgreSQL' : 'embedded PGlite'}`);
  console.log(`  messages/s per bot: median ${median.toFixed(1)}, lowest ${rates[0].toFixed(1)} (cap ${CAP}: ${((median / CAP) * 100).toFixed(0)} % / ${((rates[0] / CAP) * 100).toFixed(0)} %; goal ≥ 95 %)`);
  console.log(`  most in any second: ${Math.max(...report.perBot.map((b) => b.max))}; 429s: ${report.perBot.reduce((n, b) => n + b.tooMany, 0)} (goal 0)`);
  console.log(`  twice: ${report.perBot.reduce((n, b) => n + b.twice, 0)}, not received: ${total - got} (goal 0 and 0)`);
  console.log(`  peak RSS ${mb(peakRss)} (goal < 300 MB on PostgreSQL)`);
  if (probes) console.log(`  reply to /start during the mailing: p50 ${ms(report.replies.p50)}, p99 ${ms(report.replies.p99)}, max ${ms(report.replies.max)} (goal p99 < 1 s)`);
  await cleanup();
}

async function main(): Promise<void> {
  const child = fork(fileURLToPath(new URL('./mailing-fake.ts', import.meta.url)), [], { execArgv: ['--import', 'tsx'], stdio: 'inherit' });
  process.on('exit', () => child.exitCode === null && child.kill('SIGKILL'));
  const { url } = await ask<{ url: string }>(child, null, 'ready');
  await scenario('A. one bot', child, url, { bots: 1, people: PEOPLE, probes: 20 });
  await scenario(`B. ${BOTS} bots at once`, child, url, { bots: BOTS, people: PER_BOT, probes: 0 });
  child.send({ type: 'close' });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
