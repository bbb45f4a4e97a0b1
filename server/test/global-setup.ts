// Once per server test run: one migrated database that every test file starts from as a copy,
// instead of each file creating a database and running all the migrations itself (on PGlite its
// initdb alone takes about 3 s of a busy core; a copy starts in 0.6 s). The migrations' own tests
// (server/db/db.test.ts) still start from an empty database: createTestDb({ fromScratch: true }).
// PGlite: a tarball of the migrated data dir (dumpDataDir), loaded by each file's PGlite.
// PostgreSQL: a migrated database each file's database is created from (CREATE DATABASE … TEMPLATE).
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { createDb, migrate, MIGRATIONS_DIR } from '../db';

declare module 'vitest' {
  export interface ProvidedContext {
    /** PGlite: the path of the migrated template's data dir tarball. */
    pgliteTemplate: string | null;
    /** PostgreSQL: the name of the migrated template database on TEST_DATABASE_URL's server. */
    postgresTemplate: string | null;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const serverUrl = process.env.TEST_DATABASE_URL?.trim() || null;
  if (!serverUrl) {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'funnels-template-'));
    const file = path.join(dir, 'pgdata.tar');
    const pglite = await PGlite.create(undefined, { extensions: { pg_trgm } });
    await migratePglite(drizzle({ client: pglite }), { migrationsFolder: MIGRATIONS_DIR });
    const dump = await pglite.dumpDataDir('none');
    writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
    await pglite.close();
    project.provide('pgliteTemplate', file);
    project.provide('postgresTemplate', null);
    return async () => rmSync(dir, { recursive: true, force: true });
  }

  const name = `funnels_template_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await admin(`create database "${name}"`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  // The pool is ended before any copy: PostgreSQL copies only a template nobody is connected to.
  const db = await createDb({ databaseUrl: url.toString(), dataDir: os.tmpdir() }, { poolMax: 1 });
  try {
    await migrate(db);
  } finally {
    await db.close();
  }
  project.provide('pgliteTemplate', null);
  project.provide('postgresTemplate', name);
  return async () => admin(`drop database if exists "${name}" with (force)`);
}
