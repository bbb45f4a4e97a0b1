// /content/funnels/$funnelId/tags/: the funnel's tags (title, colour, how many people have it):
// add, rename (and recolour) and delete. Tags are set on people by hand (the person's page), by a stage, or by a button.
import { useState, type FormEvent } from 'react';
import { PALETTE, TAG_TITLE_MAX, type Tag } from '../../../contract/funnels';
import { createTag, deleteTag, updateTag } from '@/api/funnels';
import { useTranslation } from 'react-i18next';
import { usePageHead } from '@/state/ui';
import { EmptyState } from '@/ui/blocks';
import { Button, FormAlert, TextField } from '@/ui/form';
import { Screen, ScreenHeader } from '@/ui/Screen';
import { ConfirmDialog } from '@/ui/Dialog';
import { EditDialog } from './EditDialog';
import { EditIcon, TagIcon, TrashIcon } from '@/ui/glyphs';
import { ColorPicker } from './parts';
import { BackLink } from '@/ui/BackLink';
import { runChange } from '@/api/action';
import { describeFailure, noticeFailure, success, type TranslatedFailure } from '@/api/useApi';

const NO_ERRORS: TranslatedFailure = { fields: {}, messages: [] };

/** `tags`: the funnel's tags, loaded by the route. */
export function TagsScreen({ funnelId, tags }: { funnelId: number; tags: Tag[] }) {
  const { t } = useTranslation();
  usePageHead(t('funnels.tags.title'));
  const [title, setTitle] = useState('');
  const [color, setColor] = useState<string>(PALETTE[4]);
  const [errors, setErrors] = useState<TranslatedFailure>(NO_ERRORS);
  const [deleting, setDeleting] = useState<Tag | null>(null);
  const [editing, setEditing] = useState<Tag | null>(null);

  async function add(event: FormEvent) {
    event.preventDefault();
    if (!title.trim()) return setErrors({ fields: { title: [t('funnels.tags.titleRequired')] }, messages: [] });
    const result = await runChange(() => createTag(funnelId, { title: title.trim(), color }));
    if (!result.ok) return setErrors(describeFailure(result.failure, ['title', 'color']));
    setErrors(NO_ERRORS);
    setTitle('');
    success(t('funnels.tags.added'));
  }

  async function remove(tag: Tag) {
    setDeleting(null);
    const result = await runChange(() => deleteTag(tag.id));
    if (!result.ok) return noticeFailure(result.failure);
    success(t('funnels.tags.deleted'));
  }

  return (
    <Screen>
      <ScreenHeader
        title={t('funnels.tags.title')}
        subtitle={t('funnels.tags.subtitle')}
        back={<BackLink to="/content/funnels/$funnelId/" params={{ funnelId: String(funnelId) }} label={t('common.back')} />}
      />
      {tags.length === 0 ? (
        <EmptyState icon={<TagIcon />} title={t('funnels.tags.emptyTitle')}>
          <p>{t('funnels.tags.emptyText')}</p>
        </EmptyState>
      ) : (
        <div className="section">
          {tags.map((tag) => (
            <div key={tag.id} className="row row--static" data-testid="tag-row">
              <span className="tag-dot" style={{ background: tag.color }} aria-hidden="true" />
              <span className="row-body">
                <span className="row-title">{tag.title}</span>
                <span className="row-description">{t('funnels.list.people', { count: tag.people_count })}</span>
              </span>
              <button type="button" className="icon-button" aria-label={t('funnels.tags.edit', { title: tag.title })} onClick={() => setEditing(tag)}>
                <EditIcon />
              </button>
              <button type="button" className="icon-button icon-button--danger" aria-label={t('funnels.tags.delete', { title: tag.title })} onClick={() => setDeleting(tag)}>
                <TrashIcon />
              </button>
            </div>
          ))}
        </div>
      )}

      <section className="section-block">
        <h2 className="section-title">{t('funnels.tags.addTitle')}</h2>
        <form className="form" onSubmit={(event) => void add(event)} noValidate>
          <FormAlert messages={errors.messages} />
          <TextField
            label={t('funnels.tags.titleLabel')}
            value={title}
            maxLength={TAG_TITLE_MAX}
            placeholder={t('funnels.tags.titlePlaceholder')}
            onChange={(event) => setTitle(event.target.value)}
            errors={errors.fields.title}
            autoComplete="off"
          />
          <ColorPicker label={t('funnels.tags.color')} value={color} onChange={setColor} />
          <Button type="submit">{t('funnels.tags.add')}</Button>
        </form>
      </section>
      {editing ? <EditTagDialog tag={editing} onDone={() => setEditing(null)} /> : null}
      {deleting ? (
        <ConfirmDialog
          title={t('funnels.tags.deleteConfirmTitle', { title: deleting.title })}
          confirmLabel={t('funnels.tags.deleteShort')}
          cancelLabel={t('funnels.common.cancel')}
          destructive
          onConfirm={() => void remove(deleting)}
          onCancel={() => setDeleting(null)}
        >
          <p>{t('funnels.tags.deleteConfirmText', { count: deleting.people_count })}</p>
        </ConfirmDialog>
      ) : null}
    </Screen>
  );
}

function EditTagDialog({ tag, onDone }: { tag: Tag; onDone: () => void }) {
  const { t } = useTranslation();
  const [title, setTitle] = useState(tag.title);
  const [color, setColor] = useState(tag.color);
  const [errors, setErrors] = useState<TranslatedFailure>(NO_ERRORS);

  async function save() {
    if (!title.trim()) return setErrors({ fields: { title: [t('funnels.tags.titleRequired')] }, messages: [] });
    const result = await runChange(() => updateTag(tag.id, { title: title.trim(), color }));
    if (!result.ok) return setErrors(describeFailure(result.failure, ['title', 'color']));
    onDone();
    success(t('funnels.tags.saved'));
  }

  return (
    <EditDialog title={t('funnels.tags.editTitle')} errors={errors} onSave={save} onCancel={onDone}>
      <TextField
        label={t('funnels.tags.titleLabel')}
        value={title}
        maxLength={TAG_TITLE_MAX}
        autoFocus
        onChange={(event) => {
          setTitle(event.target.value);
          setErrors(NO_ERRORS);
        }}
        errors={errors.fields.title}
        autoComplete="off"
      />
      <ColorPicker label={t('funnels.tags.color')} value={color} onChange={setColor} />
    </EditDialog>
  );
}
