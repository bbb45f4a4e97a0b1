// A table of rows for the desktop layout (see useWideLayout): a sticky header, cells that
// ellipsize, numbers aligned right. A row opens like the card it replaces: its first link is the
// keyboard's way in (Tab, Enter), and a click anywhere else on the row follows that link too.
import { Link } from '@tanstack/react-router';
import type { MouseEvent, ReactNode } from 'react';
import { currentLanguage } from '@/i18n/i18n';
import './table.css';

export interface TableColumn<Row> {
  /** Stable key of the column (also its CSS hook: data-table-cell--<key>). */
  key: string;
  /** The column header as the user reads it; `headerHidden` keeps it for screen readers only. */
  header: ReactNode;
  headerHidden?: boolean;
  cell: (row: Row) => ReactNode;
  /** A width for the column (table-layout is fixed), e.g. '18%' or '48px'; the rest share what is left. */
  width?: string;
  /** Numbers and dates: aligned right, in figures of one width. */
  numeric?: boolean;
  /** The order the rows come in (the API's order), announced on the header. */
  sorted?: 'ascending' | 'descending';
}

/** Clicks on these inside a row do their own thing (pick, open a link) instead of opening the row. */
const OWN_CLICK = 'a, button, input, select, label, textarea';

function openRow(event: MouseEvent<HTMLTableRowElement>) {
  const target = event.target as Element;
  if (target.closest(OWN_CLICK)) return;
  // Text being selected is not a click on the row.
  if (window.getSelection()?.toString()) return;
  event.currentTarget.querySelector<HTMLAnchorElement>('a[href]')?.click();
}

export function DataTable<Row>({
  label,
  columns,
  rows,
  rowKey,
  rowTestId,
  rowClassName,
  testId,
}: {
  /** What the table lists, for screen readers (e.g. "Contacts"). */
  label: string;
  columns: Array<TableColumn<Row>>;
  rows: Row[];
  rowKey: (row: Row) => string | number;
  rowTestId?: string;
  rowClassName?: (row: Row) => string | undefined;
  testId?: string;
}) {
  return (
    <div className="data-table-frame">
      <table className="data-table" aria-label={label} data-testid={testId}>
        <colgroup>
          {columns.map((column) => (
            <col key={column.key} style={column.width ? { width: column.width } : undefined} />
          ))}
        </colgroup>
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column.key} scope="col" aria-sort={column.sorted} className={`data-table-cell--${column.key}${column.numeric ? ' data-table-numeric' : ''}`}>
                {column.headerHidden ? <span className="visually-hidden">{column.header}</span> : column.header}
                {column.sorted ? (
                  <span className="data-table-sorted" aria-hidden="true">
                    {column.sorted === 'descending' ? '↓' : '↑'}
                  </span>
                ) : null}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={rowKey(row)} className={rowClassName?.(row)} onClick={openRow} data-testid={rowTestId}>
              {columns.map((column) => (
                <td key={column.key} className={`data-table-cell--${column.key}${column.numeric ? ' data-table-numeric' : ''}`}>
                  {column.cell(row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** A cell's text on one line, cut with an ellipsis; the full text shows on hover. */
export function CellText({ children, title, muted }: { children: ReactNode; title?: string; muted?: boolean }) {
  return (
    <span className={`data-table-text${muted ? ' data-table-text--muted' : ''}`} title={title ?? (typeof children === 'string' ? children : undefined)}>
      {children}
    </span>
  );
}

/**
 * A person's name cell: their initial, their name linking to their screen (`from`: the screen
 * Back returns to), and a muted line under it (their @username, "blocked"…).
 */
export function PersonCell({ personId, name, from, note }: { personId: number; name: string; from?: 'people' | 'contacts'; note?: ReactNode }) {
  return (
    <span className="data-table-person">
      <span className="person-avatar" aria-hidden="true">
        {name.charAt(0).toUpperCase()}
      </span>
      <span className="data-table-person-name">
        <Link to="/content/people/$personId/" params={{ personId: String(personId) }} search={from ? { from } : {}} className="data-table-link" title={name}>
          {name}
        </Link>
        {note}
      </span>
    </span>
  );
}

/** A day in a cell, in figures so that the column lines up: "11/26/26", "26.11.2026". */
export function formatTableDay(iso: string): string {
  return new Intl.DateTimeFormat(currentLanguage(), { dateStyle: 'short' }).format(new Date(iso));
}

/** A moment in a cell: the day and the time, short, in the app's language. */
export function formatTableMoment(iso: string): string {
  return new Intl.DateTimeFormat(currentLanguage(), { dateStyle: 'short', timeStyle: 'short' }).format(new Date(iso));
}
