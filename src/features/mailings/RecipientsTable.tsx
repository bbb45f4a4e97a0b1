// A mailing's recipients as a table on a desktop-wide window (MailingScreen shows a list on a
// phone): who, their state, when it was sent or last changed, and what went wrong in words (Telegram's own text only as a tooltip).
import { useTranslation } from 'react-i18next';
import type { Recipient } from '../../../contract/mailings';
import { CellText, DataTable, formatTableMoment, PersonCell, type TableColumn } from '@/ui/DataTable';
import { RecipientProblem, RecipientState } from './RecipientState';

const recipientName = (r: Recipient) => [r.first_name, r.last_name].filter(Boolean).join(' ') || (r.username ? `@${r.username}` : '—');

export function RecipientsTable({ recipients }: { recipients: Recipient[] }) {
  const { t } = useTranslation();
  const columns: Array<TableColumn<Recipient>> = [
    {
      key: 'name',
      width: '32%',
      header: t('mailings.recipients.columns.name'),
      cell: (r) => (
        <PersonCell
          personId={r.person_id}
          name={recipientName(r)}
          note={r.username && recipientName(r) !== `@${r.username}` ? <CellText muted>@{r.username}</CellText> : null}
        />
      ),
    },
    {
      key: 'state',
      width: '20%',
      header: t('mailings.recipients.columns.state'),
      cell: (r) => (
        <CellText>
          <RecipientState recipient={r} />
        </CellText>
      ),
    },
    {
      key: 'at',
      width: '18%',
      numeric: true,
      header: t('mailings.recipients.columns.at'),
      cell: (r) => <CellText>{formatTableMoment(r.at)}</CellText>,
    },
    {
      key: 'error',
      header: t('mailings.recipients.columns.error'),
      cell: (r) => (
        <CellText muted>
          <RecipientProblem recipient={r} />
        </CellText>
      ),
    },
  ];
  return <DataTable label={t('mailings.recipients.title')} columns={columns} rows={recipients} rowKey={(r) => r.person_id} rowTestId="recipient-row" testId="recipients-table" />;
}
