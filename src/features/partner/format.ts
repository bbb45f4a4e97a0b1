/** Money as the partner screens show it: two decimals, grouped the way the language groups. */
export function formatAmount(value: number, language: string): string {
  return new Intl.NumberFormat(language, { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(value);
}
