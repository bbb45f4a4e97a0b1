// "Today" on the dashboard begins at midnight in the owner's time zone, daylight saving included.
import { describe, expect, it } from 'vitest';
import { isTimeZone, startOfDayIn } from './time-zone';

describe('startOfDayIn', () => {
  it('is midnight in the given zone, as an instant', () => {
    // 04:00 in Moscow (UTC+3) on 22 November: the day began at 21:00 UTC the day before.
    expect(startOfDayIn(new Date('2026-11-22T01:00:00Z'), 'Europe/Moscow').toISOString()).toBe('2026-11-21T21:00:00.000Z');
    // 01:30 on the 23rd in Moscow, still the 22nd in UTC.
    expect(startOfDayIn(new Date('2026-11-22T22:30:00Z'), 'Europe/Moscow').toISOString()).toBe('2026-11-22T21:00:00.000Z');
    expect(startOfDayIn(new Date('2026-11-22T10:00:00Z'), 'Asia/Kolkata').toISOString()).toBe('2026-11-21T18:30:00.000Z');
    expect(startOfDayIn(new Date('2026-11-22T10:00:00Z'), 'UTC').toISOString()).toBe('2026-11-22T00:00:00.000Z');
  });

  it('takes the offset of midnight itself on a day the clocks change', () => {
    // New York moved from UTC-5 to UTC-4 at 02:00 on 8 March 2026; its midnight was still UTC-5.
    expect(startOfDayIn(new Date('2026-03-08T18:00:00Z'), 'America/New_York').toISOString()).toBe('2026-03-08T05:00:00.000Z');
    // …and back to UTC-5 on 1 November: midnight was UTC-4.
    expect(startOfDayIn(new Date('2026-11-01T20:00:00Z'), 'America/New_York').toISOString()).toBe('2026-11-01T04:00:00.000Z');
  });
});

describe('isTimeZone', () => {
  it('knows IANA names and refuses anything else', () => {
    expect(isTimeZone('Europe/Moscow')).toBe(true);
    expect(isTimeZone('UTC')).toBe(true);
    expect(isTimeZone('Mars/Olympus_Mons')).toBe(false);
    expect(isTimeZone('')).toBe(false);
  });
});
