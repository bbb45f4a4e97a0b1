// A letter's sending time, as pure rules users can predict (no I/O; the browser may use it too):
//   through N units — once, N units after its anchor (joining, or the previous letter's moment);
//   every N units   — the k-th occurrence is anchor + k·N units, counted from the anchor each time
//                     so month ends never drift (Jan 31 → Feb 28 → Mar 31 → Apr 30);
// units years, months, days (calendar units, in the owner's time zone) or hours (exact elapsed
// hours). With a time of day (days and longer), the moment is that local time on the date reached.
// Month arithmetic clamps to the month's end (Jan 31 + 1 month = Feb 28/29; Feb 29 + 1 year = Feb
// 28). A local time that does not exist (spring forward) is sent at the first valid instant after
// the gap; one that happens twice (fall back) is sent once, at its first occurrence.

export const RECURRENCE_UNITS = ['years', 'months', 'days', 'hours'] as const;
export type RecurrenceUnit = (typeof RECURRENCE_UNITS)[number];

export interface SendingTime {
  kind: 'through' | 'every';
  every: number;
  unit: RecurrenceUnit;
  /** 'HH:MM' local time, for days and longer; null keeps the anchor's local time of day. */
  time_of_day: string | null;
}

/** The largest N per unit (about ten years). */
export const RECURRENCE_MAX: Record<RecurrenceUnit, number> = { years: 10, months: 120, days: 3650, hours: 87600 };
const TIME_OF_DAY = /^([01]\d|2[0-3]):([0-5]\d)$/;

export function validateSendingTime(value: unknown): { ok: true; value: SendingTime } | { ok: false; field: string; message: string } {
  const bad = (field: string) => ({ ok: false as const, field, message: 'Incorrect data' });
  if (typeof value !== 'object' || value === null) return bad('sending_time');
  const v = value as Record<string, unknown>;
  if (v.kind !== 'through' && v.kind !== 'every') return bad('kind');
  if (!RECURRENCE_UNITS.includes(v.unit as RecurrenceUnit)) return bad('unit');
  const unit = v.unit as RecurrenceUnit;
  if (typeof v.every !== 'number' || !Number.isInteger(v.every) || v.every < 1 || v.every > RECURRENCE_MAX[unit]) return bad('every');
  const time = v.time_of_day ?? null;
  if (time !== null && (typeof time !== 'string' || !TIME_OF_DAY.test(time) || unit === 'hours')) return bad('time_of_day');
  return { ok: true, value: { kind: v.kind, every: v.every, unit, time_of_day: time } };
}

interface LocalParts {
  year: number;
  month: number; // 1..12
  day: number;
  hour: number;
  minute: number;
  second: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** The wall clock in `timeZone` at `instant`. */
export function localParts(instant: Date, timeZone: string): LocalParts {
  const parts: Record<string, number> = {};
  for (const p of formatter(timeZone).formatToParts(instant)) if (p.type !== 'literal') parts[p.type] = Number(p.value);
  return { year: parts.year, month: parts.month, day: parts.day, hour: parts.hour % 24, minute: parts.minute, second: parts.second };
}

/** The zone's offset from UTC at `instant`, in ms. */
function offsetAt(instant: number, timeZone: string): number {
  const p = localParts(new Date(instant), timeZone);
  return Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second) - Math.floor(instant / 1000) * 1000;
}

/**
 * The instant a local wall-clock time happens in `timeZone`: the first one when it happens twice;
 * when it does not happen (a DST gap), the first valid instant after the gap.
 */
export function instantOf(p: LocalParts, timeZone: string): Date {
  const wall = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
  // The candidates: the wall time read with the offsets in force a day either side.
  const offsets = [...new Set([offsetAt(wall - 86_400_000, timeZone), offsetAt(wall, timeZone), offsetAt(wall + 86_400_000, timeZone)])];
  const matches = offsets
    .map((offset) => wall - offset)
    .filter((instant) => {
      const back = localParts(new Date(instant), timeZone);
      return Date.UTC(back.year, back.month - 1, back.day, back.hour, back.minute, back.second) === wall;
    })
    .sort((a, b) => a - b);
  if (matches.length > 0) return new Date(matches[0]);
  // A gap: the first instant after it is where the later offset begins.
  const before = Math.max(...offsets);
  const after = Math.min(...offsets);
  let lo = wall - before;
  let hi = wall - after;
  if (lo > hi) [lo, hi] = [hi, lo];
  // Find the switch between lo and hi (to the minute is enough, then the second).
  while (hi - lo > 1000) {
    const mid = Math.floor((lo + hi) / 2 / 1000) * 1000;
    if (offsetAt(mid, timeZone) === offsetAt(lo, timeZone)) lo = mid;
    else hi = mid;
  }
  return new Date(hi);
}

const daysIn = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();

/** The local date N calendar units after `p`, clamped to the month's end. */
function addCalendar(p: LocalParts, unit: 'years' | 'months' | 'days', n: number): LocalParts {
  if (unit === 'days') {
    const d = new Date(Date.UTC(p.year, p.month - 1, p.day + n));
    return { ...p, year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
  }
  const months = unit === 'years' ? n * 12 : n;
  const index = p.year * 12 + (p.month - 1) + months;
  const year = Math.floor(index / 12);
  const month = (index % 12) + 1;
  return { ...p, year, month, day: Math.min(p.day, daysIn(year, month)) };
}

/** The k-th moment (k ≥ 1) of `rule` counted from `anchor`, in `timeZone`. */
export function momentAfter(rule: SendingTime, anchor: Date, timeZone: string, k = 1): Date {
  const n = rule.every * k;
  if (rule.unit === 'hours') return new Date(anchor.getTime() + n * 3_600_000);
  const local = addCalendar(localParts(anchor, timeZone), rule.unit, n);
  if (rule.time_of_day) {
    const [hour, minute] = rule.time_of_day.split(':').map(Number);
    return instantOf({ ...local, hour, minute, second: 0 }, timeZone);
  }
  return instantOf(local, timeZone);
}

/** The next `count` moments strictly after `after` (default: the anchor); a "through" rule has one. */
export function nextMoments(rule: SendingTime, anchor: Date, timeZone: string, count = 5, after: Date = anchor): Date[] {
  const result: Date[] = [];
  const last = rule.kind === 'through' ? 1 : 100_000;
  for (let k = 1; k <= last && result.length < count; k++) {
    const moment = momentAfter(rule, anchor, timeZone, k);
    if (moment.getTime() > after.getTime()) result.push(moment);
  }
  return result;
}
