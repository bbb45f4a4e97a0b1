// A funnel's people as a table on a desktop-wide window (PeopleScreen shows cards on a phone).
import { useTranslation } from 'react-i18next';
import type { FunnelField } from '../../../contract/fields';
import type { PersonListItem, Stage, Tag } from '../../../contract/funnels';
import type { FunnelSource } from '../../../contract/sources';
import { CellText, DataTable, formatTableDay, formatTableMoment, PersonCell, type TableColumn } from '@/ui/DataTable';
import { personName, TagChip } from './parts';

/** Field columns the table shows at most. */
const FIELD_COLUMNS_MAX = 3;

export function PeopleTable({
  people,
  stages,
  tags,
  sources = [],
  fields = [],
}: {
  people: PersonListItem[];
  stages: Stage[];
  tags: Tag[];
  sources?: FunnelSource[];
  fields?: FunnelField[];
}) {
  const { t } = useTranslation();
  const stageById = new Map(stages.map((stage) => [stage.id, stage]));
  const tagById = new Map(tags.map((tag) => [tag.id, tag]));
  const sourceById = new Map(sources.map((source) => [source.id, source]));
  const columns: Array<TableColumn<PersonListItem>> = [
    {
      key: 'name',
      width: '28%',
      header: t('funnels.people.columns.name'),
      cell: (person) => (
        <PersonCell
          personId={person.id}
          name={personName(person)}
          from="people"
          note={
            person.blocked ? (
              <CellText>
                <span className="person-blocked">{t('funnels.person.blocked')}</span>
              </CellText>
            ) : person.username && personName(person) !== `@${person.username}` ? (
              <CellText muted>@{person.username}</CellText>
            ) : null
          }
        />
      ),
    },
    {
      key: 'stage',
      width: '18%',
      header: t('funnels.people.columns.stage'),
      cell: (person) => {
        const stage = person.stage_id === null ? undefined : stageById.get(person.stage_id);
        return (
          <CellText muted={!stage} title={stage?.title}>
            {stage ? <span className="person-row-dot" style={{ background: stage.color }} aria-hidden="true" /> : null}
            {stage ? stage.title : t('funnels.people.noStage')}
          </CellText>
        );
      },
    },
    ...(sources.length > 0
      ? [
          {
            key: 'source',
            width: '14%',
            header: t('funnels.sources.source'),
            cell: (person: PersonListItem) => {
              const source = person.source_id === null ? undefined : sourceById.get(person.source_id);
              return (
                <CellText muted={!source} title={source?.name}>
                  {source ? source.name : t('funnels.sources.noSource')}
                </CellText>
              );
            },
          },
        ]
      : []),
    // One column per field of the funnel (a few: more would squeeze the table; the person's screen has them all).
    ...fields.slice(0, FIELD_COLUMNS_MAX).map(
      (field): TableColumn<PersonListItem> => ({
        key: `field-${field.id}`,
        width: '12%',
        header: field.title,
        cell: (person) => {
          const value = person.field_values.find((item) => item.field_id === field.id)?.value;
          return (
            <CellText muted={value === undefined} title={value}>
              {value ?? '—'}
            </CellText>
          );
        },
      }),
    ),
    {
      key: 'tags',
      header: t('funnels.people.columns.tags'),
      cell: (person) => (
        <span className="data-table-chips">
          {person.tag_ids.map((id) => {
            const tag = tagById.get(id);
            return tag ? <TagChip key={id} tag={tag} /> : null;
          })}
        </span>
      ),
    },
    {
      key: 'joined',
      width: '11%',
      numeric: true,
      sorted: 'descending',
      header: t('funnels.people.columns.joined'),
      cell: (person) => <CellText>{formatTableDay(person.joined_at)}</CellText>,
    },
    {
      key: 'seen',
      width: '18%',
      numeric: true,
      header: t('funnels.people.columns.lastMessage'),
      cell: (person) => <CellText>{formatTableMoment(person.last_seen_at)}</CellText>,
    },
  ];
  return <DataTable label={t('funnels.people.title')} columns={columns} rows={people} rowKey={(person) => person.id} rowTestId="person-row" testId="people-table" />;
}
