// /partner/transactions/: the partner's ledger, newest first, a page at a time: when, what (in
// words), how much, and for a commission still in its hold, the day it becomes available.
import { useTranslation } from 'react-i18next';
import { PARTNER_TRANSACTIONS_PAGE_SIZE, type PartnerTransaction, type PartnerTransactionsPage } from '../../../contract/partner';
import { ROUTES } from '../../../contract/routes';
import { usePageHead } from '@/state/ui';
import { BackLink } from '@/ui/BackLink';
import { EmptyState, RowContent, Section } from '@/ui/blocks';
import { DataTable } from '@/ui/DataTable';
import { ListIcon } from '@/ui/icons';
import { Screen, ScreenHeader } from '@/ui/Screen';
import { useWideLayout } from '@/ui/useWideLayout';
import { formatDate, formatDateTime, formatMoney } from './format';
import './partner.css';

/** "Pending until 10 Dec 2026", "Available", "Voided". */
function TransactionState({ line }: { line: PartnerTransaction }) {
  const { t, i18n } = useTranslation();
  const text = line.state === 'pending' ? t('partnerTransactions.pendingUntil', { date: formatDate(line.available_at, i18n.language) }) : t(`partnerTransactions.states.${line.state}`);
  return (
    <span className={`partner-state partner-state--${line.state}`} data-testid="partner-transaction-state">
      {text}
    </span>
  );
}

function Amount({ line }: { line: PartnerTransaction }) {
  const { i18n } = useTranslation();
  return (
    <span className={`partner-amount${line.amount < 0 ? ' partner-amount--out' : ''}${line.state === 'voided' ? ' partner-amount--voided' : ''}`} data-testid="partner-transaction-amount">
      {formatMoney(line.amount, line.currency, i18n.language, true)}
    </span>
  );
}

export function PartnerTransactionsScreen({ ledger, page, onPage }: { ledger: PartnerTransactionsPage; page: number; onPage: (page: number) => void }) {
  const { t, i18n } = useTranslation();
  usePageHead(t('partnerTransactions.title'));
  const wide = useWideLayout();
  const pages = Math.max(1, Math.ceil(ledger.count / PARTNER_TRANSACTIONS_PAGE_SIZE));
  const kind = (line: PartnerTransaction) => t(`partnerTransactions.kinds.${line.kind}`);
  return (
    <Screen wide={wide && ledger.count > 0}>
      <ScreenHeader title={t('partnerTransactions.title')} subtitle={t('partnerTransactions.subtitle')} back={<BackLink to={ROUTES.partnerDashboard} label={t('common.back')} />} />
      {ledger.count === 0 ? (
        <Section>
          <EmptyState icon={<ListIcon />} title={t('partnerTransactions.emptyTitle')}>
            <p>{t('partnerTransactions.emptyText')}</p>
          </EmptyState>
        </Section>
      ) : wide ? (
        <DataTable
          label={t('partnerTransactions.title')}
          rows={ledger.results}
          rowKey={(line) => line.id}
          rowTestId="partner-transaction"
          columns={[
            { key: 'date', header: t('partnerTransactions.date'), width: '22%', sorted: 'descending', cell: (line) => formatDateTime(line.date, i18n.language) },
            { key: 'kind', header: t('partnerTransactions.kind'), cell: kind },
            { key: 'amount', header: t('partnerTransactions.amount'), numeric: true, width: '18%', cell: (line) => <Amount line={line} /> },
            { key: 'state', header: t('partnerTransactions.state'), width: '26%', cell: (line) => <TransactionState line={line} /> },
          ]}
        />
      ) : (
        <Section>
          {ledger.results.map((line) => (
            <div key={line.id} className="row row--static" data-testid="partner-transaction">
              <RowContent
                title={kind(line)}
                description={
                  <>
                    {formatDateTime(line.date, i18n.language)} · <TransactionState line={line} />
                  </>
                }
                value={<Amount line={line} />}
                chevron={false}
              />
            </div>
          ))}
        </Section>
      )}
      {pages > 1 ? (
        <nav className="pager" aria-label={t('partnerTransactions.pageOf', { page, pages })}>
          <button type="button" className="button button--secondary button--small" disabled={page <= 1} onClick={() => onPage(page - 1)}>
            {t('partnerTransactions.prev')}
          </button>
          <span className="pager-text" data-testid="partner-transactions-page">
            {t('partnerTransactions.pageOf', { page, pages })}
          </span>
          <button type="button" className="button button--secondary button--small" disabled={page >= pages} onClick={() => onPage(page + 1)}>
            {t('partnerTransactions.next')}
          </button>
        </nav>
      ) : null}
    </Screen>
  );
}
