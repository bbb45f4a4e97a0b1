// /content/lists/$listId/: one list of contacts — static (people picked by hand) or a saved
// segment (a filter that stays live) — with its count, its people in the contacts list, what the
// segment's filter says, its folder, a mailing to it from one of the funnels, rename and delete.
import { Link, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { LIST_NAME_MAX, type ContactList, type FolderSummary } from '../../../contract/crm';
import type { ContactsFilter } from '../../../contract/contacts';
import type { FunnelField } from '../../../contract/fields';
import type { Funnel, Stage, Tag } from '../../../contract/funnels';
import type { FunnelSource } from '../../../contract/sources';
import { ROUTES } from '../../../contract/routes';
import { runChange } from '@/api/action';
import { deleteList, updateList } from '@/api/crm';
import { noticeFailure } from '@/api/useApi';
import { usePageHead } from '@/state/ui';
import { BackLink } from '@/ui/BackLink';
import { RowContent, RowIcon, Section } from '@/ui/blocks';
import { ConfirmDialog } from '@/ui/Dialog';
import { FieldFilter, type FieldFilterValue } from '@/ui/FieldFilter';
import { TextField } from '@/ui/form';
import { EditIcon, MegaphoneIcon, TrashIcon } from '@/ui/glyphs';
import { UsersIcon } from '@/ui/icons';
import { Screen, ScreenHeader } from '@/ui/Screen';
import { ChoiceRow } from './ChoiceRow';
import { listDescription } from './FoldersScreen';
import './crm.css';

/** The segment's filter with its field condition replaced (none when the field is cleared). */
function withFieldCondition({ field: _field, field_value: _value, ...rest }: ContactsFilter, condition: FieldFilterValue): ContactsFilter {
  if (condition.field === undefined) return rest;
  return { ...rest, field: condition.field, ...(condition.field_value ? { field_value: condition.field_value } : {}) };
}

/** A segment's filter in words, with the names of what it names. */
function filterWords(
  list: ContactList,
  names: { funnels: Funnel[]; folders: FolderSummary[]; stages: Stage[]; tags: Tag[]; sources: FunnelSource[]; fields: FunnelField[] },
  t: TFunction,
): string[] {
  const f = list.filter ?? {};
  const words: string[] = [];
  if (f.funnel !== undefined) words.push(t('crm.lists.byFunnel', { name: names.funnels.find((x) => x.id === f.funnel)?.name ?? `#${f.funnel}` }));
  if (f.folder !== undefined) words.push(t('crm.lists.byFolder', { name: names.folders.find((x) => x.id === f.folder)?.name ?? `#${f.folder}` }));
  if (f.stage === 'none') words.push(t('crm.lists.noStage'));
  else if (f.stage !== undefined) words.push(t('crm.lists.byStage', { name: names.stages.find((x) => String(x.id) === f.stage)?.title ?? `#${f.stage}` }));
  if (f.tag !== undefined) words.push(t('crm.lists.byTag', { name: names.tags.find((x) => x.id === f.tag)?.title ?? `#${f.tag}` }));
  if (f.source === 'none') words.push(t('crm.lists.noSource'));
  else if (f.source !== undefined) words.push(t('crm.lists.bySource', { name: names.sources.find((x) => String(x.id) === f.source)?.name ?? `#${f.source}` }));
  if (f.field !== undefined) {
    const title = names.fields.find((x) => x.id === f.field)?.title ?? `#${f.field}`;
    words.push(f.field_value === undefined ? t('crm.lists.byField', { title }) : t('crm.lists.byFieldValue', { title, value: f.field_value }));
  }
  if (f.blocked !== undefined) words.push(f.blocked ? t('contacts.onlyBlocked') : t('contacts.notBlocked'));
  if (f.joined_from) words.push(t('crm.lists.joinedFrom', { day: f.joined_from }));
  if (f.joined_to) words.push(t('crm.lists.joinedTo', { day: f.joined_to }));
  if (f.search) words.push(t('crm.lists.bySearch', { text: f.search }));
  return words.length ? words : [t('crm.lists.everyone')];
}

export function ListScreen({
  list,
  funnels,
  folders,
  stages,
  tags,
  sources = [],
  fields = [],
}: {
  list: ContactList;
  funnels: Funnel[];
  folders: FolderSummary[];
  /** The segment's funnel's stages, tags and sources, to name them. */
  stages: Stage[];
  tags: Tag[];
  sources?: FunnelSource[];
  /** The segment's funnel's fields: a field belongs to one funnel, so only a funnel's segment can name one. */
  fields?: FunnelField[];
}) {
  const { t } = useTranslation();
  usePageHead(list.name);
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const [dialog, setDialog] = useState<{ kind: 'rename'; name: string } | { kind: 'delete' } | null>(null);
  const segmentFunnel = list.filter?.funnel;
  const mailable = funnels.filter((f) => !f.archived && f.bot_id !== null && (segmentFunnel === undefined || f.id === segmentFunnel));
  const [mailFunnel, setMailFunnel] = useState<number | ''>(mailable.length === 1 ? mailable[0].id : '');
  const folder = folders.find((f) => f.id === list.folder_id);
  // Shown as chosen at once: the picker's typed value must not be checked against the old field while the save is on its way.
  const [fieldCondition, setFieldCondition] = useState<FieldFilterValue>({ field: list.filter?.field, field_value: list.filter?.field_value });

  function saveFieldCondition(condition: FieldFilterValue) {
    setFieldCondition(condition);
    void act(() => updateList(list.id, { filter: withFieldCondition(list.filter ?? {}, condition) }), t('crm.lists.filterSaved'));
  }

  async function act(work: () => Promise<unknown>, done: string): Promise<boolean> {
    setBusy(true);
    const result = await runChange(work, { notice: done });
    setBusy(false);
    if (!result.ok) {
      noticeFailure(result.failure);
      return false;
    }
    return true;
  }

  async function confirm() {
    if (!dialog) return;
    setDialog(null);
    if (dialog.kind === 'rename') {
      await act(() => updateList(list.id, { name: dialog.name.trim() }), t('crm.lists.renamed'));
      return;
    }
    if (await act(() => deleteList(list.id), t('crm.lists.deleted'))) {
      await (folder ? navigate({ to: '/content/folders/$folderId/', params: { folderId: String(folder.id) } }) : navigate({ to: '/content/folders/' }));
    }
  }

  return (
    <Screen>
      <ScreenHeader
        title={list.name}
        subtitle={listDescription(list, t)}
        back={folder ? <BackLink to="/content/folders/$folderId/" params={{ folderId: String(folder.id) }} label={folder.name} /> : <BackLink to="/content/folders/" label={t('crm.folders.title')} />}
      />

      <Section footer={list.kind === 'segment' ? t('crm.lists.segmentFooter') : t('crm.lists.staticFooter')}>
        <Link to={ROUTES.contacts} search={{ list: list.id }} className="row" data-testid="list-people">
          <RowContent icon={<RowIcon tint="teal"><UsersIcon /></RowIcon>} title={t('crm.lists.peopleTitle')} value={<span data-testid="list-count">{list.count}</span>} />
        </Link>
        {list.kind === 'segment' ? (
          <div className="row row--static">
            <RowContent
              title={t('crm.lists.filter')}
              description={<span data-testid="list-filter-words">{filterWords(list, { funnels, folders, stages, tags, sources, fields }, t).join(' · ')}</span>}
              chevron={false}
            />
          </div>
        ) : null}
      </Section>

      {list.kind === 'segment' && segmentFunnel !== undefined && fields.length > 0 ? (
        <Section title={t('crm.lists.fieldTitle')} footer={t('crm.lists.fieldFooter')}>
          <div className="row row--static list-field-condition">
            <FieldFilter
              fields={fields}
              value={fieldCondition}
              onChange={saveFieldCondition}
              testId="list-filter"
            />
          </div>
        </Section>
      ) : null}

      <Section title={t('crm.lists.mailTitle')} footer={mailable.length === 0 ? t('crm.lists.mailNone') : t('crm.lists.mailFooter')}>
        {mailable.length > 0 ? (
          <ChoiceRow
            label={t('crm.lists.mailFunnel')}
            placeholder={t('crm.lists.chooseFunnel')}
            options={mailable}
            value={mailFunnel}
            onChange={setMailFunnel}
            action={
              <>
                <MegaphoneIcon />
                {t('crm.lists.mail')}
              </>
            }
            onAct={(id) => void navigate({ to: '/content/funnels/$funnelId/mailings/new/', params: { funnelId: String(id) }, search: { list: list.id } })}
            stack
            testId="list-mail"
          />
        ) : null}
      </Section>

      <Section title={t('crm.lists.settings')}>
        <label className="row row--static folder-add">
          <span className="row-body">
            <span className="row-title">{t('crm.folders.folder')}</span>
          </span>
          <select
            className="field-input field-select"
            value={list.folder_id ?? ''}
            disabled={busy}
            onChange={(event) => {
              const folderId = event.target.value ? Number(event.target.value) : null;
              void act(() => updateList(list.id, { folder_id: folderId }), t('crm.lists.moved'));
            }}
            data-testid="list-folder-choice"
          >
            <option value="">{t('crm.folders.noFolder')}</option>
            {folders.map((f) => (
              <option key={f.id} value={f.id}>
                {f.name}
              </option>
            ))}
          </select>
        </label>
        <button type="button" className="row" onClick={() => setDialog({ kind: 'rename', name: list.name })} disabled={busy} data-testid="rename-list">
          <RowContent icon={<RowIcon tint="blue"><EditIcon /></RowIcon>} title={t('crm.lists.rename')} chevron={false} />
        </button>
        <button type="button" className="row row--destructive" onClick={() => setDialog({ kind: 'delete' })} disabled={busy} data-testid="delete-list">
          <RowContent icon={<RowIcon tint="red"><TrashIcon /></RowIcon>} title={t('crm.lists.delete')} chevron={false} />
        </button>
      </Section>

      {dialog ? (
        <ConfirmDialog
          title={dialog.kind === 'rename' ? t('crm.lists.rename') : t('crm.lists.delete')}
          confirmLabel={dialog.kind === 'rename' ? t('crm.lists.save') : t('crm.lists.delete')}
          cancelLabel={t('funnels.common.cancel')}
          destructive={dialog.kind === 'delete'}
          confirmDisabled={dialog.kind === 'rename' && !dialog.name.trim()}
          onConfirm={() => void confirm()}
          onCancel={() => setDialog(null)}
        >
          {dialog.kind === 'delete' ? (
            <p>{t('crm.lists.deleteQuestion')}</p>
          ) : (
            <TextField label={t('crm.lists.name')} value={dialog.name} maxLength={LIST_NAME_MAX} onChange={(event) => setDialog({ ...dialog, name: event.target.value })} data-testid="list-dialog-name" />
          )}
        </ConfirmDialog>
      ) : null}
    </Screen>
  );
}
