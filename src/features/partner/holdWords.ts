// When a commission becomes available, in words: "right after the payment", "30 minutes / 2 hours /
// 14 days after the payment". From the exact hold in seconds, not the rounded days: a hold shortened
// to hours (a test, or a host's choice) would otherwise read as "right after the payment".
import type { TFunction } from 'i18next';

const MINUTE = 60;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

export type HoldUnit = 'now' | 'minutes' | 'hours' | 'days';

/** The largest unit the hold reaches, and the count in it (at least 1: a 20-second hold is "1 minute", never "0"). */
export function holdInUnits(holdSeconds: number): { unit: HoldUnit; count: number } {
  if (holdSeconds <= 0) return { unit: 'now', count: 0 };
  if (holdSeconds < HOUR) return { unit: 'minutes', count: Math.max(1, Math.round(holdSeconds / MINUTE)) };
  if (holdSeconds < DAY) return { unit: 'hours', count: Math.max(1, Math.round(holdSeconds / HOUR)) };
  return { unit: 'days', count: Math.round(holdSeconds / DAY) };
}

export function holdWords(holdSeconds: number, t: TFunction): string {
  const { unit, count } = holdInUnits(holdSeconds);
  return unit === 'now' ? t('partner.hold.now') : t(`partner.hold.${unit}`, { count });
}
