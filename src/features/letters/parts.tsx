// Pieces the series screens share: a sending time in words, and the time of day in the owner's zone.
import { useTranslation } from 'react-i18next';
import type { Letter, Series } from '../../../contract/letters';
import { currentLanguage } from '@/i18n/i18n';

export function useSendingTimeText(): (time: Letter['sending_time']) => string {
  const { t } = useTranslation();
  return (time) => {
    if (!time) return t('letters.noTime');
    const amount = t(`letters.units.${time.unit}`, { count: time.every });
    const base = time.kind === 'through' ? t('letters.throughText', { amount }) : t('letters.everyText', { amount });
    return time.time_of_day ? `${base}, ${t('letters.atTime', { time: time.time_of_day })}` : base;
  };
}

export const formatMomentIn = (iso: string | Date, timeZone: string) =>
  new Intl.DateTimeFormat(currentLanguage(), { dateStyle: 'medium', timeStyle: 'short', timeZone }).format(new Date(iso));

/**
 * Whether a series sends, and if not, the first thing that stops it, in the order an owner fixes
 * them: a series is switched on only once a letter is on, and a letter only once it has a time.
 */
export type SeriesStatus = 'on' | 'noLetters' | 'noTime' | 'lettersOff' | 'switchedOff';

export function seriesStatus(series: Pick<Series, 'enabled' | 'letters'>): SeriesStatus {
  if (series.enabled) return 'on';
  if (series.letters.length === 0) return 'noLetters';
  if (!series.letters.some((letter) => letter.sending_time)) return 'noTime';
  if (!series.letters.some((letter) => letter.enabled)) return 'lettersOff';
  return 'switchedOff';
}

/** An off series that one tap can switch on: it has a letter with a time. */
export const canOfferSwitchOn = (status: SeriesStatus) => status === 'lettersOff' || status === 'switchedOff';
