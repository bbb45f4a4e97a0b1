// The benches' database: PGlite with its files in a throw-away DATA_DIR, as the server runs it, or
// a throw-away database on the PostgreSQL server of DATABASE_URL (with the server's pool size).
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { loadConfig } from '../../server/config';
import { createDb, migrate, type Db } from '../../server/db';
import { createServices, type Services } from '../../server/services';

export async function benchDb(name: string): Promise<{ db: Db; label: string; cleanup(): Promise<void> }> {
  const base = process.env.DATABASE_URL?.trim();
  if (!base) {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), `bench-${name}-`));
    const db = await createDb({ databaseUrl: null, dataDir });
    await migrate(db);
    return {
      db,
      label: 'embedded PGlite',
      async cleanup() {
        await db.close();
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  }
  const database = `bench_${name}_${process.pid}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`create database "${database}"`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${database}`;
  const db = await createDb({ databaseUrl: url.toString(), dataDir: os.tmpdir() });
  await migrate(db);
  return {
    db,
    label: 'PostgreSQL (DATABASE_URL)',
    async cleanup() {
      await db.close();
      const drop = new pg.Client({ connectionString: base });
      await drop.connect();
      await drop.query(`drop database if exists "${database}" with (force)`);
      await drop.end();
    },
  };
}

/** The server's services over a bench database, built as the server builds them (no mail, no log). */
export function benchServices(db: Db): Services {
  const config = loadConfig({ SECRET_KEY: 'bench-secret', DATA_DIR: os.tmpdir() });
  const quiet = () => undefined;
  return createServices({
    config,
    db,
    mailer: { kind: 'outbox', send: async () => {}, close: async () => {} },
    log: { info: quiet, warn: quiet, error: quiet },
  });
}
