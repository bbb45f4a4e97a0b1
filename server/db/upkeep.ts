// The embedded database is PostgreSQL in single-user mode ("standalone backend"): no autovacuum
// runs there. Without it, the room of deleted and updated rows is never reused and never given
// back: every reply sent (an outbox row written, then deleted), every handled update pruned, every
// person touched grows the files under DATA_DIR for good, and the planner never gets statistics.
// So the server vacuums (and analyzes) the tables that churn, every few minutes. A real PostgreSQL
// server (DATABASE_URL) has its autovacuum: nothing is done there.
import type { Db } from './index';

/** Tables whose rows are deleted or updated as the product runs. */
export const CHURNING_TABLES = [
  'outbox',
  'handled_updates',
  'people',
  'person_tags',
  'runtime_processes',
  'bot_senders',
  'rate_limits',
  'auth_tokens',
  'mailings',
  'series_members',
  'funnels',
] as const;

/** How often the embedded database is vacuumed. */
export const EMBEDDED_VACUUM_INTERVAL_MS = 10 * 60_000;

interface UpkeepLog {
  info(details: object, message: string): void;
  error(details: object, message: string): void;
}

/** One VACUUM (ANALYZE) of the churning tables. */
export async function vacuumChurningTables(db: Db): Promise<void> {
  await db.query(`vacuum (analyze) ${CHURNING_TABLES.join(', ')}`);
}

/** Starts the periodic vacuum on the embedded database (a no-op on a PostgreSQL server). */
export function startEmbeddedUpkeep(db: Db, log: UpkeepLog, intervalMs = EMBEDDED_VACUUM_INTERVAL_MS): { stop(): Promise<void> } {
  if (db.driver !== 'pglite') return { stop: async () => undefined };
  let running: Promise<void> | undefined;
  const run = () => {
    if (running) return;
    const startedAt = performance.now();
    running = vacuumChurningTables(db)
      .then(() => log.info({ ms: Math.round(performance.now() - startedAt) }, 'embedded database vacuumed'))
      .catch((error: unknown) => log.error({ err: error }, 'could not vacuum the embedded database'))
      .finally(() => {
        running = undefined;
      });
  };
  const timer = setInterval(run, intervalMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
