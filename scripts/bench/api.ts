// npm run bench:api — requests per second and p99 latency of GET /api/users/me/ and
// POST /api/token/login/ on the embedded database (PGlite in a temp DATA_DIR).
//
// The app is built in this process and listens on a loopback port; autocannon fires from a
// worker thread so that load generation does not share the server's event loop.
// Goal (issue 2): me ≥ 3,000 req/s with p99 < 20 ms on 2 cores.
//
// Login is bound by scrypt (CPU in libuv's thread pool): more connections than cores only
// queue, so it runs with fewer connections than me.
//
// Options (environment): BENCH_DURATION_S (default 10), BENCH_CONNECTIONS (default 20 for me, 4 for login),
// BENCH_SESSION_CACHE_MS (default: the app's; 0 = every request asks the database).
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { API } from '../../contract/auth';
import { buildApp } from '../../server/app';
import { loadConfig } from '../../server/config';
import { createDb, migrate } from '../../server/db';
import type { Mailer, MailMessage } from '../../server/mail/mailer';

interface Histogram {
  average: number;
  p50: number;
  p99: number;
}
interface AutocannonResult {
  requests: Histogram & { total: number };
  latency: Histogram;
  non2xx: number;
  errors: number;
  timeouts: number;
}
interface AutocannonOptions {
  url: string;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  connections?: number;
  duration?: number;
  workers?: number;
}
// autocannon ships no type declarations; this is the part used here.
const autocannon = createRequire(import.meta.url)('autocannon') as (options: AutocannonOptions) => Promise<AutocannonResult>;

const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 10);
const CONNECTIONS = process.env.BENCH_CONNECTIONS ? Number(process.env.BENCH_CONNECTIONS) : null;
const SESSION_CACHE_MS = process.env.BENCH_SESSION_CACHE_MS ? Number(process.env.BENCH_SESSION_CACHE_MS) : undefined;
const EMAIL = 'bench@example.com';
const PASSWORD = 'Bench-password-2024';

async function main(): Promise<void> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'funnels-bench-'));
  const config = {
    ...loadConfig({ DATA_DIR: dataDir, SECRET_KEY: 'bench-secret', PORT: '0', DIST_DIR: path.join(dataDir, 'no-dist') }),
    // Login is the thing measured here, not the throttle.
    rateLimit: { windowS: 60, perIp: 1_000_000_000, perEmail: 1_000_000_000 },
  };
  const db = await createDb(config);
  await migrate(db);
  const outbox: MailMessage[] = [];
  const mailer: Mailer = { kind: 'outbox', send: async (m) => void outbox.push(m), close: async () => {} };
  const app = await buildApp({ config, db, mailer, logger: false, sessionCacheTtlMs: SESSION_CACHE_MS });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  const base = `http://127.0.0.1:${address && typeof address === 'object' ? address.port : 0}`;

  try {
    const json = { 'content-type': 'application/json' };
    const registered = await fetch(base + API.register, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ email: EMAIL, password: PASSWORD, re_password: PASSWORD, first_name: 'Bench' }),
    });
    if (registered.status !== 201) throw new Error(`register: ${registered.status} ${await registered.text()}`);
    const [uid, token] = new URL(outbox[0].links![0]).pathname.split('/').filter(Boolean).slice(1);
    const activated = await fetch(base + API.activation, { method: 'POST', headers: json, body: JSON.stringify({ uid, token }) });
    if (activated.status !== 204) throw new Error(`activation: ${activated.status}`);
    const loginBody = JSON.stringify({ email: EMAIL, password: PASSWORD });
    const login = await fetch(base + API.login, { method: 'POST', headers: json, body: loginBody });
    const key = ((await login.json()) as { auth_token: string }).auth_token;

    const cpus = os.cpus();
    const cache = SESSION_CACHE_MS === undefined ? 'default session cache' : `session cache ${SESSION_CACHE_MS} ms`;
    console.log(
      `Node ${process.version}, ${cpus.length} × ${cpus[0]?.model ?? 'CPU'}; PGlite on disk; ${cache}; ${DURATION_S} s per run`,
    );
    const runs: [string, AutocannonOptions][] = [
      ['GET  /api/users/me/   ', { url: base + API.me, headers: { authorization: `Token ${key}` }, connections: CONNECTIONS ?? 20 }],
      ['POST /api/token/login/', { url: base + API.login, method: 'POST', headers: json, body: loginBody, connections: CONNECTIONS ?? 4 }],
    ];
    for (const [label, options] of runs) {
      // A short warm-up (JIT, caches), then the measured run.
      await autocannon({ ...options, duration: 2, workers: 1 });
      const result = await autocannon({ ...options, duration: DURATION_S, workers: 1 });
      const failed = result.non2xx + result.errors + result.timeouts;
      console.log(
        `${label}  ${String(options.connections).padStart(3)} conn  ${result.requests.average.toFixed(0).padStart(6)} req/s   ` +
          `p50 ${result.latency.p50.toFixed(1).padStart(6)} ms   p99 ${result.latency.p99.toFixed(1).padStart(6)} ms   ` +
          `(${result.requests.total} requests${failed ? `, ${failed} failed` : ''})`,
      );
    }
  } finally {
    await app.close();
    await db.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
