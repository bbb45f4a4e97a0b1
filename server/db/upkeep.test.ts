// The embedded database has no autovacuum (single-user PostgreSQL): the server vacuums the tables
// that churn, or the room of every deleted row (each reply sent leaves one in the outbox) is lost.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, TEST_DATABASE_URL, type TestDb } from '../test/helpers';
import { createFunnel, createOwner } from '../test/funnel-runtime';
import { startEmbeddedUpkeep, vacuumChurningTables } from './upkeep';

let testDb: TestDb;
let funnelId: number;
beforeAll(async () => {
  testDb = await createTestDb();
  const ownerId = await createOwner(testDb.db);
  ({
    funnel: { id: funnelId },
  } = await createFunnel(testDb.db, { ownerId, token: '4242:upkeep-token', username: 'upkeep_bot', stageSpecs: [{ text: 'Hi', next: null }] }));
});
afterAll(async () => {
  await testDb?.drop();
});

/** 20,000 handled updates written and deleted (as the hourly prune does); the table's size after. */
async function churn(from: number): Promise<number> {
  const { db } = testDb;
  await db.query(`insert into handled_updates (funnel_id, update_id) select $1, g from generate_series($2::bigint, $2::bigint + 19999) g`, [funnelId, from]);
  const [{ size }] = await db.query<{ size: string }>(`select pg_relation_size('handled_updates')::text as size`);
  await db.query('delete from handled_updates where funnel_id = $1', [funnelId]);
  return Number(size);
}

describe(`the database's upkeep (${TEST_DATABASE_URL ? 'PostgreSQL server' : 'embedded PGlite'})`, () => {
  it('gives the room of deleted rows back to new ones once vacuumed', async () => {
    const first = await churn(1);
    if (testDb.db.driver === 'pglite') {
      // Proof that the embedded database needs it: without a vacuum, the next rows take new room.
      const unvacuumed = await churn(100_000);
      expect(unvacuumed).toBeGreaterThan(first * 1.8);
    }
    await vacuumChurningTables(testDb.db);
    const before = await churn(200_000);
    await vacuumChurningTables(testDb.db);
    const after = await churn(300_000);
    expect(after).toBeLessThanOrEqual(before);
  });

  it.skipIf(TEST_DATABASE_URL)('vacuums the embedded database on its own, and stops', async () => {
    const lines: string[] = [];
    let vacuumed!: () => void;
    const once = new Promise<void>((resolve) => (vacuumed = resolve));
    const log = {
      info: (_: object, message: string) => {
        lines.push(message);
        vacuumed();
      },
      error: (_: object, message: string) => lines.push(message),
    };
    const upkeep = startEmbeddedUpkeep(testDb.db, log, 20);
    await once;
    await upkeep.stop();
    expect(lines[0]).toBe('embedded database vacuumed');
  });
});
