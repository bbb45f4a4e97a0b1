// The stage screen's "Asks for" section (issue 24, "ask and remember"): the person's next message
// after this stage is kept in a field, and an answer that does not fit gets the re-ask text. Set,
// changed and removed here; an ask whose field was deleted shows as broken.
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { REASK_TEXT_MAX, type FieldKind, type FunnelField } from '../../../contract/fields';
import type { Stage } from '../../../contract/funnels';
import { runChange } from '@/api/action';
import { clearStageAsk, setStageAsk } from '@/api/funnels';
import { describeFailure, noticeFailure, success, type TranslatedFailure } from '@/api/useApi';
import { EditIcon } from '@/ui/glyphs';
import { EditDialog } from './EditDialog';
import './funnels.css';

const NO_ERRORS: TranslatedFailure = { fields: {}, messages: [] };

/** The re-ask text a field of `kind` starts with, in the owner's language. */
function useDefaultReask(): (kind: FieldKind) => string {
  const { t } = useTranslation();
  return (kind) => t(`funnels.ask.reaskDefault.${kind}`);
}

export function StageAskSection({ stage, fields }: { stage: Stage; fields: FunnelField[] }) {
  const { t } = useTranslation();
  const [editing, setEditing] = useState(false);
  const { ask } = stage;
  const field = ask ? fields.find((candidate) => candidate.id === ask.field_id) : undefined;

  async function remove() {
    const result = await runChange(() => clearStageAsk(stage.funnel_id, stage.id));
    if (!result.ok) return noticeFailure(result.failure);
    success(t('funnels.ask.removed'));
  }

  return (
    <section className="section-block" data-testid="stage-ask">
      <h2 className="section-title">{t('funnels.ask.title')}</h2>
      {!ask ? (
        <p className="section-footer" data-testid="stage-ask-summary">
          {t('funnels.ask.none')}
        </p>
      ) : field ? (
        <p className="stage-wait-summary" data-testid="stage-ask-summary">
          {t('funnels.ask.summary', { field: field.title })}
        </p>
      ) : (
        <p className="field-error" data-testid="stage-ask-broken">
          {t('funnels.ask.broken')}
        </p>
      )}
      {fields.length === 0 && !ask ? (
        <p className="section-footer">
          {t('funnels.ask.noFields')}{' '}
          <Link to="/content/funnels/$funnelId/fields/" params={{ funnelId: String(stage.funnel_id) }} data-testid="stage-ask-fields-link">
            {t('funnels.ask.toFields')}
          </Link>
        </p>
      ) : (
        <div className="stage-wait-actions">
          <button type="button" className="button button--secondary" onClick={() => setEditing(true)} data-testid="stage-ask-edit">
            <EditIcon />
            {ask ? t('funnels.ask.change') : t('funnels.ask.set')}
          </button>
          {ask ? (
            <button type="button" className="button button--secondary" onClick={() => void remove()} data-testid="stage-ask-remove">
              {t('funnels.ask.remove')}
            </button>
          ) : null}
        </div>
      )}
      {editing ? <StageAskDialog stage={stage} fields={fields} onDone={() => setEditing(false)} /> : null}
    </section>
  );
}

function StageAskDialog({ stage, fields, onDone }: { stage: Stage; fields: FunnelField[]; onDone: () => void }) {
  const { t } = useTranslation();
  const defaultReask = useDefaultReask();
  const current = fields.find((candidate) => candidate.id === stage.ask?.field_id);
  const [fieldId, setFieldId] = useState<number | ''>(current?.id ?? '');
  const [reask, setReask] = useState(stage.ask?.reask_text ?? (current ? defaultReask(current.kind) : ''));
  // The re-ask text follows the chosen field's kind until the owner writes their own.
  const [reaskEdited, setReaskEdited] = useState(Boolean(stage.ask));
  const [errors, setErrors] = useState<TranslatedFailure>(NO_ERRORS);

  function pick(id: number | '') {
    setFieldId(id);
    setErrors(NO_ERRORS);
    const picked = fields.find((candidate) => candidate.id === id);
    if (picked && !reaskEdited) setReask(defaultReask(picked.kind));
  }

  async function save() {
    if (fieldId === '') return setErrors({ fields: { field_id: [t('funnels.ask.fieldRequired')] }, messages: [] });
    if (!reask.trim()) return setErrors({ fields: { reask_text: [t('funnels.ask.reaskRequired')] }, messages: [] });
    const result = await runChange(() => setStageAsk(stage.funnel_id, stage.id, { field_id: fieldId, reask_text: reask.trim() }));
    if (!result.ok) return setErrors(describeFailure(result.failure, ['field_id', 'reask_text']));
    onDone();
    success(t('funnels.ask.saved'));
  }

  const fieldErrors = errors.fields.field_id;
  return (
    <EditDialog title={t('funnels.ask.title')} errors={errors} onSave={save} onCancel={onDone}>
      <div className={`field${fieldErrors?.length ? ' field--invalid' : ''}`}>
        <label className="field-label">
          {t('funnels.ask.field')}
          <select
            className="field-input field-select"
            value={fieldId}
            onChange={(event) => pick(event.target.value ? Number(event.target.value) : '')}
            data-testid="ask-field"
          >
            <option value="">{t('funnels.ask.pickField')}</option>
            {fields.map((candidate) => (
              <option key={candidate.id} value={candidate.id}>
                {candidate.title}
              </option>
            ))}
          </select>
        </label>
        {fieldErrors?.length ? (
          <p className="field-error" data-testid="ask-field-error">
            {fieldErrors.join(' ')}
          </p>
        ) : null}
      </div>
      {/* A few lines: a re-ask text is a message, often a sentence or two. */}
      <div className={`field${errors.fields.reask_text?.length ? ' field--invalid' : ''}`}>
        <label className="field-label">
          {t('funnels.ask.reask')}
          <textarea
            className="field-input field-textarea"
            rows={3}
            value={reask}
            maxLength={REASK_TEXT_MAX}
            onChange={(event) => {
              setReask(event.target.value);
              setReaskEdited(true);
              setErrors(NO_ERRORS);
            }}
            data-testid="ask-reask"
          />
        </label>
        <p className="field-hint">{t('funnels.ask.reaskHint')}</p>
        {errors.fields.reask_text?.length ? <p className="field-error">{errors.fields.reask_text.join(' ')}</p> : null}
      </div>
    </EditDialog>
  );
}
