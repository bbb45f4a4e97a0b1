// npm run bench:bots — N funnels' bots running at once in this process (the bot runtime, long
// polling, embedded PGlite unless DATABASE_URL is set) against the fake Bot API in a separate
// process (scripts/bench/bots-fake.ts), so the fake's own cost is not counted. Subscribers press
// /start and then the next-step button on every reply (3-stage funnels).
//
// Reports: updates handled per second; p50/p99 from an update to its reply three ways: in the
// runtime (its own timing points, server/telegram/diagnostics.ts: the update received → the reply
// handed to the network; this is the goal's "not counting Telegram"), through the fake (its
// getUpdates answer out → the reply in), and end to end (injected → reply in, the fake's own
// queues too); CPU; and this process's memory (RSS, heap) with every bot running and at its peak. Goals (issue 3): 500 bots under 400 MB, 2,000 updates/s, p99 < 50 ms.
//
// The load runs BENCH_WARMUP_S seconds before it is measured (new connections, JIT, prepared
// statements and caches make the first seconds slower), then BENCH_DURATION_S seconds measured.
//
// Options (environment): BENCH_BOTS (500), BENCH_RATE updates/s offered (2000), BENCH_WARMUP_S (5),
// BENCH_DURATION_S (20),
// DATABASE_URL (a real PostgreSQL instead of the embedded one; a throw-away database is made).
// The embedded database lives in this process, so its memory (PGlite's WASM heap) counts in RSS.
import { fork, type ChildProcess } from 'node:child_process';
import os from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { createFunnel, createOwner, silentLog, type StageSpec } from '../../server/test/funnel-runtime';
import { type BotApiCallSent, botApiCallSent, type UpdateReceived, updateReceived } from '../../server/telegram/diagnostics';
import { FunnelRuntime } from '../../server/bots/runtime/runtime';
import { benchDb } from './db';
import { spread, type Spread } from './stats';

const BOTS = Number(process.env.BENCH_BOTS ?? 500);
const RATE = Number(process.env.BENCH_RATE ?? 2000);
const WARMUP_S = Number(process.env.BENCH_WARMUP_S ?? 5);
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 20);

const STAGES: StageSpec[] = [
  { text: '<b>Welcome!</b> Your guide is below.', buttons: [{ text: 'Guide', url: 'https://example.com/guide' }], next: 'Next', tag: 'lead' },
  { text: 'Stage two: the offer', next: 'Next', tag: 'warm' },
  { text: 'Stage three: thanks', next: null },
];

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
  const ownerId = await createOwner(db);
  for (const bot of bots) await createFunnel(db, { ownerId, token: bot.token, username: bot.username, stageSpecs: STAGES });
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
  const receivedAt = new Map<string, number>();
  const inRuntime: number[] = [];
  updateReceived.subscribe((message) => {
    const { botId, chatId, at } = message as UpdateReceived;
    if (chatId !== undefined) receivedAt.set(`${botId}:${chatId}`, at);
  });
  botApiCallSent.subscribe((message) => {
    const { botId, method, chatId, at } = message as BotApiCallSent;
    if (method !== 'sendMessage' && method !== 'sendPhoto') return;
    const key = `${botId}:${String(chatId)}`;
    const received = receivedAt.get(key);
    if (received === undefined) return;
    receivedAt.delete(key);
    if (measuring) inRuntime.push(at - received);
  });

  // Peak memory counts the warm-up too; CPU and the event loop are measured after it.
  let cpuBefore = process.cpuUsage();
  let machineBefore = machineTimes();
  const loopDelay = monitorEventLoopDelay({ resolution: 10 });
  loopDelay.enable();
  child.once('message', (message: { type: string }) => {
    if (message.type !== 'measuring') return;
    measuring = true;
    cpuBefore = process.cpuUsage();
    machineBefore = machineTimes();
    loopDelay.reset();
  });
  const result = await ask<{
    injected: number;
    replies: number;
    unanswered: number;
    errors: number;
    elapsedMs: number;
    /** From the end of the load to the last reply: how far behind the runtime was. */
    drainMs: number;
    cpuMs: number;
    endToEnd: Spread;
    throughFake: Spread;
  }>(child, { type: 'load', tokens, rate: RATE, warmupS: WARMUP_S, durationS: DURATION_S }, 'result');
  clearInterval(sampler);
  const cpu = process.cpuUsage(cpuBefore);
  const machineAfter = machineTimes();
  const machineBusy = (machineAfter.busy - machineBefore.busy) / (machineAfter.total - machineBefore.total);
  loopDelay.disable();

  measuring = false;
  const own = spread(inRuntime);
  const line = (s: Spread) => `p50 ${s.p50.toFixed(1)} ms, p90 ${s.p90.toFixed(1)} ms, p99 ${s.p99.toFixed(1)} ms, max ${s.max.toFixed(1)} ms`;
  const perSecond = result.replies / (result.elapsedMs / 1000);
  // Kept up: everything answered, and the last reply within a second of the last update offered.
  const keptUp = result.unanswered === 0 && result.errors === 0 && result.drainMs < 1000;
  const lines = [
    `bench:bots — ${BOTS} bots, long polling, ${db.driver === 'pglite' ? 'embedded PGlite' : 'PostgreSQL'}, ${os.cpus().length} cores, offered ${RATE} updates/s for ${WARMUP_S} s of warm-up, then ${DURATION_S} s measured`,
    `  all bots polling after ${(startMs / 1000).toFixed(1)} s`,
    `  memory before the bots: RSS ${mb(before.rss)}, heap ${mb(before.heapUsed)}`,
    `  memory, ${BOTS} bots idle: RSS ${mb(idle.rss)}, heap ${mb(idle.heapUsed)}`,
    `  memory peak under load:   RSS ${mb(peakRss)}, heap ${mb(peakHeap)}`,
    `  updates: ${result.injected} injected, ${result.replies} answered, ${result.unanswered} unanswered, ${result.errors} failed sends`,
    `  throughput: ${perSecond.toFixed(0)} updates/s handled; ${keptUp ? 'kept up' : 'fell behind'} with the ${RATE} updates/s offered (last reply ${result.drainMs.toFixed(0)} ms after the load ended)`,
    `  CPU under load: runtime ${(((cpu.user + cpu.system) / 1000 / result.elapsedMs) * 100).toFixed(0)}% of one core (${((cpu.user + cpu.system) / result.replies).toFixed(0)} µs per update), fake Bot API ${((result.cpuMs / result.elapsedMs) * 100).toFixed(0)}%, whole machine ${(machineBusy * 100).toFixed(0)}% of ${os.cpus().length} cores`,
    `  runtime event loop delay under load: p50 ${(loopDelay.percentile(50) / 1e6).toFixed(1)} ms, p99 ${(loopDelay.percentile(99) / 1e6).toFixed(1)} ms, max ${(loopDelay.max / 1e6).toFixed(1)} ms`,
    `  update → reply, in the runtime (update received → reply handed to the network): ${line(own)} (${inRuntime.length} replies)`,
    `  update → reply, through the fake (getUpdates answer out → reply in): ${line(result.throughFake)}`,
    `  update → reply, end to end (injected → reply in, the fake's queues too): ${line(result.endToEnd)}`,
    `  goals: RSS < 400 MB ${peakRss < 400 * 1024 * 1024 ? 'met' : 'MISSED'}; ≥ 2000 updates/s ${RATE >= 2000 && keptUp ? 'met' : 'MISSED'}; p99 < 50 ms in the runtime ${own.p99 < 50 ? 'met' : 'MISSED'}`,
  ];
  console.log(lines.join('\n'));

  await runtime.stop();
  child.send({ type: 'close' });
  await cleanup();
  process.exit(0);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
