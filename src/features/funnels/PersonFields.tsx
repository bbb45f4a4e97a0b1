// The person's fields (issue 24, "ask and remember"): every field of the funnel with what they
// answered; the owner can correct a value (checked by the server as an answer would be).
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PersonFieldValue } from '../../../contract/fields';
import { runChange } from '@/api/action';
import { setPersonField } from '@/api/funnels';
import { noticeFailure } from '@/api/useApi';

function FieldRow({ personId, field }: { personId: number; field: PersonFieldValue }) {
  const { t } = useTranslation();
  const [value, setValue] = useState(field.value ?? '');
  const changed = value !== (field.value ?? '');
  async function save(event: React.FormEvent) {
    event.preventDefault();
    const result = await runChange(() => setPersonField(personId, field.field_id, value), { notice: t('funnels.fields.saved') });
    if (!result.ok) return noticeFailure(result.failure);
  }
  return (
    <form className="row row--static" onSubmit={(event) => void save(event)} data-testid="person-field">
      <label className="row-body">
        <span className="row-description">{field.title}</span>
        <input
          className="field-input person-field-input"
          value={value}
          placeholder={t('funnels.fields.empty')}
          aria-label={t('funnels.fields.value', { title: field.title })}
          onChange={(event) => setValue(event.target.value)}
        />
      </label>
      {changed ? (
        <button type="submit" className="button button--small">
          {t('funnels.fields.save')}
        </button>
      ) : null}
    </form>
  );
}

export function PersonFields({ personId, fields }: { personId: number; fields: PersonFieldValue[] }) {
  const { t } = useTranslation();
  if (fields.length === 0) return null;
  return (
    <section className="section-block">
      <h2 className="section-title">{t('funnels.fields.title')}</h2>
      <div className="section">
        {fields.map((field) => (
          <FieldRow key={`${field.field_id}:${field.value ?? ''}`} personId={personId} field={field} />
        ))}
      </div>
      <p className="section-footer">{t('funnels.fields.hint')}</p>
    </section>
  );
}
