// Timed moves on the delivery engine's tick (issue 24, "Wait"): due timers are fired in batches,
// one statement each (FIRE_TIMERS in sql.ts: claim, move, the next stage's reply queued as a bot
// reply row, which the running bot's runtime takes over and sends as any move's reply), from any
// number of processes: `for update skip locked` gives each timer to one batch,
// and a batch that dies before its commit leaves everything as it was. Timers are made and
// cancelled by the database itself (stage_moves' trigger, migration 0023), so nothing here knows
// who moved a person.
import type { Db } from '../db';
import { FIRE_TIMERS } from './sql';

/** Timers fired per statement. */
export const TIMER_BATCH = 1_000;
/** A tick fires batches for at most this long, then lets the engine send (the rest go next tick). */
const TICK_BUDGET_MS = 1_000;

export interface FiredTimers {
  fired: number;
  skipped: number;
}

export class TimerScheduler {
  constructor(
    private readonly db: Db,
    private readonly batch = TIMER_BATCH,
  ) {}

  /** One batch of due timers; answers how many fired and how many were skipped (the person had moved on). */
  async fireBatch(): Promise<FiredTimers> {
    const [row] = await this.db.query<FiredTimers>(FIRE_TIMERS, [this.batch]);
    return { fired: Number(row?.fired ?? 0), skipped: Number(row?.skipped ?? 0) };
  }

  /** Fires due timers, batch after batch while they come full, for about a second at most. */
  async tick(): Promise<FiredTimers> {
    const total: FiredTimers = { fired: 0, skipped: 0 };
    const started = performance.now();
    for (;;) {
      const { fired, skipped } = await this.fireBatch();
      total.fired += fired;
      total.skipped += skipped;
      if (fired + skipped < this.batch || performance.now() - started > TICK_BUDGET_MS) return total;
    }
  }
}
