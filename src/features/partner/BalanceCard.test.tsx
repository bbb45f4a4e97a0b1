// The programme's terms on the partner's balance say when a commission becomes available, from
// the exact hold: a hold of hours or minutes must not read "right after the payment".
import { cleanup, render, screen } from '@testing-library/react';
import i18next, { type i18n as I18n } from 'i18next';
import { I18nextProvider } from 'react-i18next';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { PartnerBalances } from '../../../contract/partner';
import en from '../../../locales/en.json';
import ru from '../../../locales/ru.json';
import { BalanceCard } from './BalanceCard';

const MINUTE = 60;
const HOUR = 3600;
const DAY = 86_400;

let translations: I18n;
beforeAll(async () => {
  translations = i18next.createInstance();
  await translations.init({ resources: { en: { common: en }, ru: { common: ru } }, lng: 'en', defaultNS: 'common', interpolation: { escapeValue: false } });
});
afterEach(cleanup);

/** The terms line of a partner with nothing earned yet and this hold (hold_days as the server rounds it). */
async function termsFor(holdSeconds: number, language: 'en' | 'ru'): Promise<string> {
  await translations.changeLanguage(language);
  const balance: PartnerBalances = {
    balances: [],
    commission_percent: 30,
    hold_days: Math.round(holdSeconds / DAY),
    hold_seconds: holdSeconds,
    minimum_withdrawal: [],
  };
  render(
    <I18nextProvider i18n={translations}>
      <BalanceCard balance={balance} />
    </I18nextProvider>,
  );
  const terms = screen.getByTestId('partner-balance').querySelector('.partner-balance-terms')?.textContent ?? '';
  cleanup();
  return terms;
}

describe('the partner hold in words', () => {
  it('says "right after the payment" only when there is no hold', async () => {
    expect(await termsFor(0, 'en')).toContain('A commission becomes available right after the payment.');
    expect(await termsFor(0, 'ru')).toContain('Комиссия становится доступной сразу после оплаты.');
  });

  it('counts a hold under an hour in minutes', async () => {
    expect(await termsFor(MINUTE, 'en')).toContain('available 1 minute after the payment.');
    expect(await termsFor(30 * MINUTE, 'en')).toContain('available 30 minutes after the payment.');
    expect(await termsFor(20, 'en')).toContain('available 1 minute after the payment.');
    expect(await termsFor(1 * MINUTE, 'ru')).toContain('доступной через 1 минуту после оплаты.');
    expect(await termsFor(3 * MINUTE, 'ru')).toContain('доступной через 3 минуты после оплаты.');
    expect(await termsFor(5 * MINUTE, 'ru')).toContain('доступной через 5 минут после оплаты.');
    expect(await termsFor(21 * MINUTE, 'ru')).toContain('доступной через 21 минуту после оплаты.');
  });

  it('counts a hold under a day in hours', async () => {
    expect(await termsFor(HOUR, 'en')).toContain('available 1 hour after the payment.');
    expect(await termsFor(6 * HOUR, 'en')).toContain('available 6 hours after the payment.');
    expect(await termsFor(HOUR, 'ru')).toContain('доступной через 1 час после оплаты.');
    expect(await termsFor(2 * HOUR, 'ru')).toContain('доступной через 2 часа после оплаты.');
    expect(await termsFor(12 * HOUR, 'ru')).toContain('доступной через 12 часов после оплаты.');
  });

  it('counts a hold of a day or more in days', async () => {
    expect(await termsFor(DAY, 'en')).toContain('available 1 day after the payment.');
    expect(await termsFor(14 * DAY, 'en')).toContain('You get 30% of every payment');
    expect(await termsFor(14 * DAY, 'en')).toContain('available 14 days after the payment.');
    expect(await termsFor(DAY, 'ru')).toContain('доступной через 1 день после оплаты.');
    expect(await termsFor(3 * DAY, 'ru')).toContain('доступной через 3 дня после оплаты.');
    expect(await termsFor(14 * DAY, 'ru')).toContain('доступной через 14 дней после оплаты.');
  });
});
