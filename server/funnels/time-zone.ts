// Days in the owner's time zone (an IANA name the app sends), for "today" and the results' periods.

/** True for a time zone name this server knows ("Europe/Moscow", "UTC"). */
export function isTimeZone(name: string): boolean {
  if (name.length === 0 || name.length > 64) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/** The wall-clock date and time in `timeZone` at `at`, read as if it were UTC (ms). */
function wallClockMs(at: Date, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  }).formatToParts(at);
  const part = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  return Date.UTC(part('year'), part('month') - 1, part('day'), part('hour'), part('minute'), part('second'));
}

/** The instant the day containing `at` began in `timeZone` (midnight there; DST-aware). */
export function startOfDayIn(at: Date, timeZone: string): Date {
  const wall = wallClockMs(at, timeZone);
  const midnightWall = wall - (wall % 86_400_000);
  // Midnight's own UTC offset: it can differ from the current one on a day the clocks change.
  let guess = midnightWall - (wall - Math.floor(at.getTime() / 1000) * 1000);
  guess = midnightWall - (wallClockMs(new Date(guess), timeZone) - guess);
  return new Date(guess);
}
