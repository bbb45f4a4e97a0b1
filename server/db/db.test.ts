// The database layer: migrations, the embedded database on disk, and the rules the schema
// itself enforces.
import { rmSync } from 'node:fs';
import path from 'node:path';
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, tempDir, TEST_DATABASE_URL, type TestDb } from '../test/helpers';
import { createDb, migrate, PGLITE_SHARED_BUFFERS } from './index';
import { users } from './schema';

let testDb: TestDb;
beforeAll(async () => {
  // From an empty database: the migrations themselves run here, not a copy of the run's template.
  testDb = await createTestDb({ fromScratch: true });
});
afterAll(async () => {
  await testDb?.drop();
});

describe(`the test database (${TEST_DATABASE_URL ? 'PostgreSQL server' : 'in-memory PGlite'})`, () => {
  it('is the driver the run asked for', () => {
    expect(testDb.db.driver).toBe(TEST_DATABASE_URL ? 'postgres' : 'pglite');
  });

  it('applies migrations once; running them again changes nothing', async () => {
    await migrate(testDb.db);
    const applied = await testDb.db.query<{ n: number }>('select count(*)::int as n from drizzle.__drizzle_migrations');
    expect(applied[0].n).toBeGreaterThanOrEqual(1);
    await migrate(testDb.db);
    const again = await testDb.db.query<{ n: number }>('select count(*)::int as n from drizzle.__drizzle_migrations');
    expect(again[0].n).toBe(applied[0].n);
  });

  it('refuses duplicate e-mails and Telegram ids, mixed-case e-mails, unknown languages', async () => {
    const { orm } = testDb.db;
    await orm.insert(users).values({ email: 'dup@example.com', telegramId: 5_000_000_001 });
    await expect(orm.insert(users).values({ email: 'dup@example.com' })).rejects.toThrow();
    await expect(orm.insert(users).values({ telegramId: 5_000_000_001 })).rejects.toThrow();
    await expect(orm.insert(users).values({ email: 'Upper@example.com' })).rejects.toThrow();
    await expect(orm.insert(users).values({ email: 'lang@example.com', language: 'de' as 'en' })).rejects.toThrow();
    // Several accounts without an e-mail (Telegram-only) are fine.
    await orm.insert(users).values([{ telegramId: 5_000_000_002 }, { telegramId: 5_000_000_003 }]);
  });

  it('keeps Telegram ids beyond 32 bits exactly', async () => {
    const [row] = await testDb.db.orm.insert(users).values({ telegramId: 7_123_456_789 }).returning();
    expect(row.telegramId).toBe(7_123_456_789);
  });
});

describe('the embedded database on disk (no DATABASE_URL)', () => {
  it('lives in DATA_DIR/pgdata and keeps its data across restarts', async () => {
    const dataDir = tempDir('funnels-pgdata-');
    try {
      const first = await createDb({ databaseUrl: null, dataDir });
      await migrate(first);
      await first.orm.insert(users).values({ email: 'kept@example.com' });
      await first.close();
      expect(existsSync(path.join(dataDir, 'pgdata', 'PG_VERSION'))).toBe(true);

      const second = await createDb({ databaseUrl: null, dataDir });
      await migrate(second);
      const rows = await second.query<{ email: string }>('select email from users');
      expect(rows).toEqual([{ email: 'kept@example.com' }]);
      // Its page cache is kept small (PGlite's WASM memory grows into it and never shrinks).
      expect(await second.query('show shared_buffers')).toEqual([{ shared_buffers: PGLITE_SHARED_BUFFERS }]);
      await second.close();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000); // two starts of the embedded database from disk (and its initdb), slow on a busy machine
});
