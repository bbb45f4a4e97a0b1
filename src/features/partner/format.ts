// Money and dates as the partner screens show them. Amounts travel in minor units with their
// currency: XTR is Telegram Stars (1 = one Star, no fractions), any other is an ISO code whose
// minor digits Intl knows (USD: cents).
import type { Money } from '../../../contract/partner';

export const STARS = 'XTR';

/** Digits after the point of a currency's major unit (0 for Stars, 2 for USD, 0 for JPY). */
export function currencyDigits(currency: string): number {
  if (currency === STARS) return 0;
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    return 2; // an unknown code: shown as cents, the common case
  }
}

/** "$12.50", "12,50 $", "150 ★"; `signed` shows a + on gains (ledger lines). */
export function formatMoney(amount: number, currency: string, language: string, signed = false): string {
  const digits = currencyDigits(currency);
  const major = amount / 10 ** digits;
  const signDisplay = signed ? 'exceptZero' : 'auto';
  // ★, not the ⭐ emoji: every font has it, where a WebView without an emoji font shows a box.
  if (currency === STARS) return `${new Intl.NumberFormat(language, { signDisplay }).format(major)} ★`;
  try {
    return new Intl.NumberFormat(language, { style: 'currency', currency, signDisplay, minimumFractionDigits: digits, maximumFractionDigits: digits }).format(major);
  } catch {
    return `${new Intl.NumberFormat(language, { signDisplay, minimumFractionDigits: digits, maximumFractionDigits: digits }).format(major)} ${currency}`;
  }
}

/** Several currencies on one line ("$12.50 · 150 ★"); `empty` when there is nothing. */
export function formatMonies(monies: readonly Money[], language: string, empty: string): string {
  const shown = monies.filter((money) => money.amount !== 0);
  return shown.length === 0 ? empty : shown.map((money) => formatMoney(money.amount, money.currency, language)).join(' · ');
}

/** What the partner types ("12.5", "12,50") in minor units, or null when it is not an amount. */
export function parseMajorAmount(text: string, currency: string): number | null {
  const digits = currencyDigits(currency);
  const normalized = text.trim().replace(/\s/g, '').replace(',', '.');
  const pattern = digits === 0 ? /^\d{1,10}$/ : new RegExp(`^\\d{1,10}(\\.\\d{1,${digits}})?$`);
  if (!pattern.test(normalized)) return null;
  return Math.round(Number(normalized) * 10 ** digits);
}

/** A day and time in the interface language ("26 Nov 2026, 14:05"). */
export function formatDateTime(iso: string, language: string): string {
  return new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));
}

export function formatDate(iso: string, language: string): string {
  return new Intl.DateTimeFormat(language, { dateStyle: 'medium' }).format(new Date(iso));
}

/** Sums of one figure per currency, in the order the currencies first appear. */
export function sumMonies(lists: ReadonlyArray<readonly Money[]>): Money[] {
  const sums = new Map<string, number>();
  for (const list of lists) for (const money of list) sums.set(money.currency, (sums.get(money.currency) ?? 0) + money.amount);
  return [...sums].map(([currency, amount]) => ({ currency, amount }));
}
