// /content/folders/: the user's CRM folders — each a workspace (a project, a client) with its
// picture, grouping funnels, templates, contacts and lists; a new one by name; the archived ones
// to restore; and every list of contacts.
import { Link, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { FOLDER_NAME_MAX, type ContactList, type FolderSummary } from '../../../contract/crm';
import { ROUTES } from '../../../contract/routes';
import { runChange } from '@/api/action';
import { createFolder, restoreFolder } from '@/api/crm';
import { describeFailure, noticeFailure, success } from '@/api/useApi';
import { usePageHead } from '@/state/ui';
import { BackLink } from '@/ui/BackLink';
import { EmptyState, RowContent, RowIcon, Section } from '@/ui/blocks';
import { Button, TextField } from '@/ui/form';
import { ListIcon } from '@/ui/icons';
import { ArchiveIcon, PlusIcon, RestoreIcon } from '@/ui/glyphs';
import { Screen, ScreenHeader } from '@/ui/Screen';
import { useWideLayout } from '@/ui/useWideLayout';
import { FolderAvatar } from './FolderImage';
import { ListsTable } from './ListsTable';
import './crm.css';

export function folderCounts(folder: FolderSummary, t: TFunction): string {
  return [t('crm.folders.funnels', { count: folder.funnel_count }), t('crm.folders.contacts', { count: folder.contact_count }), t('crm.folders.lists', { count: folder.list_count })].join(' · ');
}

export function listDescription(list: ContactList, t: TFunction): string {
  return `${list.kind === 'segment' ? t('crm.lists.segment') : t('crm.lists.static')} · ${t('crm.lists.people', { count: list.count })}`;
}

export function FoldersScreen({ folders, archived, lists }: { folders: FolderSummary[]; archived: FolderSummary[]; lists: ContactList[] }) {
  const { t } = useTranslation();
  usePageHead(t('crm.folders.title'), t('crm.folders.subtitle'));
  const navigate = useNavigate();
  const wide = useWideLayout();
  const [name, setName] = useState('');
  const [errors, setErrors] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const folderName = (id: number | null) => [...folders, ...archived].find((f) => f.id === id)?.name;

  async function add(event: React.FormEvent) {
    event.preventDefault();
    if (!name.trim()) return setErrors([t('funnels.serverErrors.blank')]);
    setBusy(true);
    const result = await runChange(() => createFolder(name.trim()));
    setBusy(false);
    if (!result.ok) {
      const described = describeFailure(result.failure, ['name']);
      return setErrors([...(described.fields.name ?? []), ...described.messages]);
    }
    success(t('crm.folders.created'));
    await navigate({ to: '/content/folders/$folderId/', params: { folderId: String(result.value.id) } });
  }

  async function restore(folder: FolderSummary) {
    setBusy(true);
    const result = await runChange(() => restoreFolder(folder.id));
    setBusy(false);
    if (!result.ok) return noticeFailure(result.failure);
    success(t('crm.folders.restored'));
  }

  return (
    <Screen wide>
      <ScreenHeader title={t('crm.folders.title')} subtitle={t('crm.folders.subtitle')} back={<BackLink to={ROUTES.panel} label={t('common.back')} />} />
      {folders.length === 0 ? (
        <EmptyState icon={<ArchiveIcon />} title={t('crm.folders.emptyTitle')}>
          <p>{t('crm.folders.emptyText')}</p>
        </EmptyState>
      ) : (
        <ul className="folder-list">
          {folders.map((folder) => (
            <li key={folder.id}>
              <Link to="/content/folders/$folderId/" params={{ folderId: String(folder.id) }} className="folder-card" data-testid="folder-card">
                <FolderAvatar folder={folder} />
                <span className="folder-card-body">
                  <span className="folder-card-name">{folder.name}</span>
                  <span className="folder-card-meta">{folderCounts(folder, t)}</span>
                </span>
              </Link>
            </li>
          ))}
        </ul>
      )}

      <form className="section-block folder-new" onSubmit={(event) => void add(event)} noValidate>
        <TextField
          label={t('crm.folders.newName')}
          value={name}
          maxLength={FOLDER_NAME_MAX}
          placeholder={t('crm.folders.namePlaceholder')}
          errors={errors}
          onChange={(event) => {
            setName(event.target.value);
            setErrors([]);
          }}
          data-testid="folder-name"
        />
        <Button type="submit" disabled={busy} data-testid="add-folder">
          <PlusIcon />
          {t('crm.folders.add')}
        </Button>
      </form>

      {wide && lists.length > 0 ? (
        <section className="section-block">
          <h2 className="section-title">{t('crm.lists.title')}</h2>
          <ListsTable lists={lists} folderName={folderName} />
          <p className="section-footer">
            {t('crm.lists.footer')}{' '}
            <Link to={ROUTES.contacts} className="link">
              {t('crm.lists.fromContacts')}
            </Link>
          </p>
        </section>
      ) : (
        <Section title={t('crm.lists.title')} footer={lists.length === 0 ? t('crm.lists.emptyText') : t('crm.lists.footer')}>
          {lists.map((list) => (
            <Link key={list.id} to="/content/lists/$listId/" params={{ listId: String(list.id) }} className="row" data-testid="list-row">
              <RowContent
                icon={<RowIcon tint={list.kind === 'segment' ? 'purple' : 'teal'}><ListIcon /></RowIcon>}
                title={list.name}
                description={[listDescription(list, t), folderName(list.folder_id)].filter(Boolean).join(' · ')}
              />
            </Link>
          ))}
          <Link to={ROUTES.contacts} className="row">
            <RowContent title={t('crm.lists.fromContacts')} />
          </Link>
        </Section>
      )}

      {archived.length > 0 ? (
        <Section title={t('crm.folders.archived')}>
          {archived.map((folder) => (
            <div key={folder.id} className="row row--static" data-testid="archived-folder">
              <RowContent icon={<FolderAvatar folder={folder} />} title={folder.name} description={folderCounts(folder, t)} chevron={false} />
              <button type="button" className="button button--secondary button--small" onClick={() => void restore(folder)} disabled={busy} data-testid="restore-folder">
                <RestoreIcon />
                {t('crm.folders.restore')}
              </button>
            </div>
          ))}
        </Section>
      ) : null}
    </Screen>
  );
}
