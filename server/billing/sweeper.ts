// When billing's sweep runs (billing.sweep: the grace notice, then what is over the free plan
// stops): at the next moment a paid period or a grace period ends, as the database says, and at
// least every `intervalMs` (what a bounded batch left, an admin's plan change). What the API says
// needs no sweep (the state is computed from paid_until and grace_until when read); this is for
// what only the sweep does (stopping bots, pausing mailings), so that it happens on time too.
import { loggableError } from '../db/errors';
import type { ServiceLog } from '../services';

/** The longest wait between two sweeps. */
export const BILLING_SWEEP_MS = 60_000;
/** The shortest: moments a few milliseconds apart are swept together. */
const MIN_WAIT_MS = 50;

/** setTimeout and clearTimeout (tests give their own, with their clock). */
export interface SweepTimers {
  set(run: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

const realTimers: SweepTimers = {
  set: (run, ms) => setTimeout(run, ms),
  clear: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export interface BillingSweeperDeps {
  billing: {
    sweep(): Promise<void>;
    /** The next moment after now at which a paid period or a grace period ends and is not yet swept (null: none). */
    nextDueAt(): Promise<Date | null>;
  };
  now: () => Date;
  log: Pick<ServiceLog, 'error'>;
  intervalMs?: number;
  timers?: SweepTimers;
}

/** Starts the sweeps (the first at the next due moment, or after intervalMs); stop() waits for a sweep under way. */
export function startBillingSweeps({ billing, now, log, intervalMs = BILLING_SWEEP_MS, timers = realTimers }: BillingSweeperDeps) {
  let handle: unknown = null;
  let stopped = false;
  let work: Promise<void> = Promise.resolve();

  async function arm(): Promise<void> {
    let wait = intervalMs;
    try {
      const due = await billing.nextDueAt();
      if (due) wait = Math.min(intervalMs, Math.max(MIN_WAIT_MS, due.getTime() - now().getTime()));
    } catch (error) {
      log.error({ error: loggableError(error) }, 'billing: could not read the next due moment');
    }
    if (stopped) return;
    handle = timers.set(() => {
      handle = null;
      work = sweepThenArm();
    }, wait);
  }

  async function sweepThenArm(): Promise<void> {
    try {
      await billing.sweep();
    } catch (error) {
      log.error({ error: loggableError(error) }, 'billing sweep failed');
    }
    if (!stopped) await arm();
  }

  work = arm();
  return {
    async stop(): Promise<void> {
      stopped = true;
      if (handle !== null) timers.clear(handle);
      handle = null;
      await work;
    },
  };
}
