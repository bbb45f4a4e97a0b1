import { describe, expect, it } from 'vitest';
import { formatMoney, formatMonies, parseMajorAmount, sumMonies } from './format';

describe('partner money', () => {
  it('shows minor units in the currency, Stars as whole stars', () => {
    expect(formatMoney(1250, 'USD', 'en')).toBe('$12.50');
    expect(formatMoney(-300, 'USD', 'en', true)).toBe('-$3.00');
    expect(formatMoney(300, 'USD', 'en', true)).toBe('+$3.00');
    expect(formatMoney(150, 'XTR', 'en')).toBe('150 ★');
    expect(formatMoney(1250, 'USD', 'ru').replace(/\s/g, ' ')).toBe('12,50 $');
  });

  it('lists several currencies, skipping zeros, or says there is nothing', () => {
    expect(formatMonies([{ amount: 300, currency: 'USD' }, { amount: 0, currency: 'EUR' }, { amount: 45, currency: 'XTR' }], 'en', '0')).toBe('$3.00 · 45 ★');
    expect(formatMonies([], 'en', '—')).toBe('—');
    expect(sumMonies([[{ amount: 1, currency: 'USD' }], [{ amount: 2, currency: 'USD' }, { amount: 5, currency: 'XTR' }]])).toEqual([
      { amount: 3, currency: 'USD' },
      { amount: 5, currency: 'XTR' },
    ]);
  });

  it('reads what the partner types as minor units, and refuses what is not an amount', () => {
    expect(parseMajorAmount('12.5', 'USD')).toBe(1250);
    expect(parseMajorAmount('12,50', 'USD')).toBe(1250);
    expect(parseMajorAmount(' 1 000 ', 'USD')).toBe(100000);
    expect(parseMajorAmount('150', 'XTR')).toBe(150);
    expect(parseMajorAmount('1.5', 'XTR')).toBeNull();
    expect(parseMajorAmount('12.345', 'USD')).toBeNull();
    expect(parseMajorAmount('abc', 'USD')).toBeNull();
    expect(parseMajorAmount('', 'USD')).toBeNull();
  });
});
