// A person's payments on their screen: amount in Stars (or the currency of one marked paid elsewhere), when, paid or refunded, and a Refund
// button (asked first: Stars go back from the bot's balance and the person moves to the refund stage).
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PersonDetail } from '../../../contract/funnels';
import { STARS_CURRENCY, type PersonPayment } from '../../../contract/payments';
import { runChange } from '@/api/action';
import { refundPayment } from '@/api/payments';
import { noticeFailure, success } from '@/api/useApi';
import { currentLanguage } from '@/i18n/i18n';
import { ConfirmDialog } from '@/ui/Dialog';

/** A payment marked paid from elsewhere: its amount is in the currency's smallest unit (kopecks, cents). */
function money(amount: number, currency: string, language: string): string {
  try {
    const format = new Intl.NumberFormat(language, { style: 'currency', currency });
    return format.format(amount / 10 ** (format.resolvedOptions().maximumFractionDigits ?? 2));
  } catch {
    return `${amount} ${currency}`;
  }
}

export function PersonPayments({ person }: { person: PersonDetail }) {
  const { t } = useTranslation();
  const [refunding, setRefunding] = useState<PersonPayment | null>(null);
  const dateTime = new Intl.DateTimeFormat(currentLanguage(), { dateStyle: 'medium', timeStyle: 'short' });

  async function refund(payment: PersonPayment) {
    setRefunding(null);
    const result = await runChange(() => refundPayment(person.funnel_id, person.id, payment.id));
    if (!result.ok) return noticeFailure(result.failure);
    success(t('funnels.payments.refunded'));
  }

  return (
    <section className="section-block" data-testid="person-payments">
      <h2 className="section-title">{t('funnels.payments.personTitle')}</h2>
      {person.payments.length === 0 ? (
        <p className="section-footer">{t('funnels.payments.personNone')}</p>
      ) : (
        <div className="section">
          {person.payments.map((payment) => (
            <div key={payment.id} className="row row--static" data-testid="person-payment">
              <span className="row-body">
                <span className="row-title">{payment.currency === STARS_CURRENCY ? t('funnels.payments.stars', { amount: payment.amount }) : money(payment.amount, payment.currency, currentLanguage())}</span>
                <span className="row-description">
                  {dateTime.format(new Date(payment.created_at))} ·{' '}
                  <span data-testid="person-payment-state">
                    {payment.state === 'refunded' && payment.refunded_at
                      ? t('funnels.payments.stateRefunded', { date: dateTime.format(new Date(payment.refunded_at)) })
                      : t('funnels.payments.statePaid')}
                  </span>
                </span>
              </span>
              {payment.state === 'paid' && payment.provider === 'stars' ? (
                <button type="button" className="button button--secondary button--small" onClick={() => setRefunding(payment)} data-testid="person-payment-refund">
                  {t('funnels.payments.refund')}
                </button>
              ) : null}
            </div>
          ))}
        </div>
      )}
      {refunding ? (
        <ConfirmDialog
          title={t('funnels.payments.refundConfirmTitle', { count: refunding.amount })}
          confirmLabel={t('funnels.payments.refund')}
          cancelLabel={t('funnels.common.cancel')}
          destructive
          onConfirm={() => void refund(refunding)}
          onCancel={() => setRefunding(null)}
        >
          <p>{t('funnels.payments.refundConfirmText')}</p>
        </ConfirmDialog>
      ) : null}
    </section>
  );
}
