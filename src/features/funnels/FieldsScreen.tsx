// /content/funnels/$funnelId/fields/: the funnel's fields (issue 24, "ask and remember"). A stage
// asks for one and keeps the person's answer in it; messages show it as {key}. Create (the key is
// suggested from the title until the owner edits it), rename and delete (naming the stages that ask).
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  FIELD_KEY_MAX,
  FIELD_KINDS,
  FIELD_OPTIONS_MAX,
  FIELD_OPTIONS_MIN,
  FIELD_TITLE_MAX,
  suggestFieldKey,
  type FieldKind,
  type FunnelField,
} from '../../../contract/fields';
import { runChange } from '@/api/action';
import { createField, deleteField, updateField } from '@/api/funnels';
import { describeFailure, noticeFailure, success, type TranslatedFailure } from '@/api/useApi';
import { usePageHead } from '@/state/ui';
import { BackLink } from '@/ui/BackLink';
import { EmptyState } from '@/ui/blocks';
import { ConfirmDialog } from '@/ui/Dialog';
import { Button, TextField } from '@/ui/form';
import { EditIcon, PlusIcon, TextIcon, TrashIcon } from '@/ui/glyphs';
import { Screen, ScreenHeader } from '@/ui/Screen';
import { EditDialog } from './EditDialog';
import './funnels.css';

const NO_ERRORS: TranslatedFailure = { fields: {}, messages: [] };
const FORM_FIELDS = ['title', 'key', 'kind', 'options'] as const;

/** A choice's options as the owner typed them: one a line, blank lines dropped. */
const optionsOf = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);

export function FieldsScreen({ funnelId, fields }: { funnelId: number; fields: FunnelField[] }) {
  const { t } = useTranslation();
  usePageHead(t('funnels.fieldList.title'));
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<FunnelField | null>(null);
  const [deleting, setDeleting] = useState<FunnelField | null>(null);

  async function remove(field: FunnelField) {
    setDeleting(null);
    const result = await runChange(() => deleteField(funnelId, field.id));
    if (!result.ok) return noticeFailure(result.failure);
    success(t('funnels.fieldList.deleted'));
  }

  return (
    <Screen>
      <ScreenHeader
        title={t('funnels.fieldList.title')}
        subtitle={t('funnels.fieldList.subtitle')}
        back={<BackLink to="/content/funnels/$funnelId/" params={{ funnelId: String(funnelId) }} label={t('common.back')} />}
      />
      {fields.length === 0 ? (
        <EmptyState icon={<TextIcon />} title={t('funnels.fieldList.emptyTitle')}>
          <p>{t('funnels.fieldList.emptyText')}</p>
        </EmptyState>
      ) : (
        <div className="section">
          {fields.map((field) => (
            <div key={field.id} className="row row--static" data-testid="field-row">
              <span className="row-body">
                <span className="row-title">{field.title}</span>
                <span className="row-description">
                  <code>{`{${field.key}}`}</code> · {t(`funnels.fieldList.kinds.${field.kind}`)}
                  {field.kind === 'choice' ? `: ${field.options.join(', ')}` : ''}
                </span>
              </span>
              <button type="button" className="icon-button" aria-label={t('funnels.fieldList.edit', { title: field.title })} onClick={() => setEditing(field)}>
                <EditIcon />
              </button>
              <button
                type="button"
                className="icon-button icon-button--danger"
                aria-label={t('funnels.fieldList.delete', { title: field.title })}
                onClick={() => setDeleting(field)}
              >
                <TrashIcon />
              </button>
            </div>
          ))}
        </div>
      )}
      <div className="section-block">
        <Button type="button" onClick={() => setCreating(true)} data-testid="field-create">
          <PlusIcon />
          {t('funnels.fieldList.add')}
        </Button>
      </div>
      {creating ? <FieldDialog funnelId={funnelId} field={null} onDone={() => setCreating(false)} /> : null}
      {editing ? <FieldDialog funnelId={funnelId} field={editing} onDone={() => setEditing(null)} /> : null}
      {deleting ? (
        <ConfirmDialog
          title={t('funnels.fieldList.deleteConfirmTitle', { title: deleting.title })}
          confirmLabel={t('funnels.fieldList.deleteShort')}
          cancelLabel={t('funnels.common.cancel')}
          destructive
          onConfirm={() => void remove(deleting)}
          onCancel={() => setDeleting(null)}
        >
          <p data-testid="field-delete-text">
            {deleting.asked_by.length > 0
              ? t('funnels.fieldList.deleteAskedBy', { count: deleting.asked_by.length, stages: deleting.asked_by.map((stage) => `“${stage.title}”`).join(', ') })
              : t('funnels.fieldList.deleteConfirmText')}
          </p>
        </ConfirmDialog>
      ) : null}
    </Screen>
  );
}

/** Creates a field (`field` null) or changes one: its title, key and a choice's options (the kind stays). */
function FieldDialog({ funnelId, field, onDone }: { funnelId: number; field: FunnelField | null; onDone: () => void }) {
  const { t } = useTranslation();
  const [title, setTitle] = useState(field?.title ?? '');
  const [key, setKey] = useState(field?.key ?? '');
  // The key follows the title until the owner types one of their own (or the field exists).
  const [keyEdited, setKeyEdited] = useState(field !== null);
  const [kind, setKind] = useState<FieldKind>(field?.kind ?? 'text');
  const [options, setOptions] = useState(field?.options.join('\n') ?? '');
  const [errors, setErrors] = useState<TranslatedFailure>(NO_ERRORS);

  async function save() {
    const trimmedTitle = title.trim();
    if (!trimmedTitle) return setErrors({ fields: { title: [t('funnels.fieldList.titleRequired')] }, messages: [] });
    if (!key) return setErrors({ fields: { key: [t('funnels.fieldList.keyRequired')] }, messages: [] });
    const choiceOptions = optionsOf(options);
    if (kind === 'choice' && (choiceOptions.length < FIELD_OPTIONS_MIN || choiceOptions.length > FIELD_OPTIONS_MAX)) {
      return setErrors({ fields: { options: [t('funnels.fieldList.optionsCount', { min: FIELD_OPTIONS_MIN, max: FIELD_OPTIONS_MAX })] }, messages: [] });
    }
    const extra = kind === 'choice' ? { options: choiceOptions } : {};
    const result = await runChange(() =>
      field ? updateField(funnelId, field.id, { title: trimmedTitle, key, ...extra }) : createField(funnelId, { title: trimmedTitle, key, kind, ...extra }),
    );
    if (!result.ok) return setErrors(describeFailure(result.failure, FORM_FIELDS));
    onDone();
    success(t(field ? 'funnels.fieldList.saved' : 'funnels.fieldList.added'));
  }

  const optionErrors = errors.fields.options;
  return (
    <EditDialog title={t(field ? 'funnels.fieldList.editTitle' : 'funnels.fieldList.addTitle')} errors={errors} onSave={save} onCancel={onDone}>
      <TextField
        label={t('funnels.fieldList.fieldTitle')}
        value={title}
        maxLength={FIELD_TITLE_MAX}
        placeholder={t('funnels.fieldList.titlePlaceholder')}
        autoFocus
        onChange={(event) => {
          setTitle(event.target.value);
          if (!keyEdited) setKey(suggestFieldKey(event.target.value));
          setErrors(NO_ERRORS);
        }}
        errors={errors.fields.title}
        autoComplete="off"
        data-testid="field-title"
      />
      <TextField
        label={t('funnels.fieldList.key')}
        value={key}
        maxLength={FIELD_KEY_MAX}
        hint={t('funnels.fieldList.keyHint', { placeholder: `{${key || 'key'}}` })}
        onChange={(event) => {
          setKey(event.target.value.toLowerCase());
          setKeyEdited(true);
          setErrors(NO_ERRORS);
        }}
        errors={errors.fields.key}
        autoComplete="off"
        autoCapitalize="off"
        spellCheck={false}
        data-testid="field-key"
      />
      <label className="field">
        <span className="field-label">{t('funnels.fieldList.kind')}</span>
        <select
          className="field-input field-select"
          value={kind}
          disabled={field !== null}
          onChange={(event) => setKind(event.target.value as FieldKind)}
          data-testid="field-kind"
        >
          {FIELD_KINDS.map((value) => (
            <option key={value} value={value}>
              {t(`funnels.fieldList.kinds.${value}`)}
            </option>
          ))}
        </select>
      </label>
      {kind === 'choice' ? (
        <div className={`field${optionErrors?.length ? ' field--invalid' : ''}`}>
          <label className="field-label">
            {t('funnels.fieldList.options')}
            <textarea
              className="field-input field-textarea"
              rows={4}
              value={options}
              placeholder={t('funnels.fieldList.optionsPlaceholder')}
              onChange={(event) => {
                setOptions(event.target.value);
                setErrors(NO_ERRORS);
              }}
              data-testid="field-options"
            />
          </label>
          <p className="field-hint">{t('funnels.fieldList.optionsHint', { min: FIELD_OPTIONS_MIN, max: FIELD_OPTIONS_MAX })}</p>
          {optionErrors?.length ? <p className="field-error">{optionErrors.join(' ')}</p> : null}
        </div>
      ) : null}
    </EditDialog>
  );
}
