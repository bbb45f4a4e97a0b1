// A private PostgreSQL server for one test file, so that a test can stop the database (an
// outage), start it again on the same port and data, and never disturb the other test files
// that share the suite's server (TEST_DATABASE_URL). initdb into a temp dir, a free port, the
// newest binaries under /usr/lib/postgresql/*/bin; as root, every command runs as the
// `postgres` OS user (PostgreSQL refuses to run as root).
import { execFile } from 'node:child_process';
import { appendFileSync, chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './server-process';

const run = promisify(execFile);

/** Where Debian and Ubuntu install PostgreSQL, one folder per major version. */
const POSTGRES_ROOT = '/usr/lib/postgresql';
/** The OS user that owns the data and runs the server when the tests run as root. */
const POSTGRES_OS_USER = 'postgres';
/** How long `pg_ctl start` waits for the server to accept connections. */
const START_TIMEOUT_S = 30;

/** The newest PostgreSQL's bin folder, or null when none is installed. */
export function findPostgresBin(): string | null {
  if (!existsSync(POSTGRES_ROOT)) return null;
  const versions = readdirSync(POSTGRES_ROOT)
    .filter((name) => /^\d+(\.\d+)?$/.test(name) && existsSync(path.join(POSTGRES_ROOT, name, 'bin', 'pg_ctl')))
    .sort((a, b) => Number(b) - Number(a));
  return versions.length > 0 ? path.join(POSTGRES_ROOT, versions[0], 'bin') : null;
}

const runningAsRoot = typeof process.getuid === 'function' && process.getuid() === 0;

/**
 * Why tests that stop their own PostgreSQL cannot run here, or null when they can. They run
 * in the suite's PostgreSQL run only (TEST_DATABASE_URL set; CI runs the server suite again on
 * PostgreSQL), and need the server binaries.
 */
export const PG_CLUSTER_SKIP_REASON: string | null = !process.env.TEST_DATABASE_URL?.trim()
  ? 'needs the PostgreSQL run of the suite (set TEST_DATABASE_URL)'
  : !findPostgresBin()
    ? `needs PostgreSQL server binaries under ${POSTGRES_ROOT}/<version>/bin`
    : null;

export interface PgCluster {
  /** postgres://postgres@127.0.0.1:<port>/postgres */
  readonly url: string;
  readonly port: number;
  /** Starts the server again on the same port and data (after `stop`). */
  start(): Promise<void>;
  /** Stops the server: 'fast' disconnects clients and shuts down cleanly; 'immediate' is a crash. */
  stop(mode?: 'fast' | 'immediate'): Promise<void>;
  /** Stops the server if it runs and deletes its data. */
  destroy(): Promise<void>;
}

/** initdb, then start a server on a free port. Call `destroy()` in afterAll. */
export async function startPgCluster(): Promise<PgCluster> {
  const bin = findPostgresBin();
  if (!bin) throw new Error(`No PostgreSQL server binaries under ${POSTGRES_ROOT}`);
  const baseDir = mkdtempSync(path.join(os.tmpdir(), 'funnels-pg-'));
  const dataDir = path.join(baseDir, 'data');
  const logFile = path.join(baseDir, 'server.log');
  if (runningAsRoot) {
    const { stdout: uid } = await run('id', ['-u', POSTGRES_OS_USER]);
    const { stdout: gid } = await run('id', ['-g', POSTGRES_OS_USER]);
    chownSync(baseDir, Number(uid.trim()), Number(gid.trim()));
    chmodSync(baseDir, 0o700);
  }
  const asPostgres = (command: string, args: string[]) =>
    runningAsRoot ? run('runuser', ['-u', POSTGRES_OS_USER, '--', path.join(bin, command), ...args]) : run(path.join(bin, command), args);

  await asPostgres('initdb', ['-D', dataDir, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8', '--locale=C']);
  const port = await freePort();
  // Small and fast: this server lives for one test file; fsync off since its data is thrown away.
  const settings = [`port = ${port}`, "listen_addresses = '127.0.0.1'", "unix_socket_directories = ''", 'fsync = off', 'max_connections = 50', 'shared_buffers = 32MB'];
  writeFileSync(path.join(baseDir, 'extra.conf'), settings.join('\n') + '\n');
  // Appending keeps postgresql.conf owned by initdb's user; the server reads our settings from it.
  appendFileSync(path.join(dataDir, 'postgresql.conf'), `include '${path.join(baseDir, 'extra.conf')}'\n`);
  if (runningAsRoot) chmodSync(path.join(baseDir, 'extra.conf'), 0o644);

  let running = false;
  const cluster: PgCluster = {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    async start() {
      await asPostgres('pg_ctl', ['start', '-D', dataDir, '-l', logFile, '-w', '-t', String(START_TIMEOUT_S)]);
      running = true;
    },
    async stop(mode = 'fast') {
      await asPostgres('pg_ctl', ['stop', '-D', dataDir, '-m', mode, '-w', '-t', String(START_TIMEOUT_S)]);
      running = false;
    },
    async destroy() {
      if (running) await cluster.stop('immediate').catch(() => undefined);
      rmSync(baseDir, { recursive: true, force: true });
    },
  };
  await cluster.start();
  return cluster;
}
