// The sending-time rules users must be able to predict: month ends, leap years, DST in two zones.
import { describe, expect, it } from 'vitest';
import { momentAfter, nextMoments, validateSendingTime, type SendingTime } from './recurrence';

const every = (n: number, unit: SendingTime['unit'], time_of_day: string | null = null): SendingTime => ({ kind: 'every', every: n, unit, time_of_day });
const through = (n: number, unit: SendingTime['unit'], time_of_day: string | null = null): SendingTime => ({ kind: 'through', every: n, unit, time_of_day });
const iso = (d: Date) => d.toISOString();

describe('month ends and leap years', () => {
  it('Jan 31 + 1 month is the last day of February, and every month never drifts to the 28th', () => {
    const anchor = new Date('2026-01-31T09:00:00Z');
    expect(iso(momentAfter(through(1, 'months'), anchor, 'UTC'))).toBe('2026-02-28T09:00:00.000Z');
    expect(nextMoments(every(1, 'months'), anchor, 'UTC', 4).map(iso)).toEqual([
      '2026-02-28T09:00:00.000Z',
      '2026-03-31T09:00:00.000Z',
      '2026-04-30T09:00:00.000Z',
      '2026-05-31T09:00:00.000Z',
    ]);
    expect(iso(momentAfter(through(1, 'months'), new Date('2028-01-31T09:00:00Z'), 'UTC'))).toBe('2028-02-29T09:00:00.000Z');
  });

  it('Feb 29 every year falls back to Feb 28, and is Feb 29 again in a leap year', () => {
    const anchor = new Date('2028-02-29T12:00:00Z');
    expect(nextMoments(every(1, 'years'), anchor, 'UTC', 4).map(iso)).toEqual([
      '2029-02-28T12:00:00.000Z',
      '2030-02-28T12:00:00.000Z',
      '2031-02-28T12:00:00.000Z',
      '2032-02-29T12:00:00.000Z',
    ]);
  });
});

describe('time of day and time zones', () => {
  it('lands at the time of day on the date reached, in the owner’s zone', () => {
    // Joined 23:50 in Moscow (UTC+3): through 1 day at 10:00 is the next day 10:00 Moscow.
    expect(iso(momentAfter(through(1, 'days', '10:00'), new Date('2026-05-10T20:50:00Z'), 'Europe/Moscow'))).toBe('2026-05-11T07:00:00.000Z');
  });

  it('hours are elapsed hours, across a DST change too', () => {
    expect(iso(momentAfter(through(3, 'hours'), new Date('2026-03-29T00:30:00Z'), 'Europe/Berlin'))).toBe('2026-03-29T03:30:00.000Z');
  });

  it('a time that does not exist (spring forward) goes at the first valid instant, Berlin and New York', () => {
    // 2026-03-29 in Berlin: 02:00 → 03:00 (UTC+1 → UTC+2). 02:30 does not exist: 03:00 CEST = 01:00Z.
    expect(iso(momentAfter(through(1, 'days', '02:30'), new Date('2026-03-28T10:00:00Z'), 'Europe/Berlin'))).toBe('2026-03-29T01:00:00.000Z');
    // 2026-03-08 in New York: 02:00 → 03:00 (UTC−5 → UTC−4). 03:00 EDT = 07:00Z.
    expect(iso(momentAfter(through(1, 'days', '02:30'), new Date('2026-03-07T15:00:00Z'), 'America/New_York'))).toBe('2026-03-08T07:00:00.000Z');
  });

  it('a time that happens twice (fall back) is sent once, at the first, Berlin and New York', () => {
    // 2026-10-25 in Berlin: 03:00 CEST → 02:00 CET. 02:30 first happens at 00:30Z (CEST).
    expect(iso(momentAfter(through(1, 'days', '02:30'), new Date('2026-10-24T10:00:00Z'), 'Europe/Berlin'))).toBe('2026-10-25T00:30:00.000Z');
    // 2026-11-01 in New York: 02:00 EDT → 01:00 EST. 01:30 first happens at 05:30Z (EDT).
    expect(iso(momentAfter(through(1, 'days', '01:30'), new Date('2026-10-31T15:00:00Z'), 'America/New_York'))).toBe('2026-11-01T05:30:00.000Z');
  });

  it('days without a time of day keep the local time across DST', () => {
    // 09:00 in New York on Mar 7 (EST) → 09:00 on Mar 8 (EDT) = 13:00Z.
    expect(iso(momentAfter(through(1, 'days'), new Date('2026-03-07T14:00:00Z'), 'America/New_York'))).toBe('2026-03-08T13:00:00.000Z');
  });
});

describe('validation', () => {
  it('takes good values and refuses bad ones with "Incorrect data"', () => {
    expect(validateSendingTime({ kind: 'every', every: 2, unit: 'days', time_of_day: '09:30' })).toEqual({
      ok: true,
      value: { kind: 'every', every: 2, unit: 'days', time_of_day: '09:30' },
    });
    for (const bad of [
      null,
      { kind: 'sometimes', every: 1, unit: 'days' },
      { kind: 'every', every: 0, unit: 'days' },
      { kind: 'every', every: 1.5, unit: 'days' },
      { kind: 'every', every: 1, unit: 'weeks' },
      { kind: 'every', every: 1, unit: 'hours', time_of_day: '10:00' },
      { kind: 'every', every: 1, unit: 'days', time_of_day: '25:00' },
    ]) {
      const result = validateSendingTime(bad);
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.message).toBe('Incorrect data');
    }
  });

  it('a "through" rule has one moment; the next five of an "every" rule are listed', () => {
    expect(nextMoments(through(2, 'hours'), new Date('2026-01-01T00:00:00Z'), 'UTC')).toHaveLength(1);
    expect(nextMoments(every(2, 'hours'), new Date('2026-01-01T00:00:00Z'), 'UTC').map(iso)).toEqual([
      '2026-01-01T02:00:00.000Z',
      '2026-01-01T04:00:00.000Z',
      '2026-01-01T06:00:00.000Z',
      '2026-01-01T08:00:00.000Z',
      '2026-01-01T10:00:00.000Z',
    ]);
  });
});
