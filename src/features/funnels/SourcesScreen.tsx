// /content/funnels/$funnelId/sources/: where people come from. The funnel's sources, each a start
// link (t.me/<bot>?start=src_<code>) to copy or share (Telegram's share sheet inside the Mini
// App), renamed, archived (its link still starts the bot but records nobody new) or deleted; and
// the results by source for a period (?period=, the same control as the stage results).
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { Funnel, Stage, StatsPeriod } from '../../../contract/funnels';
import { SOURCE_NAME_MAX, type FunnelSource, type SourceStats } from '../../../contract/sources';
import { createSource, deleteSource, updateSource } from '@/api/funnels';
import { runChange } from '@/api/action';
import { describeFailure, noticeFailure, success, type TranslatedFailure } from '@/api/useApi';
import { usePageHead } from '@/state/ui';
import { copyText, shareLink } from '@/telegram/share';
import { BackLink } from '@/ui/BackLink';
import { EmptyState } from '@/ui/blocks';
import { ConfirmDialog } from '@/ui/Dialog';
import { EditDialog } from './EditDialog';
import { Button, FormAlert, TextField } from '@/ui/form';
import { Screen, ScreenHeader } from '@/ui/Screen';
import { ArchiveIcon, CopyIcon, EditIcon, RestoreIcon, SendIcon, TrashIcon } from '@/ui/glyphs';
import { PeriodTabs } from './StageResults';
// Its own styles: opened by its address (a reload, a shared link) no other funnel screen has loaded them.
import './funnels.css';

const NO_ERRORS: TranslatedFailure = { fields: {}, messages: [] };

export function SourcesScreen({
  funnel,
  sources,
  stages,
  stats,
  onPeriod,
}: {
  funnel: Funnel;
  sources: FunnelSource[];
  stages: Stage[];
  stats: SourceStats;
  onPeriod: (period: StatsPeriod) => void;
}) {
  const { t } = useTranslation();
  usePageHead(t('funnels.sources.title'));
  const [name, setName] = useState('');
  const [errors, setErrors] = useState<TranslatedFailure>(NO_ERRORS);
  const [renaming, setRenaming] = useState<FunnelSource | null>(null);
  const [deleting, setDeleting] = useState<FunnelSource | null>(null);
  const active = sources.filter((s) => !s.archived);
  const archived = sources.filter((s) => s.archived);

  async function add(event: FormEvent) {
    event.preventDefault();
    if (!name.trim()) return setErrors({ fields: { name: [t('funnels.serverErrors.blank')] }, messages: [] });
    const result = await runChange(() => createSource(funnel.id, { name: name.trim() }));
    if (!result.ok) return setErrors(describeFailure(result.failure, ['name']));
    setErrors(NO_ERRORS);
    setName('');
    success(t('funnels.sources.added'));
  }

  async function setArchived(source: FunnelSource, on: boolean) {
    const result = await runChange(() => updateSource(funnel.id, source.id, { archived: on }));
    if (!result.ok) return noticeFailure(result.failure);
    success(t(on ? 'funnels.sources.archived' : 'funnels.sources.restored'));
  }

  async function remove(source: FunnelSource) {
    setDeleting(null);
    const result = await runChange(() => deleteSource(funnel.id, source.id));
    if (!result.ok) return noticeFailure(result.failure);
    success(t('funnels.sources.deleted'));
  }

  return (
    <Screen>
      <ScreenHeader
        title={t('funnels.sources.title')}
        subtitle={t('funnels.sources.subtitle')}
        back={<BackLink to="/content/funnels/$funnelId/" params={{ funnelId: String(funnel.id) }} label={t('common.back')} />}
      />

      {funnel.bot_username === null ? (
        <p className="section-footer section-footer--warning" data-testid="sources-no-bot">
          {t('funnels.sources.noBot')}
        </p>
      ) : null}

      {sources.length === 0 ? (
        <EmptyState icon={<SendIcon />} title={t('funnels.sources.emptyTitle')}>
          <p>{t('funnels.sources.emptyText')}</p>
        </EmptyState>
      ) : (
        <>
          <SourceList sources={active} onRename={setRenaming} onArchive={(s) => void setArchived(s, true)} onDelete={setDeleting} />
          {archived.length > 0 ? (
            <section className="section-block">
              <h2 className="section-title">{t('funnels.sources.archivedTitle')}</h2>
              <SourceList sources={archived} onRename={setRenaming} onRestore={(s) => void setArchived(s, false)} onDelete={setDeleting} />
            </section>
          ) : null}
        </>
      )}

      <section className="section-block">
        <h2 className="section-title">{t('funnels.sources.addTitle')}</h2>
        <form className="form" onSubmit={(event) => void add(event)} noValidate>
          <FormAlert messages={errors.messages} />
          <TextField
            label={t('funnels.sources.nameLabel')}
            value={name}
            maxLength={SOURCE_NAME_MAX}
            placeholder={t('funnels.sources.namePlaceholder')}
            onChange={(event) => setName(event.target.value)}
            errors={errors.fields.name}
            autoComplete="off"
            data-testid="source-name"
          />
          <Button type="submit">{t('funnels.sources.add')}</Button>
        </form>
      </section>

      {sources.length > 0 ? (
        <section className="section-block" aria-label={t('funnels.sources.resultsTitle')}>
          <h2 className="section-title">{t('funnels.sources.resultsTitle')}</h2>
          <PeriodTabs period={stats.period} onChange={onPeriod} />
          <SourceResults stats={stats} stages={stages} />
        </section>
      ) : null}

      {renaming ? <RenameSourceDialog funnelId={funnel.id} source={renaming} onDone={() => setRenaming(null)} /> : null}
      {deleting ? (
        <ConfirmDialog
          title={t('funnels.sources.deleteConfirmTitle', { name: deleting.name })}
          confirmLabel={t('funnels.sources.delete')}
          cancelLabel={t('funnels.common.cancel')}
          destructive
          onConfirm={() => void remove(deleting)}
          onCancel={() => setDeleting(null)}
        >
          <p>{t('funnels.sources.deleteConfirmText', { count: deleting.people_count })}</p>
        </ConfirmDialog>
      ) : null}
    </Screen>
  );
}

function SourceList({
  sources,
  onRename,
  onArchive,
  onRestore,
  onDelete,
}: {
  sources: FunnelSource[];
  onRename: (source: FunnelSource) => void;
  onArchive?: (source: FunnelSource) => void;
  onRestore?: (source: FunnelSource) => void;
  onDelete: (source: FunnelSource) => void;
}) {
  const { t } = useTranslation();

  async function copy(link: string) {
    if (await copyText(link)) success(t('funnels.share.copied'));
    else window.prompt(t('funnels.sources.copy'), link); // no clipboard (an old WebView): copy by hand
  }

  async function share(link: string) {
    const outcome = await shareLink(link, t('funnels.share.shareText'));
    if (outcome === 'copied') success(t('funnels.share.copied'));
    else if (outcome === 'failed') window.prompt(t('funnels.sources.copy'), link);
  }

  return (
    <ul className="section source-list">
      {sources.map((source) => (
        <li key={source.id} className="source-item" data-testid="source-row">
          <div className="source-head">
            <span className="row-title" data-testid="source-name-text">
              {source.name}
            </span>
            <span className="row-description">{t('funnels.sources.people', { count: source.people_count })}</span>
          </div>
          {source.link ? (
            <code className="source-link" data-testid="source-link">
              {source.link}
            </code>
          ) : (
            <p className="row-description">{t('funnels.sources.linkLater')}</p>
          )}
          <div className="source-actions">
            {source.link ? (
              <>
                <button type="button" className="button button--small" onClick={() => void copy(source.link!)} data-testid="source-copy">
                  <CopyIcon aria-hidden="true" />
                  {t('funnels.sources.copy')}
                </button>
                <button type="button" className="button button--small" onClick={() => void share(source.link!)} data-testid="source-share">
                  <SendIcon aria-hidden="true" />
                  {t('funnels.sources.share')}
                </button>
              </>
            ) : null}
            <button type="button" className="icon-button" aria-label={t('funnels.sources.rename', { name: source.name })} onClick={() => onRename(source)}>
              <EditIcon />
            </button>
            {onArchive ? (
              <button type="button" className="icon-button" aria-label={t('funnels.sources.archive', { name: source.name })} onClick={() => onArchive(source)}>
                <ArchiveIcon />
              </button>
            ) : null}
            {onRestore ? (
              <button type="button" className="icon-button" aria-label={t('funnels.sources.restore', { name: source.name })} onClick={() => onRestore(source)}>
                <RestoreIcon />
              </button>
            ) : null}
            <button type="button" className="icon-button icon-button--danger" aria-label={t('funnels.sources.deleteNamed', { name: source.name })} onClick={() => onDelete(source)}>
              <TrashIcon />
            </button>
          </div>
        </li>
      ))}
    </ul>
  );
}

/** Per source: people who joined by it in the period, how many of them reached each stage, payments. */
function SourceResults({ stats, stages }: { stats: SourceStats; stages: Stage[] }) {
  const { t } = useTranslation();
  const titleOf = new Map(stages.map((s, index) => [s.id, `${index + 1}. ${s.title}`]));
  return (
    <ul className="section source-results">
      {stats.sources.map((row) => (
        <li key={row.id ?? 'none'} className="source-result" data-testid="source-result">
          <div className="source-head">
            <span className="row-title" data-testid="source-result-name">
              {row.id === null ? t('funnels.sources.noSource') : row.name}
            </span>
            <span className="source-result-people" data-testid="source-result-people">
              {t('funnels.sources.people', { count: row.people })}
            </span>
          </div>
          <dl className="source-result-figures">
            {row.reached.map((r) => (
              <div key={r.stage_id}>
                <dt>{titleOf.get(r.stage_id) ?? t('funnels.person.deletedStage')}</dt>
                <dd data-testid="source-result-reached">{r.count}</dd>
              </div>
            ))}
            <div>
              <dt>{t('funnels.sources.paid')}</dt>
              <dd data-testid="source-result-paid">{row.paid}</dd>
            </div>
            <div>
              <dt>{t('funnels.sources.revenue')}</dt>
              {/* In Stars, as every other revenue figure (a bare "50" read as a count). */}
              <dd data-testid="source-result-revenue">{t('funnels.payments.stars', { amount: row.revenue })}</dd>
            </div>
          </dl>
        </li>
      ))}
    </ul>
  );
}

function RenameSourceDialog({ funnelId, source, onDone }: { funnelId: number; source: FunnelSource; onDone: () => void }) {
  const { t } = useTranslation();
  const [name, setName] = useState(source.name);
  const [errors, setErrors] = useState<TranslatedFailure>(NO_ERRORS);

  async function save() {
    if (!name.trim()) return setErrors({ fields: { name: [t('funnels.serverErrors.blank')] }, messages: [] });
    const result = await runChange(() => updateSource(funnelId, source.id, { name: name.trim() }));
    if (!result.ok) return setErrors(describeFailure(result.failure, ['name']));
    onDone();
    success(t('funnels.sources.saved'));
  }

  return (
    <EditDialog title={t('funnels.sources.renameTitle')} errors={errors} onSave={save} onCancel={onDone}>
      <TextField
        label={t('funnels.sources.nameLabel')}
        value={name}
        maxLength={SOURCE_NAME_MAX}
        autoFocus
        onChange={(event) => {
          setName(event.target.value);
          setErrors(NO_ERRORS);
        }}
        errors={errors.fields.name}
        autoComplete="off"
      />
    </EditDialog>
  );
}
