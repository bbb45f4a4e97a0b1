// Editing a stage's wait in a sheet: after how many minutes, hours or days, to which stage, and
// whether only if the person stayed silent. The server checks the rest (90 days at most, a stage
// of the same funnel) and its errors show on their fields.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Stage } from '../../../contract/funnels';
import { WAIT_AMOUNT_MAX, WAIT_UNITS, type WaitUnit } from '../../../contract/timers';
import { runChange } from '@/api/action';
import { setStageWait } from '@/api/timers';
import { describeFailure, success, type TranslatedFailure } from '@/api/useApi';
import { TextField } from '@/ui/form';
import { EditDialog } from './EditDialog';

const NO_ERRORS: TranslatedFailure = { fields: {}, messages: [] };

/** `stages`: where the wait may lead (the funnel's other stages). */
export function StageWaitDialog({ stage, stages, onDone }: { stage: Stage; stages: Stage[]; onDone: () => void }) {
  const { t } = useTranslation();
  const [amount, setAmount] = useState(String(stage.wait?.amount ?? 1));
  const [unit, setUnit] = useState<WaitUnit>(stage.wait?.unit ?? 'hours');
  const [toStageId, setToStageId] = useState<number | ''>(stages.find((s) => s.id === stage.wait?.to_stage_id)?.id ?? '');
  const [onlyIfSilent, setOnlyIfSilent] = useState(stage.wait?.only_if_silent ?? false);
  const [errors, setErrors] = useState<TranslatedFailure>(NO_ERRORS);

  async function save() {
    const count = Number(amount);
    if (!/^[0-9]+$/.test(amount.trim()) || count < 1 || count > WAIT_AMOUNT_MAX) return setErrors({ fields: { amount: [t('funnels.wait.amountRequired')] }, messages: [] });
    if (toStageId === '') return setErrors({ fields: { to_stage_id: [t('funnels.wait.stageRequired')] }, messages: [] });
    const result = await runChange(() => setStageWait(stage.funnel_id, stage.id, { amount: count, unit, to_stage_id: toStageId, only_if_silent: onlyIfSilent }));
    if (!result.ok) return setErrors(describeFailure(result.failure, ['amount', 'unit', 'to_stage_id', 'only_if_silent']));
    onDone();
    success(t('funnels.wait.saved'));
  }

  const stageErrors = errors.fields.to_stage_id;
  return (
    <EditDialog title={t('funnels.wait.title')} errors={errors} onSave={save} onCancel={onDone}>
      <div className="stage-wait-length">
        <TextField
          label={t('funnels.wait.amount')}
          value={amount}
          inputMode="numeric"
          autoFocus
          onChange={(event) => {
            setAmount(event.target.value);
            setErrors(NO_ERRORS);
          }}
          errors={errors.fields.amount}
          autoComplete="off"
          data-testid="wait-amount"
        />
        <label className="field">
          <span className="field-label">{t('funnels.wait.unit')}</span>
          <select className="field-input field-select" value={unit} onChange={(event) => setUnit(event.target.value as WaitUnit)} data-testid="wait-unit">
            {WAIT_UNITS.map((value) => (
              <option key={value} value={value}>
                {t(`funnels.wait.${value}`)}
              </option>
            ))}
          </select>
        </label>
      </div>
      <div className={`field${stageErrors?.length ? ' field--invalid' : ''}`}>
        <label className="field-label">
          {t('funnels.wait.toStage')}
          <select
            className="field-input field-select"
            value={toStageId}
            onChange={(event) => {
              setToStageId(event.target.value ? Number(event.target.value) : '');
              setErrors(NO_ERRORS);
            }}
            data-testid="wait-stage"
          >
            <option value="">{t('funnels.wait.pickStage')}</option>
            {stages.map((other) => (
              <option key={other.id} value={other.id}>
                {other.title}
              </option>
            ))}
          </select>
        </label>
        {stageErrors?.length ? <p className="field-error">{stageErrors.join(' ')}</p> : null}
      </div>
      <label className="row switch-row stage-wait-silent">
        <span className="row-body">
          <span className="row-title">{t('funnels.wait.onlyIfSilent')}</span>
          <span className="row-description">{t('funnels.wait.onlyIfSilentHint')}</span>
        </span>
        <input type="checkbox" className="switch" role="switch" checked={onlyIfSilent} onChange={(event) => setOnlyIfSilent(event.target.checked)} data-testid="wait-silent" />
      </label>
    </EditDialog>
  );
}
