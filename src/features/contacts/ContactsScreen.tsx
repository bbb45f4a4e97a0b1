// /content/contacts/: everyone who pressed Start on any of the user's bots, newest first — a
// search by name or username; filters by funnel, then its stage and tag, blocked, and the day they
// joined; pages of 50; tag or untag the people picked on the page (a funnel's tag, so a funnel is
// chosen first); and the filtered list as a CSV file. The filters are part of the address.
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ContactsPage, ContactsQuery } from '../../../contract/contacts';
import type { Funnel, Stage, Tag } from '../../../contract/funnels';
import { ROUTES } from '../../../contract/routes';
import { runApiAction } from '@/api/action';
import { bulkTag, exportContacts } from '@/api/contacts';
import { noticeFailure, success, useRefresh } from '@/api/useApi';
import { usePageHead } from '@/state/ui';
import { BackLink } from '@/ui/BackLink';
import { EmptyState, RowContent } from '@/ui/blocks';
import { Button } from '@/ui/form';
import { UsersIcon } from '@/ui/icons';
import { Screen, ScreenHeader } from '@/ui/Screen';
import { useSearchBox } from '@/ui/useSearchBox';
import './contacts.css';

export const CONTACTS_PAGE = 50;

export interface ContactsFilters {
  q?: string;
  funnel?: number;
  stage?: number | 'none';
  tag?: number;
  blocked?: 'true' | 'false';
  from?: string;
  to?: string;
  page?: number;
}

/** The API's query for these filters (and page). */
export function contactsQuery(filters: ContactsFilters, paged = true): ContactsQuery {
  return {
    search: filters.q,
    funnel: filters.funnel === undefined ? undefined : String(filters.funnel),
    stage: filters.stage === undefined ? undefined : String(filters.stage),
    tag: filters.tag === undefined ? undefined : String(filters.tag),
    blocked: filters.blocked,
    joined_from: filters.from,
    joined_to: filters.to,
    ...(paged ? { limit: String(CONTACTS_PAGE), offset: String(((filters.page ?? 1) - 1) * CONTACTS_PAGE) } : {}),
  };
}

export function ContactsScreen({
  contacts,
  funnels,
  stages,
  tags,
  filters,
  onFilters,
}: {
  contacts: ContactsPage;
  funnels: Funnel[];
  /** The chosen funnel's stages and tags (none until a funnel is chosen). */
  stages: Stage[];
  tags: Tag[];
  filters: ContactsFilters;
  onFilters: (filters: ContactsFilters) => void;
}) {
  const { t } = useTranslation();
  usePageHead(t('contacts.title'));
  const refresh = useRefresh();
  const [picked, setPicked] = useState<Set<number>>(new Set());
  const [bulkTagId, setBulkTagId] = useState<number | ''>('');
  const [busy, setBusy] = useState(false);
  const page = filters.page ?? 1;
  const pages = Math.max(1, Math.ceil(contacts.count / CONTACTS_PAGE));
  const filtered = Object.entries(filters).some(([key, value]) => key !== 'page' && value !== undefined);
  const setFilters = (next: ContactsFilters) => {
    setPicked(new Set());
    onFilters({ ...filters, ...next, page: next.page && next.page > 1 ? next.page : undefined });
  };
  const [query, setQuery] = useSearchBox(filters.q, (q) => setFilters({ q, page: 1 }));


  function toggle(id: number) {
    const next = new Set(picked);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    setPicked(next);
  }

  async function tagPicked(action: 'add' | 'remove') {
    if (bulkTagId === '' || picked.size === 0) return;
    setBusy(true);
    const result = await runApiAction(() => bulkTag({ person_ids: [...picked], tag_id: bulkTagId, action }));
    setBusy(false);
    if (!result.ok) return noticeFailure(result.failure);
    success(t(action === 'add' ? 'contacts.tagged' : 'contacts.untagged', { count: result.value.changed }));
    setPicked(new Set());
    void refresh();
  }

  async function download() {
    setBusy(true);
    const result = await runApiAction(() => exportContacts(contactsQuery(filters, false)));
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
    <Screen>
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
            onChange={(event) => setFilters({ funnel: event.target.value ? Number(event.target.value) : undefined, stage: undefined, tag: undefined, page: 1 })}
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
            value={filters.blocked ?? ''}
            onChange={(event) => setFilters({ blocked: (event.target.value || undefined) as ContactsFilters['blocked'], page: 1 })}
            data-testid="contacts-blocked"
          >
            <option value="">{t('contacts.anyone')}</option>
            <option value="false">{t('contacts.notBlocked')}</option>
            <option value="true">{t('contacts.onlyBlocked')}</option>
          </select>
        </div>
        {filters.funnel !== undefined ? (
          <div className="people-selects">
            <select
              className="field-input field-select"
              aria-label={t('funnels.people.stage')}
              value={filters.stage ?? ''}
              onChange={(event) => setFilters({ stage: event.target.value === 'none' ? 'none' : event.target.value ? Number(event.target.value) : undefined, page: 1 })}
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
          </div>
        ) : null}
        <div className="people-selects">
          <label className="contacts-date">
            <span>{t('contacts.joinedFrom')}</span>
            <input className="field-input" type="date" value={filters.from ?? ''} onChange={(event) => setFilters({ from: event.target.value || undefined, page: 1 })} data-testid="contacts-from" />
          </label>
          <label className="contacts-date">
            <span>{t('contacts.joinedTo')}</span>
            <input className="field-input" type="date" value={filters.to ?? ''} onChange={(event) => setFilters({ to: event.target.value || undefined, page: 1 })} data-testid="contacts-to" />
          </label>
        </div>
      </div>

      <section className="section-block">
        <div className="contacts-head">
          <h2 className="section-title" data-testid="contacts-count">
            {t('funnels.people.found', { count: contacts.count })}
          </h2>
          <Button variant="secondary" className="button--small" onClick={() => void download()} disabled={busy || contacts.count === 0} data-testid="contacts-csv">
            {t('contacts.csv')}
          </Button>
        </div>
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
        ) : (
          <div className="section">
            {contacts.results.map((contact) => {
              const name = `${contact.first_name} ${contact.last_name}`.trim() || (contact.username ? `@${contact.username}` : String(contact.telegram_id));
              return (
                <div key={contact.id} className="contact-row" data-testid="contact-row">
                  {filters.funnel !== undefined ? (
                    <input type="checkbox" className="contact-pick" checked={picked.has(contact.id)} onChange={() => toggle(contact.id)} aria-label={t('contacts.pick', { name })} />
                  ) : null}
                  <Link to="/content/people/$personId/" params={{ personId: String(contact.id) }} className="row">
                    <RowContent
                      icon={<span className="person-avatar" aria-hidden="true">{name.charAt(0).toUpperCase()}</span>}
                      title={name}
                      description={
                        <span className="person-row-meta">
                          <span>{contact.funnel_name}</span>
                          {contact.username ? <span>@{contact.username}</span> : null}
                          <span>{contact.stage_title ?? t('funnels.people.noStage')}</span>
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
        {filters.funnel === undefined && contacts.count > 0 ? <p className="section-footer">{t('contacts.pickHint')}</p> : null}
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
        </div>
      ) : null}
    </Screen>
  );
}
