// npm run bench:bots — N funnels' bots running at once in this process (the bot runtime, long
// polling, embedded PGlite unless DATABASE_URL is set) against the fake Bot API in a separate
// process (scripts/bench/bots-fake.ts), so the fake's own cost is not counted. Each subscriber
// follows a script (scripts/bench/bots-funnel.ts), sending its next update when the reply to the
// last one arrives:
// - BENCH_FUNNEL=branches (the default; issue 24): /start; a choice button to one of two branches;
//   on the course branch an e-mail question (a third of them first answer "not sure yet" and are
//   asked again); the keyword "price" from either branch; last, ordinary text (inbox, no reply).
// - BENCH_FUNNEL=linear (issue 3): /start and then the next-step button on every reply, 3 stages.
//
// Reports: updates handled per second; p50/p95/p99/max from an update to its reply per kind of
// update and overall, three ways: in the runtime (its own timing points,
// server/telegram/diagnostics.ts: the update received → the reply handed to the network; this is
// the goals' "not counting Telegram"), through the fake (its getUpdates answer out → the reply
// in), and end to end (injected → reply in, the fake's own queues too); CPU; this process's memory
// (RSS, heap) with every bot running and at its peak. Then every chat, warm-up ones too, is checked
// against its script: each update got exactly the reply due (the right stage, in order; none
// lost, none doubled; ordinary text none, and kept in the inbox once; each valid e-mail kept).
// Goals: issue 3 (linear): 500 bots under 400 MB, 2,000 updates/s, p99 < 50 ms; issue 24
// (branches): 800 updates/s with p99 < 50 ms on PostgreSQL.
//
// The load runs BENCH_WARMUP_S seconds before it is measured (new connections, JIT, prepared
// statements and caches make the first seconds slower), then BENCH_DURATION_S seconds measured.
//
// Options (environment): BENCH_FUNNEL (branches), BENCH_BOTS (500), BENCH_RATE updates/s offered
// (800 for branches, 2000 for linear), BENCH_WARMUP_S (5), BENCH_DURATION_S (60 for branches, 20
// for linear), DATABASE_URL (a real PostgreSQL instead of the embedded one; a throw-away database
// is made and dropped). The embedded database lives in this process, so its memory (PGlite's WASM
// heap) counts in RSS.
import { fork, type ChildProcess } from 'node:child_process';
import os from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { and, count, eq, sql } from 'drizzle-orm';
import type { Db } from '../../server/db';
import { funnelFields, funnelKeywords, personEvents, personFields, stages } from '../../server/db/schema';
import { createFunnel, createOwner, silentLog } from '../../server/test/funnel-runtime';
import { type BotApiCallSent, botApiCallSent, type UpdateReceived, updateReceived } from '../../server/telegram/diagnostics';
import { FunnelRuntime } from '../../server/bots/runtime/runtime';
import { benchDb } from './db';
import type { LoadResult } from './bots-fake';
import { BRANCH_ASK_STAGE, BRANCH_KEYWORD_STAGE, benchFunnelOf, KEYWORD, ORDINARY_TEXT, REASK_EMAIL, stagesOf, type UpdateKind } from './bots-funnel';
import { spread, type Spread } from './stats';

const FUNNEL = benchFunnelOf(process.env.BENCH_FUNNEL);
const BOTS = Number(process.env.BENCH_BOTS ?? 500);
const RATE = Number(process.env.BENCH_RATE ?? (FUNNEL === 'linear' ? 2000 : 800));
const WARMUP_S = Number(process.env.BENCH_WARMUP_S ?? 5);
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? (FUNNEL === 'linear' ? 20 : 60));
/** The goals' rate: issue 3's for the linear funnel, issue 24's for branches. */
const GOAL_RATE = FUNNEL === 'linear' ? 2000 : 800;

/** The branches funnel's e-mail field, its question (stage 1) and its keyword (to stage 3). */
async function addAskAndKeyword(db: Db, funnelId: number, stageIds: number[]): Promise<void> {
  const [field] = await db.orm.insert(funnelFields).values({ funnelId, key: 'email', title: 'E-mail', kind: 'email' }).returning({ id: funnelFields.id });
  await db.orm.update(stages).set({ ask: { field_id: field.id, reask_text: REASK_EMAIL } }).where(eq(stages.id, stageIds[BRANCH_ASK_STAGE]));
  await db.orm.insert(funnelKeywords).values({ funnelId, phrase: KEYWORD, stageId: stageIds[BRANCH_KEYWORD_STAGE] });
}

const spreadLine = (s: Spread) => (Number.isNaN(s.p50) ? 'no replies' : `p50 ${s.p50.toFixed(1)}, p95 ${s.p95.toFixed(1)}, p99 ${s.p99.toFixed(1)}, max ${s.max.toFixed(1)} ms`);

/** p50/p95/p99/max of a list of times (sorted in place). */
function line(times: number[]): string {
  if (times.length === 0) return 'no replies';
  return `${spreadLine(spread(times))} (${times.length})`;
}

/** CPU time of the whole machine (all processes, all cores), for "was anything left over". */
function machineTimes(): { busy: number; total: number } {
  let busy = 0;
  let total = 0;
  for (const { times } of os.cpus()) {
    const all = times.user + times.nice + times.sys + times.idle + times.irq;
    total += all;
    busy += all - times.idle;
  }
  return { busy, total };
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

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

async function main(): Promise<void> {
  const child = fork(fileURLToPath(new URL('./bots-fake.ts', import.meta.url)), [], { execArgv: ['--max-semi-space-size=32', ...(process.env.BENCH_FAKE_NODE_ARGS?.split(' ').filter(Boolean) ?? []), '--import', 'tsx'], stdio: 'inherit' });
  process.on('exit', () => child.exitCode === null && child.kill('SIGKILL'));
  const { url } = await ask<{ url: string }>(child, null, 'ready');
  const { bots } = await ask<{ bots: Array<{ token: string; username: string }> }>(child, { type: 'addBots', count: BOTS }, 'bots');

  const { db, cleanup } = await benchDb('bots');
  // The runtime's statements (raw SQL: all of its per-update ones) timed while measured, pool
  // wait included: round trips per update, and where the database time goes.
  const statements = new Map<string, { calls: number; ms: number; max: number }>();
  let profiling = false;
  const rawQuery = db.query.bind(db);
  db.query = async <Row,>(text: string, params?: unknown[]): Promise<Row[]> => {
    if (!profiling) return rawQuery<Row>(text, params);
    const startedAt = performance.now();
    try {
      return await rawQuery<Row>(text, params);
    } finally {
      const ms = performance.now() - startedAt;
      const entry = statements.get(text) ?? { calls: 0, ms: 0, max: 0 };
      entry.calls += 1;
      entry.ms += ms;
      entry.max = Math.max(entry.max, ms);
      statements.set(text, entry);
    }
  };
  const ownerId = await createOwner(db);
  for (const bot of bots) {
    const { funnel, stageIds } = await createFunnel(db, { ownerId, token: bot.token, username: bot.username, stageSpecs: stagesOf(FUNNEL) });
    if (FUNNEL === 'branches') await addAskAndKeyword(db, funnel.id, stageIds);
  }
  const tokens = bots.map((b) => b.token);

  global.gc?.();
  const before = process.memoryUsage();
  const runtime = new FunnelRuntime({
    db,
    config: { telegramApiRoot: url, publicUrl: 'http://127.0.0.1:9', secretKey: 'bench' },
    tokenOf: (funnel) => funnel.botTokenEncrypted!,
    log: { ...silentLog, error: (...args: unknown[]) => console.error('runtime error:', ...args) } as typeof silentLog,
    transport: 'polling',
    reconcileIntervalMs: 0,
  });
  const startedAt = performance.now();
  await runtime.start();
  await ask(child, { type: 'waitPolling', tokens }, 'polling');
  const startMs = performance.now() - startedAt;
  global.gc?.();
  const idle = process.memoryUsage();

  let peakRss = 0;
  let peakHeap = 0;
  const sampler = setInterval(() => {
    const m = process.memoryUsage();
    peakRss = Math.max(peakRss, m.rss);
    peakHeap = Math.max(peakHeap, m.heapUsed);
  }, 100);
  // The runtime's own share of each update's way to its reply, from its timing points: the
  // update received (in a getUpdates answer) → the reply's sendMessage handed to the network.
  let measuring = false;
  const receivedAt = new Map<string, { at: number; updateId: number }>();
  const inRuntime: Array<{ key: string; ms: number }> = [];
  updateReceived.subscribe((message) => {
    const { botId, chatId, updateId, at } = message as UpdateReceived;
    if (chatId !== undefined) receivedAt.set(`${botId}:${chatId}`, { at, updateId });
  });
  botApiCallSent.subscribe((message) => {
    const { botId, method, chatId, at } = message as BotApiCallSent;
    if (method !== 'sendMessage' && method !== 'sendPhoto') return;
    const key = `${botId}:${String(chatId)}`;
    const received = receivedAt.get(key);
    if (received === undefined) return;
    receivedAt.delete(key);
    if (measuring) inRuntime.push({ key: `${botId}:${received.updateId}`, ms: at - received.at });
  });

  // Peak memory counts the warm-up too; CPU and the event loop are measured after it.
  let cpuBefore = process.cpuUsage();
  let machineBefore = machineTimes();
  const loopDelay = monitorEventLoopDelay({ resolution: 10 });
  loopDelay.enable();
  child.once('message', (message: { type: string }) => {
    if (message.type !== 'measuring') return;
    measuring = true;
    profiling = true;
    cpuBefore = process.cpuUsage();
    machineBefore = machineTimes();
    loopDelay.reset();
  });
  const result = await ask<LoadResult>(child, { type: 'load', tokens, funnel: FUNNEL, rate: RATE, warmupS: WARMUP_S, durationS: DURATION_S }, 'result');
  clearInterval(sampler);
  const cpu = process.cpuUsage(cpuBefore);
  const machineAfter = machineTimes();
  const machineBusy = (machineAfter.busy - machineBefore.busy) / (machineAfter.total - machineBefore.total);
  loopDelay.disable();

  measuring = false;
  profiling = false;
  // The runtime's times per kind: the fake says which kind each measured update was.
  const kindOf = new Map<string, UpdateKind>(result.updateKinds.map(([botId, updateId, kind]) => [`${botId}:${updateId}`, kind]));
  const ownByKind = new Map<UpdateKind, number[]>();
  const ownAll: number[] = [];
  for (const { key, ms } of inRuntime) {
    const kind = kindOf.get(key);
    if (kind === undefined) continue; // an update of the warm-up answered after it
    const list = ownByKind.get(kind) ?? [];
    list.push(ms);
    ownByKind.set(kind, list);
    ownAll.push(ms);
  }
  const own = spread([...ownAll]);
  const perSecond = result.injected / (result.elapsedMs / 1000);
  // Kept up: everything answered, and the last reply within a second of the last update offered.
  const keptUp = result.unanswered === 0 && result.errors === 0 && result.drainMs < 1000;

  // What the database kept, once the runtime has finished every update it took: each ordinary text
  // sent in the inbox once, each valid e-mail in its field.
  await runtime.stop();
  const due = { texts: result.exactness.sentByKind.text ?? 0, emails: result.exactness.sentByKind['email-valid'] ?? 0 };
  const [inbox] = await db.orm
    .select({ n: count() })
    .from(personEvents)
    .where(and(eq(personEvents.direction, 'in'), eq(personEvents.kind, 'text'), eq(personEvents.text, ORDINARY_TEXT)));
  const [emails] = await db.orm.select({ n: count() }).from(personFields).where(sql`${personFields.value} like 'sub%@example.com'`);
  const { exactness: x } = result;
  const exact = x.late === 0 && x.exactChats === x.subscribers && x.lost === 0 && x.extra === 0 && x.wrong === 0 && inbox.n === due.texts && emails.n === due.emails;

  const kinds = result.perKind.map((k) => k.kind);
  const roundTrips = [...statements.values()].reduce((sum, s) => sum + s.calls, 0);
  const heaviest = [...statements.entries()].sort((a, b) => b[1].ms - a[1].ms).slice(0, 8);
  const lines = [
    `bench:bots — ${FUNNEL} funnel, ${BOTS} bots, long polling, ${db.driver === 'pglite' ? 'embedded PGlite' : 'PostgreSQL'}, ${os.cpus().length} cores (load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}), offered ${RATE} updates/s for ${WARMUP_S} s of warm-up, then ${DURATION_S} s measured`,
    `  all bots polling after ${(startMs / 1000).toFixed(1)} s`,
    `  memory before the bots: RSS ${mb(before.rss)}, heap ${mb(before.heapUsed)}`,
    `  memory, ${BOTS} bots idle: RSS ${mb(idle.rss)}, heap ${mb(idle.heapUsed)}`,
    `  memory peak under load:   RSS ${mb(peakRss)}, heap ${mb(peakHeap)}`,
    `  updates measured: ${result.injected} injected (${result.perKind.map((k) => `${k.kind} ${k.injected}`).join(', ')}), ${result.replies} answered, ${result.unanswered} unanswered, ${result.errors} failed sends`,
    `  throughput: ${perSecond.toFixed(0)} updates/s handled; ${keptUp ? 'kept up' : 'fell behind'} with the ${RATE} updates/s offered (last reply ${result.drainMs.toFixed(0)} ms after the load ended)`,
    `  CPU under load: runtime ${(((cpu.user + cpu.system) / 1000 / result.elapsedMs) * 100).toFixed(0)}% of one core (${((cpu.user + cpu.system) / result.injected).toFixed(0)} µs per update), fake Bot API ${((result.cpuMs / result.elapsedMs) * 100).toFixed(0)}%, whole machine ${(machineBusy * 100).toFixed(0)}% of ${os.cpus().length} cores`,
    `  runtime event loop delay under load: p50 ${(loopDelay.percentile(50) / 1e6).toFixed(1)} ms, p99 ${(loopDelay.percentile(99) / 1e6).toFixed(1)} ms, max ${(loopDelay.max / 1e6).toFixed(1)} ms`,
    `  update → reply, in the runtime (update received → reply handed to the network):`,
    ...kinds.map((kind) => `    ${kind.padEnd(13)} ${kind === 'text' ? 'no reply due' : line(ownByKind.get(kind) ?? [])}`),
    `    ${'all'.padEnd(13)} ${line(ownAll)}`,
    `  update → reply, through the fake (getUpdates answer out → reply in):`,
    ...result.perKind.filter((k) => k.kind !== 'text').map((k) => `    ${k.kind.padEnd(13)} ${spreadLine(k.throughFake)}`),
    `    ${'all'.padEnd(13)} ${spreadLine(result.throughFake)}`,
    `  update → reply, end to end (injected → reply in, the fake's queues too):`,
    ...result.perKind.filter((k) => k.kind !== 'text').map((k) => `    ${k.kind.padEnd(13)} ${spreadLine(k.endToEnd)}`),
    `    ${'all'.padEnd(13)} ${spreadLine(result.endToEnd)}`,
    `  every chat against its script (warm-up too): ${x.subscribers} subscribers, ${x.updates} updates sent, ${x.expectedReplies} replies due, ${x.receivedReplies} sent; ${x.exactChats} chats exact, ${x.lost} lost, ${x.late} still waiting at the end, ${x.extra} extra (doubled), ${x.wrong} wrong stage`,
    `  database round trips while measured: ${roundTrips} (${(roundTrips / result.injected).toFixed(2)} per update); the heaviest statements (time includes the wait for a pool connection):`,
    ...heaviest.map(([text, s]) => `    ${String(s.calls).padStart(7)} calls, mean ${(s.ms / s.calls).toFixed(1)} ms, max ${s.max.toFixed(0)} ms: ${text.replace(/\s+/g, ' ').slice(0, 110)}`),
    ...(FUNNEL === 'branches' ? [`  kept: ${inbox.n} of ${due.texts} ordinary texts in the inbox, ${emails.n} of ${due.emails} valid e-mails in the field`] : []),
    FUNNEL === 'linear'
      ? `  goals (issue 3): RSS < 400 MB ${peakRss < 400 * 1024 * 1024 ? 'met' : 'MISSED'}; ≥ ${GOAL_RATE} updates/s ${RATE >= GOAL_RATE && keptUp ? 'met' : 'MISSED'}; p99 < 50 ms in the runtime ${own.p99 < 50 ? 'met' : 'MISSED'}; every update answered exactly once ${exact ? 'met' : 'MISSED'}`
      : `  goals (issue 24): ≥ ${GOAL_RATE} updates/s ${RATE >= GOAL_RATE && keptUp ? 'met' : 'MISSED'}; p99 < 50 ms in the runtime ${own.p99 < 50 ? 'met' : 'MISSED'}${db.driver === 'pglite' ? ' (on PGlite; the goal is on PostgreSQL)' : ''}; every update answered exactly as due ${exact ? 'met' : 'MISSED'}`,
  ];
  console.log(lines.join('\n'));

  child.send({ type: 'close' });
  await cleanup();
  process.exit(0);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
