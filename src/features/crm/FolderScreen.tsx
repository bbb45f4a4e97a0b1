// /content/folders/$folderId/: one CRM folder — its background behind the screen and its picture
// at the top; its funnels (add one of the user's, take one out: a funnel is in one folder at most),
// pinned templates, archived funnels, contacts and lists; and the folder itself: rename, picture,
// background, copy, archive or restore.
import { Link, useNavigate } from '@tanstack/react-router';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FOLDER_IMAGE_MAX_BYTES, FOLDER_IMAGE_TYPES, FOLDER_NAME_MAX, type Folder, type FolderImageKind } from '../../../contract/crm';
import type { Funnel } from '../../../contract/funnels';
import { ROUTES } from '../../../contract/routes';
import type { TemplateSummary } from '../../../contract/templates';
import { runChange } from '@/api/action';
import {
  addFolderFunnel,
  addFolderTemplate,
  archiveFolder,
  copyFolder,
  removeFolderFunnel,
  removeFolderImage,
  removeFolderTemplate,
  renameFolder,
  restoreFolder,
  uploadFolderImage,
} from '@/api/crm';
import { noticeFailure } from '@/api/useApi';
import { showTopInfo, usePageHead } from '@/state/ui';
import { BackLink } from '@/ui/BackLink';
import { RowContent, RowIcon, Section } from '@/ui/blocks';
import { FunnelIcon } from '@/ui/brandIcon';
import { ConfirmDialog } from '@/ui/Dialog';
import { TextField } from '@/ui/form';
import { ArchiveIcon, CopyIcon, EditIcon, ImageIcon, RestoreIcon, TrashIcon } from '@/ui/glyphs';
import { BotIcon, ListIcon, UsersIcon } from '@/ui/icons';
import { Screen } from '@/ui/Screen';
import { ChoiceRow } from './ChoiceRow';
import { folderCounts, listDescription } from './FoldersScreen';
import { FolderAvatar, useFolderImage } from './FolderImage';
import './crm.css';

type Dialog = { kind: 'rename' | 'copy'; name: string } | { kind: 'archive' } | null;

export function FolderScreen({ folder, funnels, templates }: { folder: Folder; funnels: Funnel[]; templates: TemplateSummary[] }) {
  const { t } = useTranslation();
  usePageHead(folder.name);
  const navigate = useNavigate();
  const background = useFolderImage(folder, 'background');
  const [busy, setBusy] = useState(false);
  const [dialog, setDialog] = useState<Dialog>(null);
  const [funnelChoice, setFunnelChoice] = useState<number | ''>('');
  const [templateChoice, setTemplateChoice] = useState<number | ''>('');
  const pictureInput = useRef<HTMLInputElement>(null);
  const backgroundInput = useRef<HTMLInputElement>(null);
  const addable = funnels.filter((f) => f.folder_id !== folder.id);
  const pinnable = templates.filter((tpl) => tpl.published && !folder.templates.some((p) => p.id === tpl.id));

  async function act<T>(work: () => Promise<T>, done: string): Promise<T | null> {
    setBusy(true);
    const result = await runChange(work, { notice: done });
    setBusy(false);
    if (!result.ok) {
      noticeFailure(result.failure);
      return null;
    }
    return result.value;
  }

  function pickImage(kind: FolderImageKind, file: File) {
    if (!(FOLDER_IMAGE_TYPES as readonly string[]).includes(file.type)) {
      return showTopInfo({ type: 'error', text: t('crm.folders.imageType') });
    }
    if (file.size > FOLDER_IMAGE_MAX_BYTES[kind]) {
      return showTopInfo({ type: 'error', text: `${t('funnels.message.fileTooBig')}. ${t('funnels.message.fileLimit', { count: FOLDER_IMAGE_MAX_BYTES[kind] / (1024 * 1024) })}` });
    }
    void act(() => uploadFolderImage(folder.id, kind, file), kind === 'picture' ? t('crm.folders.pictureSaved') : t('crm.folders.backgroundSaved'));
  }

  async function confirmDialog() {
    if (!dialog) return;
    if (dialog.kind === 'archive') {
      setDialog(null);
      await act(() => archiveFolder(folder.id), t('crm.folders.archivedDone'));
      return;
    }
    const name = dialog.name.trim();
    if (!name) return;
    setDialog(null);
    if (dialog.kind === 'rename') {
      await act(() => renameFolder(folder.id, name), t('crm.folders.renamed'));
      return;
    }
    const copy = await act(() => copyFolder(folder.id, name), t('crm.folders.copied'));
    if (copy) await navigate({ to: '/content/folders/$folderId/', params: { folderId: String(copy.id) } });
  }

  return (
    <Screen className={`folder-screen${background ? ' folder-screen--background' : ''}`}>
      {background ? <div className="folder-background" style={{ backgroundImage: `url(${background})` }} data-testid="folder-background-image" aria-hidden="true" /> : null}
      <header className="screen-header folder-hero">
        <BackLink to="/content/folders/" label={t('crm.folders.title')} />
        <div className="folder-hero-main">
          <FolderAvatar folder={folder} large />
          <div className="profile-body">
            <h1 className="screen-title" data-testid="folder-title">
              {folder.name}
            </h1>
            <p className="screen-subtitle">{folderCounts(folder, t)}</p>
          </div>
        </div>
        {folder.archived ? <p className="section-footer section-footer--warning">{t('crm.folders.archivedText')}</p> : null}
      </header>

      <Section title={t('crm.folders.funnelsTitle')} footer={t('crm.folders.funnelsFooter')}>
        {folder.funnels.map((funnel) => (
          <div key={funnel.id} className="folder-item" data-testid="folder-funnel">
            <Link to="/content/funnels/$funnelId/" params={{ funnelId: String(funnel.id) }} className="row">
              <RowContent
                icon={<RowIcon tint={funnel.state === 'running' ? 'green' : funnel.state === 'stopped' ? 'orange' : 'blue'}><BotIcon /></RowIcon>}
                title={funnel.name}
                description={`${funnel.bot_username ? `@${funnel.bot_username}` : t('crm.folders.noBot')} · ${t('crm.folders.people', { count: funnel.people_count })}`}
              />
            </Link>
            <button type="button" className="folder-item-remove" onClick={() => void act(() => removeFolderFunnel(folder.id, funnel.id), t('crm.folders.funnelRemoved'))} disabled={busy} aria-label={t('crm.folders.removeFunnel', { name: funnel.name })}>
              <TrashIcon />
            </button>
          </div>
        ))}
        {addable.length > 0 ? (
          <ChoiceRow
            label={t('crm.folders.addFunnel')}
            placeholder={t('crm.folders.chooseFunnel')}
            options={addable.map((f) => ({ id: f.id, name: f.folder_id ? `${f.name} (${t('crm.folders.inOther')})` : f.name }))}
            value={funnelChoice}
            onChange={setFunnelChoice}
            action={t('crm.folders.add')}
            onAct={(id) => {
              setFunnelChoice('');
              void act(() => addFolderFunnel(folder.id, id), t('crm.folders.funnelAdded'));
            }}
            busy={busy}
            testId="folder-funnel"
          />
        ) : folder.funnels.length === 0 ? (
          <Link to={ROUTES.connectBot} className="row">
            <RowContent title={t('crm.folders.connectFirst')} />
          </Link>
        ) : null}
      </Section>

      <Section title={t('crm.folders.contactsTitle')}>
        <Link to={ROUTES.contacts} search={{ folder: folder.id }} className="row" data-testid="folder-contacts">
          <RowContent icon={<RowIcon tint="teal"><UsersIcon /></RowIcon>} title={t('crm.folders.allContacts')} value={String(folder.contact_count)} />
        </Link>
        {folder.lists.map((list) => (
          <Link key={list.id} to="/content/lists/$listId/" params={{ listId: String(list.id) }} className="row" data-testid="folder-list">
            <RowContent icon={<RowIcon tint={list.kind === 'segment' ? 'purple' : 'teal'}><ListIcon /></RowIcon>} title={list.name} description={listDescription(list, t)} />
          </Link>
        ))}
      </Section>
      <p className="section-footer folder-footer">{t('crm.folders.listsFooter')}</p>

      <Section title={t('crm.folders.templatesTitle')} footer={folder.templates.length === 0 ? t('crm.folders.templatesEmpty') : undefined}>
        {folder.templates.map((template) => (
          <div key={template.id} className="folder-item" data-testid="folder-template">
            <Link to="/templates/$templateId/" params={{ templateId: String(template.id) }} className="row">
              <RowContent icon={<RowIcon tint="blue"><FunnelIcon /></RowIcon>} title={template.name} description={template.published ? undefined : t('templates.unpublished')} />
            </Link>
            <button type="button" className="folder-item-remove" onClick={() => void act(() => removeFolderTemplate(folder.id, template.id), t('crm.folders.templateRemoved'))} disabled={busy} aria-label={t('crm.folders.removeTemplate', { name: template.name })}>
              <TrashIcon />
            </button>
          </div>
        ))}
        {pinnable.length > 0 ? (
          <ChoiceRow
            label={t('crm.folders.addTemplate')}
            placeholder={t('crm.folders.chooseTemplate')}
            options={pinnable}
            value={templateChoice}
            onChange={setTemplateChoice}
            action={t('crm.folders.add')}
            onAct={(id) => {
              setTemplateChoice('');
              void act(() => addFolderTemplate(folder.id, id), t('crm.folders.templateAdded'));
            }}
            busy={busy}
            testId="folder-template"
          />
        ) : null}
      </Section>

      {folder.archived_funnels.length > 0 ? (
        <Section title={t('crm.folders.archiveTitle')}>
          {folder.archived_funnels.map((funnel) => (
            <Link key={funnel.id} to={ROUTES.archive} className="row" data-testid="folder-archived-funnel">
              <RowContent icon={<RowIcon tint="gray"><ArchiveIcon /></RowIcon>} title={funnel.name} description={t('crm.folders.people', { count: funnel.people_count })} />
            </Link>
          ))}
        </Section>
      ) : null}

      <Section title={t('crm.folders.settings')}>
        <button type="button" className="row" onClick={() => setDialog({ kind: 'rename', name: folder.name })} disabled={busy} data-testid="rename-folder">
          <RowContent icon={<RowIcon tint="blue"><EditIcon /></RowIcon>} title={t('crm.folders.rename')} chevron={false} />
        </button>
        <ImageRow kind="picture" present={folder.has_picture} busy={busy} onPick={() => pictureInput.current?.click()} onRemove={() => void act(() => removeFolderImage(folder.id, 'picture'), t('crm.folders.pictureRemoved'))} />
        <ImageRow kind="background" present={folder.has_background} busy={busy} onPick={() => backgroundInput.current?.click()} onRemove={() => void act(() => removeFolderImage(folder.id, 'background'), t('crm.folders.backgroundRemoved'))} />
        <button type="button" className="row" onClick={() => setDialog({ kind: 'copy', name: t('crm.folders.copyName', { name: folder.name }).slice(0, FOLDER_NAME_MAX) })} disabled={busy} data-testid="copy-folder">
          <RowContent icon={<RowIcon tint="green"><CopyIcon /></RowIcon>} title={t('crm.folders.copy')} description={t('crm.folders.copyText')} chevron={false} />
        </button>
        {folder.archived ? (
          <button type="button" className="row" onClick={() => void act(() => restoreFolder(folder.id), t('crm.folders.restored'))} disabled={busy} data-testid="restore-folder">
            <RowContent icon={<RowIcon tint="green"><RestoreIcon /></RowIcon>} title={t('crm.folders.restore')} chevron={false} />
          </button>
        ) : (
          <button type="button" className="row row--destructive" onClick={() => setDialog({ kind: 'archive' })} disabled={busy} data-testid="archive-folder">
            <RowContent icon={<RowIcon tint="red"><ArchiveIcon /></RowIcon>} title={t('crm.folders.archive')} chevron={false} />
          </button>
        )}
      </Section>
      {(['picture', 'background'] as const).map((kind) => (
        <input
          key={kind}
          ref={kind === 'picture' ? pictureInput : backgroundInput}
          type="file"
          hidden
          accept={FOLDER_IMAGE_TYPES.join(',')}
          data-testid={`folder-${kind}-input`}
          onChange={(event) => {
            const file = event.target.files?.[0];
            event.target.value = '';
            if (file) pickImage(kind, file);
          }}
        />
      ))}

      {dialog ? (
        <ConfirmDialog
          title={dialog.kind === 'rename' ? t('crm.folders.rename') : dialog.kind === 'copy' ? t('crm.folders.copy') : t('crm.folders.archive')}
          confirmLabel={dialog.kind === 'rename' ? t('crm.folders.save') : dialog.kind === 'copy' ? t('crm.folders.copyConfirm') : t('crm.folders.archive')}
          cancelLabel={t('funnels.common.cancel')}
          destructive={dialog.kind === 'archive'}
          confirmDisabled={dialog.kind !== 'archive' && !dialog.name.trim()}
          onConfirm={() => void confirmDialog()}
          onCancel={() => setDialog(null)}
        >
          {dialog.kind === 'archive' ? (
            <p>{t('crm.folders.archiveQuestion')}</p>
          ) : (
            <>
              {dialog.kind === 'copy' ? <p>{t('crm.folders.copyText')}</p> : null}
              <TextField
                label={t('crm.folders.name')}
                value={dialog.name}
                maxLength={FOLDER_NAME_MAX}
                onChange={(event) => setDialog({ ...dialog, name: event.target.value })}
                data-testid="folder-dialog-name"
              />
            </>
          )}
        </ConfirmDialog>
      ) : null}
    </Screen>
  );
}

function ImageRow({ kind, present, busy, onPick, onRemove }: { kind: FolderImageKind; present: boolean; busy: boolean; onPick: () => void; onRemove: () => void }) {
  const { t } = useTranslation();
  const mb = FOLDER_IMAGE_MAX_BYTES[kind] / (1024 * 1024);
  return (
    <div className="folder-item">
      <button type="button" className="row" onClick={onPick} disabled={busy} data-testid={`folder-${kind}`}>
        <RowContent
          icon={<RowIcon tint="orange"><ImageIcon /></RowIcon>}
          title={kind === 'picture' ? (present ? t('crm.folders.changePicture') : t('crm.folders.addPicture')) : present ? t('crm.folders.changeBackground') : t('crm.folders.addBackground')}
          description={t('crm.folders.imageLimit', { count: mb })}
          chevron={false}
        />
      </button>
      {present ? (
        <button type="button" className="folder-item-remove" onClick={onRemove} disabled={busy} aria-label={kind === 'picture' ? t('crm.folders.removePicture') : t('crm.folders.removeBackground')}>
          <TrashIcon />
        </button>
      ) : null}
    </div>
  );
}
