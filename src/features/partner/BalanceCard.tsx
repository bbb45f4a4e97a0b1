// The partner's balance, per currency: what can be withdrawn, and what is still in its hold.
import { useTranslation } from 'react-i18next';
import type { PartnerBalances } from '../../../contract/partner';
import { formatMoney } from './format';
import { holdWords } from './holdWords';

/** Available and pending per currency; with nothing earned yet, the programme's terms instead. */
export function BalanceCard({ balance }: { balance: PartnerBalances }) {
  const { t, i18n } = useTranslation();
  const terms = t('partner.terms', { percent: balance.commission_percent, when: holdWords(balance.hold_seconds, t) });
  if (balance.balances.length === 0) {
    return (
      <div className="balance-card" data-testid="partner-balance">
        <span className="balance-label">{t('partner.available')}</span>
        <span className="balance-value">0</span>
        <span className="partner-balance-terms">{terms}</span>
      </div>
    );
  }
  return (
    <div className="balance-card" data-testid="partner-balance">
      {balance.balances.map((line) => (
        <div key={line.currency} className="partner-balance-line" data-testid="partner-balance-line" data-currency={line.currency}>
          <span className="balance-label">{t('partner.available')}</span>
          <span className="balance-value" data-testid="partner-available">
            {formatMoney(line.available, line.currency, i18n.language)}
          </span>
          <span className="partner-balance-pending">
            {t('partner.pending')}: <strong data-testid="partner-pending">{formatMoney(line.pending, line.currency, i18n.language)}</strong>
            {line.debt > 0 ? <> · {t('partner.debt', { amount: formatMoney(line.debt, line.currency, i18n.language) })}</> : null}
          </span>
        </div>
      ))}
      <span className="partner-balance-terms">{terms}</span>
    </div>
  );
}
