// A stage's payment on its screen: the invoice sent after the message (title and price in Stars),
// where payers and refunds go (a deleted stage shown as broken), and editing or removing it.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Stage } from '../../../contract/funnels';
import { runChange } from '@/api/action';
import { clearStagePayment } from '@/api/payments';
import { noticeFailure, success } from '@/api/useApi';
import { EditIcon, TrashIcon } from '@/ui/glyphs';
import { StagePaymentSheet } from './StagePaymentSheet';

export function StagePaymentSection({ stage, stages }: { stage: Stage; stages: Stage[] }) {
  const { t } = useTranslation();
  const [editing, setEditing] = useState(false);
  const payment = stage.payment;
  const titleOf = (id: number | null) => stages.find((s) => s.id === id)?.title;

  async function remove() {
    const result = await runChange(() => clearStagePayment(stage.funnel_id, stage.id));
    if (!result.ok) return noticeFailure(result.failure);
    success(t('funnels.payments.removed'));
  }

  const paidTitle = payment ? titleOf(payment.paid_stage_id) : undefined;
  const refundTitle = payment ? titleOf(payment.refund_stage_id) : undefined;
  return (
    <section className="section-block" data-testid="stage-payment">
      <h2 className="section-title">{t('funnels.payments.section')}</h2>
      {payment ? (
        <ul className="choice-targets">
          <li data-testid="stage-payment-summary">{t('funnels.payments.summary', { title: payment.title, amount: payment.amount })}</li>
          {paidTitle ? (
            <li>{t('funnels.payments.paidLeadsTo', { stage: paidTitle })}</li>
          ) : (
            <li className="field-error" data-testid="payment-broken">
              {t('funnels.payments.paidBroken')}
            </li>
          )}
          {refundTitle ? (
            <li>{t('funnels.payments.refundLeadsTo', { stage: refundTitle })}</li>
          ) : (
            <li className="field-error" data-testid="payment-broken">
              {t('funnels.payments.refundBroken')}
            </li>
          )}
        </ul>
      ) : (
        <p className="section-footer">{t('funnels.payments.none')}</p>
      )}
      <div className="stage-payment-actions">
        <button type="button" className="button button--secondary" onClick={() => setEditing(true)} data-testid="stage-payment-edit">
          <EditIcon />
          {payment ? t('funnels.payments.edit') : t('funnels.payments.add')}
        </button>
        {payment ? (
          <button type="button" className="button button--secondary" onClick={() => void remove()} data-testid="stage-payment-remove">
            <TrashIcon />
            {t('funnels.payments.remove')}
          </button>
        ) : null}
      </div>
      {editing ? <StagePaymentSheet stage={stage} stages={stages} onDone={() => setEditing(false)} /> : null}
    </section>
  );
}
