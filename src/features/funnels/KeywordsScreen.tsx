// /content/funnels/$funnelId/keywords/: the funnel's keywords. A person who writes one (a whole
// word or phrase, any case) is moved to its stage and gets its message; other text goes to the
// inbox. Add, change (phrase or stage) and delete.
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { KEYWORD_PHRASE_MAX, type Keyword, type Stage } from '../../../contract/funnels';
import { runChange } from '@/api/action';
import { createKeyword, deleteKeyword, updateKeyword } from '@/api/funnels';
import { describeFailure, noticeFailure, success, type TranslatedFailure } from '@/api/useApi';
import { usePageHead } from '@/state/ui';
import { BackLink } from '@/ui/BackLink';
import { EmptyState } from '@/ui/blocks';
import { ConfirmDialog } from '@/ui/Dialog';
import { EditDialog } from './EditDialog';
import { Button, FormAlert, TextField } from '@/ui/form';
import { EditIcon, TextIcon, TrashIcon } from '@/ui/glyphs';
import { Screen, ScreenHeader } from '@/ui/Screen';

const NO_ERRORS: TranslatedFailure = { fields: {}, messages: [] };

/** The stage a keyword leads to, picked from the funnel's stages. */
function StageSelect({ stages, value, onChange, errors }: { stages: Stage[]; value: number | ''; onChange: (id: number | '') => void; errors?: string[] }) {
  const { t } = useTranslation();
  return (
    <div className={`field${errors?.length ? ' field--invalid' : ''}`}>
      <label className="field-label">
        {t('funnels.keywords.stage')}
        <select className="field-input field-select" value={value} onChange={(event) => onChange(event.target.value ? Number(event.target.value) : '')} data-testid="keyword-stage">
          <option value="">{t('funnels.keywords.pickStage')}</option>
          {stages.map((stage) => (
            <option key={stage.id} value={stage.id}>
              {stage.title}
            </option>
          ))}
        </select>
      </label>
      {errors?.length ? <p className="field-error">{errors.join(' ')}</p> : null}
    </div>
  );
}

export function KeywordsScreen({ funnelId, keywords, stages }: { funnelId: number; keywords: Keyword[]; stages: Stage[] }) {
  const { t } = useTranslation();
  usePageHead(t('funnels.keywords.title'));
  const [phrase, setPhrase] = useState('');
  const [stageId, setStageId] = useState<number | ''>(stages[0]?.id ?? '');
  const [errors, setErrors] = useState<TranslatedFailure>(NO_ERRORS);
  const [editing, setEditing] = useState<Keyword | null>(null);
  const [deleting, setDeleting] = useState<Keyword | null>(null);
  const titleOf = (id: number) => stages.find((stage) => stage.id === id)?.title ?? '';

  async function add(event: FormEvent) {
    event.preventDefault();
    if (!phrase.trim()) return setErrors({ fields: { phrase: [t('funnels.keywords.phraseRequired')] }, messages: [] });
    if (stageId === '') return setErrors({ fields: { stage_id: [t('funnels.keywords.stageRequired')] }, messages: [] });
    const result = await runChange(() => createKeyword(funnelId, { phrase: phrase.trim(), stage_id: stageId }));
    if (!result.ok) return setErrors(describeFailure(result.failure, ['phrase', 'stage_id']));
    setErrors(NO_ERRORS);
    setPhrase('');
    success(t('funnels.keywords.added'));
  }

  async function remove(keyword: Keyword) {
    setDeleting(null);
    const result = await runChange(() => deleteKeyword(funnelId, keyword.id));
    if (!result.ok) return noticeFailure(result.failure);
    success(t('funnels.keywords.deleted'));
  }

  return (
    <Screen>
      <ScreenHeader
        title={t('funnels.keywords.title')}
        subtitle={t('funnels.keywords.subtitle')}
        back={<BackLink to="/content/funnels/$funnelId/" params={{ funnelId: String(funnelId) }} label={t('common.back')} />}
      />
      {keywords.length === 0 ? (
        <EmptyState icon={<TextIcon />} title={t('funnels.keywords.emptyTitle')}>
          <p>{t('funnels.keywords.emptyText')}</p>
        </EmptyState>
      ) : (
        <div className="section">
          {keywords.map((keyword) => (
            <div key={keyword.id} className="row row--static" data-testid="keyword-row">
              <span className="row-body">
                <span className="row-title">{keyword.phrase}</span>
                <span className="row-description">{t('funnels.keywords.leadsTo', { title: titleOf(keyword.stage_id) })}</span>
              </span>
              <button type="button" className="icon-button" aria-label={t('funnels.keywords.edit', { phrase: keyword.phrase })} onClick={() => setEditing(keyword)}>
                <EditIcon />
              </button>
              <button type="button" className="icon-button icon-button--danger" aria-label={t('funnels.keywords.delete', { phrase: keyword.phrase })} onClick={() => setDeleting(keyword)}>
                <TrashIcon />
              </button>
            </div>
          ))}
        </div>
      )}

      <section className="section-block">
        <h2 className="section-title">{t('funnels.keywords.addTitle')}</h2>
        {stages.length === 0 ? (
          <p className="section-footer">{t('funnels.keywords.noStages')}</p>
        ) : (
          <form className="form" onSubmit={(event) => void add(event)} noValidate>
            <FormAlert messages={errors.messages} />
            <TextField
              label={t('funnels.keywords.phrase')}
              value={phrase}
              maxLength={KEYWORD_PHRASE_MAX}
              placeholder={t('funnels.keywords.phrasePlaceholder')}
              hint={t('funnels.keywords.phraseHint')}
              onChange={(event) => setPhrase(event.target.value)}
              errors={errors.fields.phrase}
              autoComplete="off"
            />
            <StageSelect stages={stages} value={stageId} onChange={setStageId} errors={errors.fields.stage_id} />
            <Button type="submit">{t('funnels.keywords.add')}</Button>
          </form>
        )}
      </section>
      {editing ? <EditKeywordDialog funnelId={funnelId} keyword={editing} stages={stages} onDone={() => setEditing(null)} /> : null}
      {deleting ? (
        <ConfirmDialog
          title={t('funnels.keywords.deleteConfirmTitle', { phrase: deleting.phrase })}
          confirmLabel={t('funnels.keywords.deleteShort')}
          cancelLabel={t('funnels.common.cancel')}
          destructive
          onConfirm={() => void remove(deleting)}
          onCancel={() => setDeleting(null)}
        >
          <p>{t('funnels.keywords.deleteConfirmText')}</p>
        </ConfirmDialog>
      ) : null}
    </Screen>
  );
}

function EditKeywordDialog({ funnelId, keyword, stages, onDone }: { funnelId: number; keyword: Keyword; stages: Stage[]; onDone: () => void }) {
  const { t } = useTranslation();
  const [phrase, setPhrase] = useState(keyword.phrase);
  const [stageId, setStageId] = useState<number | ''>(keyword.stage_id);
  const [errors, setErrors] = useState<TranslatedFailure>(NO_ERRORS);

  async function save() {
    if (!phrase.trim()) return setErrors({ fields: { phrase: [t('funnels.keywords.phraseRequired')] }, messages: [] });
    if (stageId === '') return setErrors({ fields: { stage_id: [t('funnels.keywords.stageRequired')] }, messages: [] });
    const result = await runChange(() => updateKeyword(funnelId, keyword.id, { phrase: phrase.trim(), stage_id: stageId }));
    if (!result.ok) return setErrors(describeFailure(result.failure, ['phrase', 'stage_id']));
    onDone();
    success(t('funnels.keywords.saved'));
  }

  return (
    <EditDialog title={t('funnels.keywords.editTitle')} errors={errors} onSave={save} onCancel={onDone}>
      <TextField
        label={t('funnels.keywords.phrase')}
        value={phrase}
        maxLength={KEYWORD_PHRASE_MAX}
        autoFocus
        onChange={(event) => {
          setPhrase(event.target.value);
          setErrors(NO_ERRORS);
        }}
        errors={errors.fields.phrase}
        autoComplete="off"
      />
      <StageSelect stages={stages} value={stageId} onChange={setStageId} errors={errors.fields.stage_id} />
    </EditDialog>
  );
}
