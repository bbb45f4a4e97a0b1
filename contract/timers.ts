// Timed moves (issue 24, "Wait"): a stage moves a person on by itself after a while, if they are
// still in it (and, if the owner asks, only if they wrote and pressed nothing meanwhile). Limits,
// API paths and the wait's length; the shapes are TypeBox schemas in ./schemas/timers.ts (types
// re-exported here).
import { fillPath } from './paths';

export const WAIT_UNITS = ['minutes', 'hours', 'days'] as const;
export type WaitUnit = (typeof WAIT_UNITS)[number];
export const WAIT_AMOUNT_MAX = 999;
/** A wait is at most this long in all (90 days). */
export const WAIT_MAX_SECONDS = 90 * 86_400;

export const SECONDS_PER_UNIT: Record<WaitUnit, number> = { minutes: 60, hours: 3_600, days: 86_400 };

/** How long a wait lasts, in seconds. */
export function waitSeconds(wait: { amount: number; unit: WaitUnit }): number {
  return wait.amount * SECONDS_PER_UNIT[wait.unit];
}

export const TIMERS_PATHS = {
  stageWait: '/api/funnels/:id/stages/:stageId/wait/',
} as const;

export const TIMERS_API = {
  stageWait: (id: number, stageId: number) => fillPath(TIMERS_PATHS.stageWait, { id, stageId }),
} as const;

export type * from './schemas/timers';
