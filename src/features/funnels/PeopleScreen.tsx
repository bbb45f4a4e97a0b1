// /content/funnels/$funnelId/people/: everyone who pressed Start on the funnel's bot, newest
// first: a search by name or username, filters by stage (or "no stage", for people whose stage was
// deleted) and by tag, and pages of 50. The search and filters are part of the address, so Back
// from a person comes back to the same list.
import { Link } from '@tanstack/react-router';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { Funnel, PeoplePage, Stage, Tag } from '../../../contract/funnels';
import type { FunnelField } from '../../../contract/fields';
import type { FunnelSource } from '../../../contract/sources';
import { usePageHead } from '@/state/ui';
import { BackLink } from '@/ui/BackLink';
import { EmptyState, RowContent } from '@/ui/blocks';
import { UsersIcon } from '@/ui/icons';
import { Screen, ScreenHeader } from '@/ui/Screen';
import { useSearchBox } from '@/ui/useSearchBox';
import { useWideLayout } from '@/ui/useWideLayout';
import { FieldFilter, FieldValueChips } from '@/ui/FieldFilter';
import { SourceSelect } from '@/ui/SourceSelect';
import { personName, TagChip } from './parts';
import { PeopleTable } from './PeopleTable';

export const PEOPLE_PAGE = 50;

export interface PeopleFilters {
  q?: string;
  stage?: number | 'none';
  tag?: number;
  source?: number | 'none';
  field?: number;
  field_value?: string;
  page?: number;
}

export function PeopleScreen({
  funnel,
  stages,
  tags,
  sources,
  fields = [],
  people,
  filters,
  onFilters,
}: {
  funnel: Funnel;
  stages: Stage[];
  tags: Tag[];
  sources: FunnelSource[];
  /** The funnel's fields: a filter, and each person's values on their row. */
  fields?: FunnelField[];
  people: PeoplePage;
  filters: PeopleFilters;
  /** The route puts them in the address (and loads the list again). */
  onFilters: (filters: PeopleFilters) => void;
}) {
  const { t } = useTranslation();
  usePageHead(t('funnels.people.title'));
  const ids = useId();
  const wide = useWideLayout();
  const page = filters.page ?? 1;
  const pages = Math.max(1, Math.ceil(people.count / PEOPLE_PAGE));
  const stageById = new Map(stages.map((s) => [s.id, s]));
  const tagById = new Map(tags.map((tag) => [tag.id, tag]));
  const filtered = Boolean(filters.q || filters.stage || filters.tag || filters.source || filters.field);
  const fieldById = new Map(fields.map((field) => [field.id, field]));
  const sourceById = new Map(sources.map((source) => [source.id, source]));

  const setFilters = (next: PeopleFilters) => onFilters({ ...filters, ...next, page: next.page && next.page > 1 ? next.page : undefined });
  const [query, setQuery] = useSearchBox(filters.q, (q) => setFilters({ q, page: 1 }));

  return (
    <Screen wide>
      <ScreenHeader
        title={t('funnels.people.title')}
        subtitle={`${funnel.name} · ${t('funnels.people.subtitle')}`}
        back={<BackLink to="/content/funnels/$funnelId/" params={{ funnelId: String(funnel.id) }} label={funnel.name} />}
      />
      <div className="people-filters">
        <input
          className="field-input"
          type="search"
          value={query}
          placeholder={t('funnels.people.search')}
          aria-label={t('funnels.people.search')}
          maxLength={100}
          onChange={(event) => setQuery(event.target.value)}
          data-testid="people-search"
        />
        <div className="people-selects">
          <select
            id={`${ids}-stage`}
            className="field-input field-select"
            aria-label={t('funnels.people.stage')}
            value={filters.stage ?? ''}
            onChange={(event) => setFilters({ stage: event.target.value === 'none' ? 'none' : event.target.value ? Number(event.target.value) : undefined, page: 1 })}
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
          >
            <option value="">{t('funnels.people.anyTag')}</option>
            {tags.map((tag) => (
              <option key={tag.id} value={tag.id}>
                {tag.title}
              </option>
            ))}
          </select>
          {sources.length > 0 ? (
            <SourceSelect
              sources={sources}
              value={String(filters.source ?? '')}
              onChange={(source) => setFilters({ source: source === 'none' ? 'none' : source ? Number(source) : undefined, page: 1 })}
              testId="people-source"
            />
          ) : null}
          {fields.length > 0 ? (
            <FieldFilter
              fields={fields}
              value={{ field: filters.field, field_value: filters.field_value }}
              onChange={(next) => setFilters({ ...next, page: 1 })}
              testId="people-filter"
            />
          ) : null}
        </div>
      </div>

      <section className="section-block">
        <h2 className="section-title" data-testid="people-count">
          {t('funnels.people.found', { count: people.count })}
        </h2>
        {people.results.length === 0 ? (
          <div className="section">
            <EmptyState icon={<UsersIcon />} title={filtered ? t('funnels.people.nothingTitle') : t('funnels.people.emptyTitle')}>
              <p>{filtered ? t('funnels.people.nothingText') : t('funnels.people.emptyText')}</p>
              {filtered ? (
                <button
                  type="button"
                  className="button button--secondary button--small"
                  onClick={() => {
                    setQuery('');
                    onFilters({});
                  }}
                >
                  {t('funnels.people.clear')}
                </button>
              ) : null}
            </EmptyState>
          </div>
        ) : wide ? (
          <PeopleTable people={people.results} stages={stages} tags={tags} sources={sources} fields={fields} />
        ) : (
          <div className="section">
            {people.results.map((person) => {
              const stage = person.stage_id === null ? undefined : stageById.get(person.stage_id);
              return (
                <Link key={person.id} to="/content/people/$personId/" params={{ personId: String(person.id) }} search={{ from: 'people' }} className="row" data-testid="person-row">
                  <RowContent
                    icon={<span className="person-avatar" aria-hidden="true">{personName(person).charAt(0).toUpperCase()}</span>}
                    title={personName(person)}
                    description={
                      <span className="person-row-meta">
                        {person.username ? <span>@{person.username}</span> : null}
                        <span className="person-row-stage">
                          {stage ? <span className="person-row-dot" style={{ background: stage.color }} aria-hidden="true" /> : null}
                          {stage ? stage.title : t('funnels.people.noStage')}
                        </span>
                        {person.source_id !== null && sourceById.has(person.source_id) ? (
                          <span className="person-row-source" data-testid="person-row-source">
                            {sourceById.get(person.source_id)!.name}
                          </span>
                        ) : null}
                        <FieldValueChips
                          values={person.field_values.flatMap((item) => {
                            const field = fieldById.get(item.field_id);
                            return field ? [{ title: field.title, value: item.value }] : [];
                          })}
                        />
                        {person.blocked ? <span className="person-blocked">{t('funnels.person.blocked')}</span> : null}
                        {person.tag_ids.map((id) => {
                          const tag = tagById.get(id);
                          return tag ? <TagChip key={id} tag={tag} /> : null;
                        })}
                      </span>
                    }
                  />
                </Link>
              );
            })}
          </div>
        )}
        {pages > 1 ? (
          <nav className="pager" aria-label={t('funnels.people.pageOf', { page, pages })}>
            <button type="button" className="button button--secondary button--small" disabled={page <= 1} onClick={() => setFilters({ page: page - 1 })}>
              {t('funnels.people.prev')}
            </button>
            <span className="pager-text" data-testid="people-page">
              {t('funnels.people.pageOf', { page, pages })}
            </span>
            <button type="button" className="button button--secondary button--small" disabled={page >= pages} onClick={() => setFilters({ page: page + 1 })}>
              {t('funnels.people.next')}
            </button>
          </nav>
        ) : null}
      </section>
    </Screen>
  );
}
