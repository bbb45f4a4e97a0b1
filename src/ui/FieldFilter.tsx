// The "field is set / field equals" filter of a funnel's people and of contacts (issue 24): a
// field of the funnel, then a value (a choice's options, or text typed for the others; empty:
// anyone with a value). Values go to the address as the API's `field` and `field_value`.
import { useTranslation } from 'react-i18next';
import type { FunnelField } from '../../contract/fields';
import { useSearchBox } from './useSearchBox';

export interface FieldFilterValue {
  field?: number;
  field_value?: string;
}

export function FieldFilter({ fields, value, onChange, testId }: { fields: readonly FunnelField[]; value: FieldFilterValue; onChange: (next: FieldFilterValue) => void; testId: string }) {
  const { t } = useTranslation();
  const chosen = fields.find((field) => field.id === value.field);
  // The text box serves the other kinds only: a choice's value comes from its own select, and the
  // empty text box would otherwise clear it a moment after it was picked.
  const [text, setText] = useSearchBox(value.field_value, (fieldValue) => {
    if (chosen && chosen.kind !== 'choice') onChange({ field: chosen.id, field_value: fieldValue });
  });
  return (
    <>
      <select
        className="field-input field-select"
        aria-label={t('funnels.fieldFilter.field')}
        value={value.field ?? ''}
        onChange={(event) => {
          setText('');
          onChange({ field: event.target.value ? Number(event.target.value) : undefined, field_value: undefined });
        }}
        data-testid={`${testId}-field`}
      >
        <option value="">{t('funnels.fieldFilter.anyField')}</option>
        {fields.map((field) => (
          <option key={field.id} value={field.id}>
            {t('funnels.fieldFilter.has', { title: field.title })}
          </option>
        ))}
      </select>
      {chosen?.kind === 'choice' ? (
        <select
          className="field-input field-select"
          aria-label={t('funnels.fieldFilter.value', { title: chosen.title })}
          value={value.field_value ?? ''}
          onChange={(event) => onChange({ field: chosen.id, field_value: event.target.value || undefined })}
          data-testid={`${testId}-value`}
        >
          <option value="">{t('funnels.fieldFilter.anyValue')}</option>
          {chosen.options.map((option) => (
            <option key={option} value={option}>
              {option}
            </option>
          ))}
        </select>
      ) : chosen ? (
        <input
          className="field-input"
          type="search"
          value={text}
          // Short enough for half a phone's width; what an empty value means is in the tooltip.
          placeholder={t('funnels.fieldFilter.equals')}
          title={t('funnels.fieldFilter.equalsHint')}
          aria-label={t('funnels.fieldFilter.value', { title: chosen.title })}
          maxLength={4096}
          onChange={(event) => setText(event.target.value)}
          data-testid={`${testId}-value`}
        />
      ) : null}
    </>
  );
}

/** A person's field values as compact "Title: value" chips (a long value is cut by CSS, whole in the tooltip). */
export function FieldValueChips({ values }: { values: ReadonlyArray<{ title: string; value: string }> }) {
  if (values.length === 0) return null;
  return (
    <>
      {values.map((item) => (
        <span key={item.title} className="field-value-chip" title={`${item.title}: ${item.value}`} data-testid="field-value-chip">
          {item.title}: {item.value}
        </span>
      ))}
    </>
  );
}
