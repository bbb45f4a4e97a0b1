// The contacts as a table on a desktop-wide window (ContactsScreen shows cards on a phone): a
// column to pick people for tagging and lists, then what each contact row carries.
import { useTranslation } from 'react-i18next';
import type { Contact } from '../../../contract/contacts';
import type { FunnelField } from '../../../contract/fields';
import { FieldValueChips } from '@/ui/FieldFilter';
import { CellText, DataTable, formatTableDay, formatTableMoment, PersonCell, type TableColumn } from '@/ui/DataTable';

export function contactName(contact: Contact): string {
  return `${contact.first_name} ${contact.last_name}`.trim() || (contact.username ? `@${contact.username}` : String(contact.telegram_id));
}

/** Field columns the table shows at most (the person's screen has them all). */
const FIELD_COLUMNS_MAX = 3;

export function ContactsTable({
  contacts,
  picked,
  onPick,
  fields = [],
}: {
  contacts: Contact[];
  picked: Set<number>;
  onPick: (ids: number[], on: boolean) => void;
  /** The filtered funnel's fields: a column each; without one funnel, the values show beside the tags. */
  fields?: FunnelField[];
}) {
  const { t } = useTranslation();
  const allPicked = contacts.length > 0 && contacts.every((contact) => picked.has(contact.id));
  const shownFields = fields.slice(0, FIELD_COLUMNS_MAX);
  // The tags take what the fixed widths leave (at most 3 fields of 9%: about a seventh of the row stays for them).
  const narrow = shownFields.length > 0 ? { name: '16%', seen: '11%', blocked: '9%' } : { name: '21%', seen: '14%', blocked: '12%' };
  const columns: Array<TableColumn<Contact>> = [
    {
      key: 'pick',
      width: '52px',
      header: (
        <input
          type="checkbox"
          className="data-table-pick"
          checked={allPicked}
          onChange={() => onPick(contacts.map((contact) => contact.id), !allPicked)}
          aria-label={t('contacts.columns.pickAll')}
          data-testid="contacts-pick-all"
        />
      ),
      cell: (contact) => (
        <input
          type="checkbox"
          className="data-table-pick"
          checked={picked.has(contact.id)}
          onChange={() => onPick([contact.id], !picked.has(contact.id))}
          aria-label={t('contacts.pick', { name: contactName(contact) })}
        />
      ),
    },
    {
      key: 'name',
      width: narrow.name,
      header: t('contacts.columns.name'),
      cell: (contact) => (
        <PersonCell
          personId={contact.id}
          name={contactName(contact)}
          from="contacts"
          note={contact.username && contactName(contact) !== `@${contact.username}` ? <CellText muted>@{contact.username}</CellText> : null}
        />
      ),
    },
    // One funnel chosen (its fields are columns): every row's funnel is that one, and its column's
    // room goes to the fields.
    ...(shownFields.length > 0
      ? []
      : [
          {
            key: 'funnel',
            width: '15%',
            header: t('contacts.columns.funnel'),
            cell: (contact: Contact) => (
              <>
                <CellText>{contact.funnel_name}</CellText>
                {contact.bot_username ? <CellText muted>@{contact.bot_username}</CellText> : null}
              </>
            ),
          },
        ]),
    {
      key: 'stage',
      width: '12%',
      header: t('contacts.columns.stage'),
      cell: (contact) => <CellText muted={contact.stage_title === null}>{contact.stage_title ?? t('funnels.people.noStage')}</CellText>,
    },
    ...shownFields.map(
      (field): TableColumn<Contact> => ({
        key: `field-${field.id}`,
        width: '9%',
        header: field.title,
        cell: (contact) => {
          const value = contact.fields.find((item) => item.field_id === field.id)?.value;
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
      header: t('contacts.columns.tags'),
      cell: (contact) => (
        <span className="data-table-chips" title={contact.tags.map((tag) => tag.title).join(', ')}>
          {fields.length === 0 ? <FieldValueChips values={contact.fields} /> : null}
          {contact.tags.map((tag) => (
            <span key={tag.id} className="tag-chip" style={{ ['--tag-color' as string]: tag.color }}>
              <span className="tag-chip-dot" aria-hidden="true" />
              {tag.title}
            </span>
          ))}
        </span>
      ),
    },
    {
      key: 'joined',
      width: '9%',
      numeric: true,
      sorted: 'descending',
      header: t('contacts.columns.joined'),
      cell: (contact) => <CellText>{formatTableDay(contact.joined_at)}</CellText>,
    },
    {
      key: 'seen',
      width: narrow.seen,
      numeric: true,
      header: t('contacts.columns.lastSeen'),
      cell: (contact) => <CellText>{formatTableMoment(contact.last_seen_at)}</CellText>,
    },
    {
      key: 'blocked',
      width: narrow.blocked,
      header: t('contacts.columns.blocked'),
      cell: (contact) =>
        contact.blocked ? (
          <CellText title={t('contacts.columns.blockedYes')}>
            <span className="person-blocked">{t('contacts.columns.blockedYes')}</span>
          </CellText>
        ) : null,
    },
  ];
  return <DataTable label={t('contacts.title')} columns={columns} rows={contacts} rowKey={(contact) => contact.id} rowTestId="contact-row" testId="contacts-table" />;
}
