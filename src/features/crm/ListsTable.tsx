// The user's lists of contacts as a table on a desktop-wide window (FoldersScreen shows rows on a
// phone): name, kind, how many people, folder.
import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import type { ContactList } from '../../../contract/crm';
import { CellText, DataTable, type TableColumn } from '@/ui/DataTable';

export function ListsTable({ lists, folderName }: { lists: ContactList[]; folderName: (id: number | null) => string | undefined }) {
  const { t } = useTranslation();
  const columns: Array<TableColumn<ContactList>> = [
    {
      key: 'name',
      width: '40%',
      header: t('crm.lists.columns.name'),
      cell: (list) => (
        <Link to="/content/lists/$listId/" params={{ listId: String(list.id) }} className="data-table-link data-table-text" title={list.name}>
          {list.name}
        </Link>
      ),
    },
    {
      key: 'kind',
      width: '20%',
      header: t('crm.lists.columns.kind'),
      cell: (list) => <CellText>{list.kind === 'segment' ? t('crm.lists.segment') : t('crm.lists.static')}</CellText>,
    },
    {
      key: 'people',
      width: '14%',
      numeric: true,
      header: t('crm.lists.columns.people'),
      cell: (list) => <CellText>{list.count}</CellText>,
    },
    {
      key: 'folder',
      header: t('crm.lists.columns.folder'),
      cell: (list) => <CellText muted>{folderName(list.folder_id) ?? '—'}</CellText>,
    },
  ];
  return <DataTable label={t('crm.lists.title')} columns={columns} rows={lists} rowKey={(list) => list.id} rowTestId="list-row" testId="lists-table" />;
}
