// /content/contacts/: everyone who pressed Start on any of the user's bots, newest first — a
// search by name or username; filters by funnel, then its stage, tag and source, blocked, and the day they
// joined, their CRM folder and a list; pages of 50; the people picked on the page tagged or untagged
// (a funnel's tag, so a funnel is chosen first), added to a static list or taken out of it; the
// filter saved as a live segment; and the filtered list as a CSV file. The filters are part of
// the address.
import { Link, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ContactsFilter, ContactsPage, ContactsQuery, ContactsSearch } from '../../../contract/contacts';
import { LIST_NAME_MAX, type ContactList, type FolderSummary } from '../../../contract/crm';
import type { Funnel, Stage, Tag } from '../../../contract/funnels';
import type { FunnelField } from '../../../contract/fields';
import type { FunnelSource } from '../../../contract/sources';
import { ROUTES } from '../../../contract/routes';
import { runChange, runRead } from '@/api/action';
import { bulkTag, exportContacts } from '@/api/contacts';
import { addListMembers, createList, removeListMembers } from '@/api/crm';
import { noticeFailure, success } from '@/api/useApi';
import { usePageHead } from '@/state/ui';
import { BackLink } from '@/ui/BackLink';
import { EmptyState, RowContent } from '@/ui/blocks';
import { ConfirmDialog } from '@/ui/Dialog';
import { DateField } from '@/ui/DateTimeField';
import { Button, TextField } from '@/ui/form';
import { UsersIcon } from '@/ui/icons';
import { Screen, ScreenHeader } from '@/ui/Screen';
import { useSearchBox } from '@/ui/useSearchBox';
import { useWideLayout } from '@/ui/useWideLayout';
import { FieldFilter, FieldValueChips } from '@/ui/FieldFilter';
import { SourceSelect } from '@/ui/SourceSelect';
import { ContactsTable } from './ContactsTable';
import './contacts.css';

export const CONTACTS_PAGE = 50;

/** The API's query for the contacts the search picks: a page of them, or all of them (the CSV). */
export function contactsQuery({ page = 1, ...query }: ContactsSearch, paged = true): ContactsQuery {
  return paged ? { ...query, limit: CONTACTS_PAGE, offset: (page - 1) * CONTACTS_PAGE } : query;
}

/** The filters saved as a segment: all but the list shown and the page (a segment never names a list). */
export function segmentFilter({ list: _list, page: _page, ...filter }: ContactsSearch): ContactsFilter {
  return filter;
}

export function ContactsScreen({
  contacts,
  funnels,
  folders = [],
  lists = [],
  stages,
  tags,
  sources = [],
  fields = [],
  filters,
  onFilters,
}: {
  contacts: ContactsPage;
  funnels: Funnel[];
  folders?: FolderSummary[];
  lists?: ContactList[];
  /** The chosen funnel's stages and tags (none until a funnel is chosen). */
  stages: Stage[];
  tags: Tag[];
  /** The chosen funnel's sources (none until a funnel is chosen). */
  sources?: FunnelSource[];
  /** The chosen funnel's fields (none until a funnel is chosen: a field belongs to one funnel). */
  fields?: FunnelField[];
  filters: ContactsSearch;
  onFilters: (filters: ContactsSearch) => void;
}) {
  const { t } = useTranslation();
  usePageHead(t('contacts.title'));
  const [picked, setPicked] = useState<Set<number>>(new Set());
  const [bulkTagId, setBulkTagId] = useState<number | ''>('');
  const [bulkListId, setBulkListId] = useState<number | 'new' | ''>('');
  const [naming, setNaming] = useState<'segment' | 'static' | null>(null);
  const [listName, setListName] = useState('');
  const [listFolder, setListFolder] = useState<number | ''>('');
  /** A list from the filter: live (a segment) or the people matching now (static). */
  const [live, setLive] = useState(true);
  const [busy, setBusy] = useState(false);
  const navigate = useNavigate();
  const wide = useWideLayout();
  const staticLists = lists.filter((l) => l.kind === 'static');
  const currentList = lists.find((l) => l.id === filters.list);
  const page = filters.page ?? 1;
  const pages = Math.max(1, Math.ceil(contacts.count / CONTACTS_PAGE));
  const filtered = Object.entries(filters).some(([key, value]) => key !== 'page' && value !== undefined);
  const setFilters = (next: ContactsSearch) => {
    setPicked(new Set());
    onFilters({ ...filters, ...next, page: next.page && next.page > 1 ? next.page : undefined });
  };
  const [query, setQuery] = useSearchBox(filters.search, (search) => setFilters({ search, page: 1 }));

  function toggle(id: number) {
    pick([id], !picked.has(id));
  }

  /** Picks the people (on) or leaves them out; the table's header box does a whole page at once. */
  function pick(ids: number[], on: boolean) {
    const next = new Set(picked);
    for (const id of ids) {
      if (on) next.add(id);
      else next.delete(id);
    }
    setPicked(next);
  }

  async function tagPicked(action: 'add' | 'remove') {
    if (bulkTagId === '' || picked.size === 0) return;
    setBusy(true);
    const result = await runChange(() => bulkTag({ person_ids: [...picked], tag_id: bulkTagId, action }));
    setBusy(false);
    if (!result.ok) return noticeFailure(result.failure);
    success(t(action === 'add' ? 'contacts.tagged' : 'contacts.untagged', { count: result.value.changed }));
    setPicked(new Set());
  }

  async function toList(listId: number, action: 'add' | 'remove') {
    if (picked.size === 0) return;
    setBusy(true);
    const result = await runChange(() => (action === 'add' ? addListMembers(listId, [...picked]) : removeListMembers(listId, [...picked])));
    setBusy(false);
    if (!result.ok) return noticeFailure(result.failure);
    success(t(action === 'add' ? 'crm.lists.added' : 'crm.lists.removed', { count: result.value.changed }));
    setPicked(new Set());
  }

  function startNaming(kind: 'segment' | 'static') {
    setListName('');
    setListFolder(filters.folder ?? '');
    setLive(true);
    setNaming(kind);
  }

  /** Saves the filter as a live segment, or the picked people as a new static list; opens it. */
  async function saveList() {
    if (!naming || !listName.trim()) return;
    setBusy(true);
    const fromFilter = naming === 'segment';
    const result = await runChange(() =>
      createList({
        name: listName.trim(),
        kind: fromFilter && live ? 'segment' : 'static',
        folder_id: listFolder === '' ? null : listFolder,
        ...(fromFilter ? { filter: segmentFilter(filters) } : { person_ids: [...picked] }),
      }),
    );
    setBusy(false);
    if (!result.ok) return noticeFailure(result.failure);
    setNaming(null);
    success(t('crm.lists.saved', { name: result.value.name }));
    await navigate({ to: '/content/lists/$listId/', params: { listId: String(result.value.id) } });
  }

  async function download() {
    setBusy(true);
    const result = await runRead(() => exportContacts(contactsQuery(filters, false)));
    setBusy(false);
    if (!result.ok) return noticeFailure(result.failure);
    const url = URL.createObjectURL(result.value);
    const link = document.createElement('a');
    link.href = url;
    link.download = `contacts-${new Date().toISOString().slice(0, 10)}.csv`;
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  }

  return (
    <Screen wide>
      <ScreenHeader title={t('contacts.title')} subtitle={t('contacts.subtitle')} back={<BackLink to={ROUTES.panel} label={t('common.back')} />} />
      <div className="people-filters contacts-filters">
        <input
          className="field-input"
          type="search"
          value={query}
          placeholder={t('contacts.search')}
          aria-label={t('contacts.search')}
          maxLength={100}
          onChange={(event) => setQuery(event.target.value)}
          data-testid="contacts-search"
        />
        <div className="people-selects">
          <select
            className="field-input field-select"
            aria-label={t('contacts.funnel')}
            value={filters.funnel ?? ''}
            onChange={(event) => setFilters({ funnel: event.target.value ? Number(event.target.value) : undefined, stage: undefined, tag: undefined, source: undefined, field: undefined, field_value: undefined, page: 1 })}
            data-testid="contacts-funnel"
          >
            <option value="">{t('contacts.anyFunnel')}</option>
            {funnels.map((funnel) => (
              <option key={funnel.id} value={funnel.id}>
                {funnel.name}
              </option>
            ))}
          </select>
          <select
            className="field-input field-select"
            aria-label={t('contacts.blocked')}
            value={filters.blocked === undefined ? '' : String(filters.blocked)}
            onChange={(event) => setFilters({ blocked: event.target.value ? event.target.value === 'true' : undefined, page: 1 })}
            data-testid="contacts-blocked"
          >
            <option value="">{t('contacts.anyone')}</option>
            <option value="false">{t('contacts.notBlocked')}</option>
            <option value="true">{t('contacts.onlyBlocked')}</option>
          </select>
        </div>
        {folders.length > 0 || lists.length > 0 ? (
          <div className="people-selects">
            {folders.length > 0 ? (
              <select
                className="field-input field-select"
                aria-label={t('crm.folders.folder')}
                value={filters.folder ?? ''}
                onChange={(event) => setFilters({ folder: event.target.value ? Number(event.target.value) : undefined, page: 1 })}
                data-testid="contacts-folder"
              >
                <option value="">{t('crm.folders.anyFolder')}</option>
                {folders.map((folder) => (
                  <option key={folder.id} value={folder.id}>
                    {folder.name}
                  </option>
                ))}
              </select>
            ) : null}
            {lists.length > 0 ? (
              <select
                className="field-input field-select"
                aria-label={t('crm.lists.list')}
                value={filters.list ?? ''}
                onChange={(event) => setFilters({ list: event.target.value ? Number(event.target.value) : undefined, page: 1 })}
                data-testid="contacts-list"
              >
                <option value="">{t('crm.lists.anyList')}</option>
                {lists.map((list) => (
                  <option key={list.id} value={list.id}>
                    {list.name}
                  </option>
                ))}
              </select>
            ) : null}
          </div>
        ) : null}
        {filters.funnel !== undefined ? (
          <div className="people-selects">
            <select
              className="field-input field-select"
              aria-label={t('funnels.people.stage')}
              value={filters.stage ?? ''}
              onChange={(event) => setFilters({ stage: event.target.value || undefined, page: 1 })}
              data-testid="contacts-stage"
            >
              <option value="">{t('funnels.people.anyStage')}</option>
              {stages.map((stage, index) => (
                <option key={stage.id} value={stage.id}>
                  {index + 1}. {stage.title}
                </option>
              ))}
              <option value="none">{t('funnels.people.noStage')}</option>
            </select>
            <select
              className="field-input field-select"
              aria-label={t('funnels.people.tag')}
              value={filters.tag ?? ''}
              onChange={(event) => setFilters({ tag: event.target.value ? Number(event.target.value) : undefined, page: 1 })}
              data-testid="contacts-tag"
            >
              <option value="">{t('funnels.people.anyTag')}</option>
              {tags.map((tag) => (
                <option key={tag.id} value={tag.id}>
                  {tag.title}
                </option>
              ))}
            </select>
            {sources.length > 0 ? (
              <SourceSelect sources={sources} value={filters.source ?? ''} onChange={(source) => setFilters({ source: source || undefined, page: 1 })} testId="contacts-source" />
            ) : null}
            {fields.length > 0 ? (
              <FieldFilter fields={fields} value={{ field: filters.field, field_value: filters.field_value }} onChange={(next) => setFilters({ ...next, page: 1 })} testId="contacts-filter" />
            ) : null}
          </div>
        ) : null}
        <div className="people-selects">
          <label className="contacts-date">
            <span>{t('contacts.joinedFrom')}</span>
            <DateField className="field-input" value={filters.joined_from ?? ''} onChange={(date) => setFilters({ joined_from: date || undefined, page: 1 })} data-testid="contacts-from" />
          </label>
          <label className="contacts-date">
            <span>{t('contacts.joinedTo')}</span>
            <DateField className="field-input" value={filters.joined_to ?? ''} onChange={(date) => setFilters({ joined_to: date || undefined, page: 1 })} data-testid="contacts-to" />
          </label>
        </div>
      </div>

      <section className="section-block">
        <div className="contacts-head">
          <h2 className="section-title" data-testid="contacts-count">
            {t('funnels.people.found', { count: contacts.count })}
          </h2>
          <span className="contacts-actions">
            {filtered && filters.list === undefined ? (
              <Button variant="secondary" className="button--small" onClick={() => startNaming('segment')} disabled={busy} data-testid="save-segment">
                {t('crm.lists.saveFilter')}
              </Button>
            ) : null}
            <Button variant="secondary" className="button--small" onClick={() => void download()} disabled={busy || contacts.count === 0} data-testid="contacts-csv">
              {t('contacts.csv')}
            </Button>
          </span>
        </div>
        {currentList ? (
          <p className="section-footer">
            <Link to="/content/lists/$listId/" params={{ listId: String(currentList.id) }} className="link" data-testid="open-list">
              {t('crm.lists.openList', { name: currentList.name })}
            </Link>
          </p>
        ) : null}
        {contacts.results.length === 0 ? (
          <div className="section">
            <EmptyState icon={<UsersIcon />} title={filtered ? t('funnels.people.nothingTitle') : t('contacts.emptyTitle')}>
              <p>{filtered ? t('funnels.people.nothingText') : t('contacts.emptyText')}</p>
              {filtered ? (
                <button
                  type="button"
                  className="button button--secondary button--small"
                  onClick={() => {
                    setQuery('');
                    setPicked(new Set());
                    onFilters({});
                  }}
                >
                  {t('funnels.people.clear')}
                </button>
              ) : null}
            </EmptyState>
          </div>
        ) : wide ? (
          <ContactsTable contacts={contacts.results} picked={picked} onPick={pick} fields={fields} />
        ) : (
          <div className="section">
            {contacts.results.map((contact) => {
              const name = `${contact.first_name} ${contact.last_name}`.trim() || (contact.username ? `@${contact.username}` : String(contact.telegram_id));
              return (
                <div key={contact.id} className="contact-row" data-testid="contact-row">
                  <input type="checkbox" className="contact-pick" checked={picked.has(contact.id)} onChange={() => toggle(contact.id)} aria-label={t('contacts.pick', { name })} />
                  <Link to="/content/people/$personId/" params={{ personId: String(contact.id) }} search={{ from: 'contacts' }} className="row">
                    <RowContent
                      icon={<span className="person-avatar" aria-hidden="true">{name.charAt(0).toUpperCase()}</span>}
                      title={name}
                      description={
                        <span className="person-row-meta">
                          <span>{contact.funnel_name}</span>
                          {contact.username ? <span>@{contact.username}</span> : null}
                          <span>{contact.stage_title ?? t('funnels.people.noStage')}</span>
                          {contact.source_name ? <span className="contact-row-source">{contact.source_name}</span> : null}
                          <FieldValueChips values={contact.fields} />
                          {contact.blocked ? <span className="person-blocked">{t('funnels.person.blocked')}</span> : null}
                          {contact.tags.map((tag) => (
                            <span key={tag.id} className="tag-chip" style={{ ['--tag-color' as string]: tag.color }}>
                              <span className="tag-chip-dot" aria-hidden="true" />
                              {tag.title}
                            </span>
                          ))}
                        </span>
                      }
                    />
                  </Link>
                </div>
              );
            })}
          </div>
        )}
        {contacts.count > 0 ? <p className="section-footer">{filters.funnel === undefined ? t('contacts.pickHint') : t('crm.lists.pickHint')}</p> : null}
        {pages > 1 ? (
          <nav className="pager" aria-label={t('funnels.people.pageOf', { page, pages })}>
            <button type="button" className="button button--secondary button--small" disabled={page <= 1} onClick={() => setFilters({ page: page - 1 })}>
              {t('funnels.people.prev')}
            </button>
            <span className="pager-text">{t('funnels.people.pageOf', { page, pages })}</span>
            <button type="button" className="button button--secondary button--small" disabled={page >= pages} onClick={() => setFilters({ page: page + 1 })}>
              {t('funnels.people.next')}
            </button>
          </nav>
        ) : null}
      </section>

      {picked.size > 0 ? (
        <div className="contacts-bulk" data-testid="contacts-bulk">
          <span>{t('contacts.picked', { count: picked.size })}</span>
          {filters.funnel !== undefined ? (
            <>
              <select className="field-input field-select" aria-label={t('contacts.bulkTag')} value={bulkTagId} onChange={(event) => setBulkTagId(event.target.value ? Number(event.target.value) : '')} data-testid="bulk-tag">
                <option value="">{t('contacts.chooseTag')}</option>
                {tags.map((tag) => (
                  <option key={tag.id} value={tag.id}>
                    {tag.title}
                  </option>
                ))}
              </select>
              <Button className="button--small" disabled={busy || bulkTagId === ''} onClick={() => void tagPicked('add')} data-testid="bulk-add">
                {t('contacts.addTag')}
              </Button>
              <Button variant="secondary" className="button--small" disabled={busy || bulkTagId === ''} onClick={() => void tagPicked('remove')} data-testid="bulk-remove">
                {t('contacts.removeTag')}
              </Button>
            </>
          ) : null}
          <select
            className="field-input field-select"
            aria-label={t('crm.lists.addToList')}
            value={bulkListId}
            onChange={(event) => setBulkListId(event.target.value === 'new' ? 'new' : event.target.value ? Number(event.target.value) : '')}
            data-testid="bulk-list"
          >
            <option value="">{t('crm.lists.chooseList')}</option>
            {staticLists.map((list) => (
              <option key={list.id} value={list.id}>
                {list.name}
              </option>
            ))}
            <option value="new">{t('crm.lists.newList')}</option>
          </select>
          <Button
            className="button--small"
            disabled={busy || bulkListId === ''}
            onClick={() => (bulkListId === 'new' ? startNaming('static') : bulkListId !== '' ? void toList(bulkListId, 'add') : undefined)}
            data-testid="bulk-list-add"
          >
            {t('crm.lists.addToList')}
          </Button>
          {currentList?.kind === 'static' ? (
            <Button variant="secondary" className="button--small" disabled={busy} onClick={() => void toList(currentList.id, 'remove')} data-testid="bulk-list-remove">
              {t('crm.lists.removeFromList')}
            </Button>
          ) : null}
        </div>
      ) : null}

      {naming ? (
        <ConfirmDialog
          title={naming === 'segment' ? t('crm.lists.saveFilter') : t('crm.lists.newList')}
          confirmLabel={t('crm.lists.save')}
          cancelLabel={t('funnels.common.cancel')}
          confirmDisabled={busy || !listName.trim()}
          onConfirm={() => void saveList()}
          onCancel={() => setNaming(null)}
        >
          {naming === 'segment' ? (
            <fieldset className="list-kind">
              <legend className="visually-hidden">{t('crm.lists.kind')}</legend>
              <label className="list-kind-option">
                <input type="radio" name="list-kind" checked={live} onChange={() => setLive(true)} data-testid="list-kind-segment" />
                <span>
                  <strong>{t('crm.lists.segment')}</strong>
                  <span>{t('crm.lists.segmentText', { count: contacts.count })}</span>
                </span>
              </label>
              <label className="list-kind-option">
                <input type="radio" name="list-kind" checked={!live} onChange={() => setLive(false)} data-testid="list-kind-static" />
                <span>
                  <strong>{t('crm.lists.static')}</strong>
                  <span>{t('crm.lists.snapshotText', { count: contacts.count })}</span>
                </span>
              </label>
            </fieldset>
          ) : (
            <p>{t('crm.lists.staticText', { count: picked.size })}</p>
          )}
          <TextField label={t('crm.lists.name')} value={listName} maxLength={LIST_NAME_MAX} onChange={(event) => setListName(event.target.value)} data-testid="list-name" />
          {folders.length > 0 ? (
            <label className="field">
              <span className="field-label">{t('crm.folders.folder')}</span>
              <select className="field-input field-select" value={listFolder} onChange={(event) => setListFolder(event.target.value ? Number(event.target.value) : '')} data-testid="list-folder">
                <option value="">{t('crm.folders.noFolder')}</option>
                {folders.map((folder) => (
                  <option key={folder.id} value={folder.id}>
                    {folder.name}
                  </option>
                ))}
              </select>
            </label>
          ) : null}
        </ConfirmDialog>
      ) : null}
    </Screen>
  );
}
