// Pieces the series screens share: a sending time in words, and the time of day in the owner's zone.
import { useTranslation } from 'react-i18next';
import type { Letter } from '../../../contract/letters';
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
