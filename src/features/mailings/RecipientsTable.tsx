// A mailing's recipients as a table on a desktop-wide window (MailingScreen shows a list on a
// phone): who, their state, when it was sent or last changed, and what went wrong in words (Telegram's own text only as a tooltip).
import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import type { Recipient } from '../../../contract/mailings';
import { CellText, DataTable, formatTableMoment, type TableColumn } from '@/ui/DataTable';
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
        <span className="data-table-person">
          <span className="person-avatar" aria-hidden="true">
            {recipientName(r).charAt(0).toUpperCase()}
          </span>
          <span className="data-table-person-name">
            <Link to="/content/people/$personId/" params={{ personId: String(r.person_id) }} className="data-table-link" title={recipientName(r)}>
              {recipientName(r)}
            </Link>
            {r.username && recipientName(r) !== `@${r.username}` ? <CellText muted>@{r.username}</CellText> : null}
          </span>
        </span>
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
