// The database: embedded PGlite (files under DATA_DIR/pgdata) when DATABASE_URL is unset,
// a node-postgres pool otherwise. Both are Drizzle instances with the same query API.
// PostgreSQL also offers LISTEN on a dedicated connection, for news from other processes.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PGlite } from '@electric-sql/pglite';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import type { Config } from '../config';
import { listen, type ListenHandlers, type Listener, type ListenerTimings } from './listener';
import { lockDataDir } from './data-dir-lock';
import { PgliteThread } from './pglite-thread';
import * as schema from './schema';

export type Schema = typeof schema;
/** The query API both drivers share. */
export type Database = PgDatabase<PgQueryResultHKT, Schema>;

export interface Db {
  orm: Database;
  driver: 'pglite' | 'postgres';
  /**
   * Runs a raw SQL statement and returns its rows (both drivers). The text must be a constant
   * (values go in `params`): on PostgreSQL each distinct text is prepared once per connection.
   */
  query<Row = Record<string, unknown>>(text: string, params?: unknown[]): Promise<Row[]>;
  /** Applies pending migrations with the driver's own Drizzle migrator. */
  migrate(): Promise<void>;
  /**
   * PostgreSQL: LISTENs on `channel` over a dedicated connection, remade with backoff when it
   * drops (see listener.ts). PGlite: null — one process, nobody else to hear from.
   */
  listen(channel: string, handlers: ListenHandlers, timings?: Partial<ListenerTimings>): Listener | null;
  /** Ends the pool (or the embedded database) and any listener still open. */
  close(): Promise<void>;
}

export const MIGRATIONS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

/**
 * Raw statements (a small, fixed set: the bot runtime's and the accounts' SQL) are prepared once
 * per connection under a name derived from their text, so PostgreSQL parses and plans each only
 * once per connection instead of on every call.
 */
const statementNames = new Map<string, string>();
function statementName(text: string): string {
  let name = statementNames.get(text);
  if (!name) {
    name = `q_${createHash('sha256').update(text).digest('base64url').slice(0, 22)}`;
    if (statementNames.size < 1_000) statementNames.set(text, name);
  }
  return name;
}

/** Several processes may start at once against one PostgreSQL; only one migrates at a time. */
const MIGRATION_LOCK_ID = 7_245_001;

export interface CreateDbOptions {
  /** PGlite only: keep the database in memory (tests, benches). */
  inMemory?: boolean;
  /** node-postgres pool size. */
  poolMax?: number;
  /** PGlite in memory only: start from this tarball of a data dir (PGlite.dumpDataDir; the tests' migrated template, server/test/global-setup.ts). */
  loadDataDir?: string;
}

/**
 * The embedded database's page cache. PGlite's default is 128 MB; its WASM memory grows into
 * that as pages are read and never shrinks. 32 MB holds a small business's data many times over.
 */
export const PGLITE_SHARED_BUFFERS = '32MB';

/** initdb for a new embedded database, in a child process (see pglite-initdb.mjs for why). */
async function initPglite(dataDir: string): Promise<void> {
  const script = path.join(path.dirname(fileURLToPath(import.meta.url)), 'pglite-initdb.mjs');
  const stderr: Buffer[] = [];
  const code = await new Promise<number | null>((resolve, reject) => {
    const child = spawn(process.execPath, [script, dataDir], { stdio: ['ignore', 'ignore', 'pipe'] });
    child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
    child.on('error', reject);
    child.on('exit', resolve);
  });
  if (code !== 0) throw new Error(`Could not create the embedded database in ${dataDir}: ${Buffer.concat(stderr).toString().trim() || `exit code ${code}`}`);
}

export async function createDb(
  config: Pick<Config, 'databaseUrl' | 'dataDir'>,
  options: CreateDbOptions = {},
): Promise<Db> {
  if (config.databaseUrl) {
    const pool = new pg.Pool({ connectionString: config.databaseUrl, max: options.poolMax ?? 10 });
    // An idle client that loses its connection must not crash the process.
    pool.on('error', () => {});
    const orm = drizzlePg({ client: pool, schema }) as unknown as Database;
    const listeners = new Set<Listener>();
    const databaseUrl = config.databaseUrl;
    return {
      orm,
      driver: 'postgres',
      async query<Row>(text: string, params?: unknown[]) {
        const result = await pool.query({ name: statementName(text), text, values: params });
        return result.rows as Row[];
      },
      async migrate() {
        // Session-level advisory lock: hold one connection for lock, migrations and unlock.
        const client = await pool.connect();
        try {
          await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
          try {
            await migratePg(drizzlePg({ client, schema }), { migrationsFolder: MIGRATIONS_DIR });
          } finally {
            await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]);
          }
        } finally {
          client.release();
        }
      },
      listen(channel, handlers, timings) {
        const listener = listen(databaseUrl, channel, handlers, timings);
        listeners.add(listener);
        return {
          isLive: () => listener.isLive(),
          whenListening: (timeoutMs) => listener.whenListening(timeoutMs),
          async close() {
            listeners.delete(listener);
            await listener.close();
          },
        };
      },
      async close() {
        await Promise.all([...listeners].map((listener) => listener.close()));
        listeners.clear();
        await pool.end();
      },
    };
  }
  let dataDir: string | undefined;
  let unlock = () => {};
  if (!options.inMemory) {
    dataDir = path.join(config.dataDir, 'pgdata');
    mkdirSync(dataDir, { recursive: true });
    unlock = await lockDataDir(`${dataDir}.lock`, config.dataDir);
    try {
      if (!existsSync(path.join(dataDir, 'PG_VERSION'))) await initPglite(dataDir);
    } catch (error) {
      unlock();
      throw error;
    }
  }
  let client: PgliteThread;
  try {
    client = await PgliteThread.start(dataDir, PGLITE_SHARED_BUFFERS, options.inMemory ? options.loadDataDir : undefined);
  } catch (error) {
    unlock();
    throw error;
  }
  // Drizzle calls only query() and transaction() of its PGlite client, which the thread provides.
  const pgliteOrm = drizzlePglite({ client: client as unknown as PGlite, schema });
  return {
    orm: pgliteOrm as unknown as Database,
    driver: 'pglite',
    async query<Row>(text: string, params?: unknown[]) {
      const result = await client.query<Row>(text, params);
      return result.rows;
    },
    migrate: () => migratePglite(pgliteOrm, { migrationsFolder: MIGRATIONS_DIR }),
    listen: () => null,
    async close() {
      try {
        await client.close();
      } finally {
        unlock();
      }
    },
  };
}

/** Applies the SQL migrations in server/db/migrations that have not run yet. */
export function migrate(db: Db): Promise<void> {
  return db.migrate();
}
