// Money as the billing API sends it: whole minor units with a currency (XTR = Telegram Stars,
// one unit a Star; an ISO code = that currency's minor units, e.g. cents for USD).
import { STARS_CURRENCY } from '../../contract/billing';
import { currentLanguage, i18n } from '@/i18n/i18n';

/** "250 Stars" / "250 звёзд" (the billing messages), "$9.99" / "9,99 $" for a card currency, in the interface language. */
export function formatMoney(amount: number, currency: string): string {
  const language = currentLanguage();
  // In words: the star emoji is missing from some systems' fonts.
  if (currency === STARS_CURRENCY) return i18n.t('subscribe.stars', { count: amount });
  try {
    const format = new Intl.NumberFormat(language, { style: 'currency', currency });
    const digits = format.resolvedOptions().maximumFractionDigits ?? 2;
    return format.format(amount / 10 ** digits);
  } catch {
    return `${(amount / 100).toFixed(2)} ${currency}`; // a code this browser does not know
  }
}

/** A day as the billing screens show it (paid until, grace until): "26 Nov 2026". */
export function formatDay(iso: string): string {
  return new Intl.DateTimeFormat(currentLanguage(), { dateStyle: 'medium' }).format(new Date(iso));
}
