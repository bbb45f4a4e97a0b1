// The sheet that sets a stage's Stars invoice: title, description, price in Stars, the stage for
// those who paid and the one after a refund (Telegram's limits are the server's too).
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Stage } from '../../../contract/funnels';
import { PAYMENT_AMOUNT_MAX, PAYMENT_DESCRIPTION_MAX, PAYMENT_TITLE_MAX } from '../../../contract/payments';
import { runChange } from '@/api/action';
import { setStagePayment } from '@/api/payments';
import { describeFailure, success, type TranslatedFailure } from '@/api/useApi';
import { TextField } from '@/ui/form';
import { EditDialog } from './EditDialog';

const NO_ERRORS: TranslatedFailure = { fields: {}, messages: [] };
const FIELDS = ['title', 'description', 'amount', 'paid_stage_id', 'refund_stage_id'];

function StagePick({ label, stages, value, onChange, errors, testId }: { label: string; stages: Stage[]; value: number | ''; onChange: (id: number | '') => void; errors?: string[]; testId: string }) {
  const { t } = useTranslation();
  const id = useId();
  // The label above the select, not around it (as TextField): a select inside the label sat inset from the inputs above.
  return (
    <div className={`field${errors?.length ? ' field--invalid' : ''}`}>
      <label className="field-label" htmlFor={id}>
        {label}
      </label>
      <select id={id} className="field-input field-select" value={value} onChange={(event) => onChange(event.target.value ? Number(event.target.value) : '')} aria-invalid={errors?.length ? true : undefined} data-testid={testId}>
        <option value="">{t('funnels.payments.pickStage')}</option>
        {stages.map((stage) => (
          <option key={stage.id} value={stage.id}>
            {stage.title}
          </option>
        ))}
      </select>
      {errors?.length ? <p className="field-error">{errors.join(' ')}</p> : null}
    </div>
  );
}

export function StagePaymentSheet({ stage, stages, onDone }: { stage: Stage; stages: Stage[]; onDone: () => void }) {
  const { t } = useTranslation();
  const current = stage.payment;
  const exists = (id: number | null | undefined) => (id != null && stages.some((s) => s.id === id) ? id : '');
  const [title, setTitle] = useState(current?.title ?? '');
  const [description, setDescription] = useState(current?.description ?? '');
  const [amount, setAmount] = useState(current ? String(current.amount) : '');
  const [paidStageId, setPaidStageId] = useState<number | ''>(exists(current?.paid_stage_id));
  const [refundStageId, setRefundStageId] = useState<number | ''>(exists(current?.refund_stage_id));
  const [errors, setErrors] = useState<TranslatedFailure>(NO_ERRORS);

  async function save() {
    const fields: Record<string, string[]> = {};
    if (!title.trim()) fields.title = [t('funnels.payments.required')];
    if (!description.trim()) fields.description = [t('funnels.payments.required')];
    const stars = Number(amount);
    if (!/^\d+$/.test(amount.trim()) || stars < 1 || stars > PAYMENT_AMOUNT_MAX) fields.amount = [t('funnels.payments.amountInvalid')];
    if (paidStageId === '') fields.paid_stage_id = [t('funnels.payments.stageRequired')];
    if (refundStageId === '') fields.refund_stage_id = [t('funnels.payments.stageRequired')];
    if (Object.keys(fields).length > 0 || paidStageId === '' || refundStageId === '') return setErrors({ fields, messages: [] });
    const body = { title: title.trim(), description: description.trim(), amount: stars, paid_stage_id: paidStageId, refund_stage_id: refundStageId };
    const result = await runChange(() => setStagePayment(stage.funnel_id, stage.id, body));
    if (!result.ok) return setErrors(describeFailure(result.failure, FIELDS));
    onDone();
    success(t('funnels.payments.saved'));
  }

  return (
    <EditDialog title={t('funnels.payments.sheetTitle')} errors={errors} onSave={save} onCancel={onDone}>
      <TextField
        label={t('funnels.payments.title')}
        value={title}
        maxLength={PAYMENT_TITLE_MAX}
        hint={t('funnels.payments.titleHint')}
        onChange={(event) => setTitle(event.target.value)}
        errors={errors.fields.title}
        autoComplete="off"
        data-testid="payment-title"
      />
      <TextField
        label={t('funnels.payments.description')}
        value={description}
        maxLength={PAYMENT_DESCRIPTION_MAX}
        hint={t('funnels.payments.descriptionHint')}
        onChange={(event) => setDescription(event.target.value)}
        errors={errors.fields.description}
        autoComplete="off"
        data-testid="payment-description"
      />
      <TextField
        label={t('funnels.payments.amount')}
        value={amount}
        inputMode="numeric"
        hint={t('funnels.payments.amountHint')}
        onChange={(event) => setAmount(event.target.value)}
        errors={errors.fields.amount}
        autoComplete="off"
        data-testid="payment-amount"
      />
      <StagePick label={t('funnels.payments.paidStage')} stages={stages} value={paidStageId} onChange={setPaidStageId} errors={errors.fields.paid_stage_id} testId="payment-paid-stage" />
      <StagePick label={t('funnels.payments.refundStage')} stages={stages} value={refundStageId} onChange={setRefundStageId} errors={errors.fields.refund_stage_id} testId="payment-refund-stage" />
    </EditDialog>
  );
}
