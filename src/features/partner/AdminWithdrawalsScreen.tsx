// /settings/withdrawals/ (admins only): partners' payout requests by state, oldest first (the
// queue); approve, reject (the amount returns to the partner) or mark paid, each after a
// confirmation that names the partner, the amount and where to pay.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { WITHDRAWAL_STATES, type AdminWithdrawal, type WithdrawalAction, type WithdrawalState } from '../../../contract/partner';
import { ROUTES } from '../../../contract/routes';
import { runChange } from '@/api/action';
import { actOnWithdrawal } from '@/api/partner';
import { noticeFailure } from '@/api/useApi';
import { usePageHead } from '@/state/ui';
import { BackLink } from '@/ui/BackLink';
import { EmptyState, RowContent, Section } from '@/ui/blocks';
import { DataTable } from '@/ui/DataTable';
import { ConfirmDialog } from '@/ui/Dialog';
import { Button } from '@/ui/form';
import { WalletIcon } from '@/ui/icons';
import { Screen, ScreenHeader } from '@/ui/Screen';
import { SegmentedTabs } from '@/ui/SegmentedTabs';
import { useWideLayout } from '@/ui/useWideLayout';
import { formatDateTime, formatMoney } from './format';
import { WithdrawalStateLabel } from './PartnerWithdrawScreen';
import './partner.css';

export type AdminWithdrawalsFilter = WithdrawalState | 'all';

/** What an admin may still do with a request in each state. */
const ACTIONS: Record<WithdrawalState, WithdrawalAction[]> = {
  requested: ['approve', 'paid', 'reject'],
  approved: ['paid', 'reject'],
  rejected: [],
  paid: [],
};

const ACTION_LABEL = { approve: 'adminWithdrawals.approve', reject: 'adminWithdrawals.reject', paid: 'adminWithdrawals.markPaid' } as const satisfies Record<WithdrawalAction, string>;
const CONFIRM_TITLE = { approve: 'adminWithdrawals.confirmApprove', reject: 'adminWithdrawals.confirmReject', paid: 'adminWithdrawals.confirmPaid' } as const satisfies Record<WithdrawalAction, string>;
const CONFIRM_TEXT = { approve: 'adminWithdrawals.confirmApproveText', reject: 'adminWithdrawals.confirmRejectText', paid: 'adminWithdrawals.confirmPaidText' } as const satisfies Record<WithdrawalAction, string>;

const partnerName = (withdrawal: AdminWithdrawal) =>
  withdrawal.user.name.trim() || withdrawal.user.email || (withdrawal.user.telegram_username ? `@${withdrawal.user.telegram_username}` : `#${withdrawal.user.id}`);

function Actions({ withdrawal, onAct }: { withdrawal: AdminWithdrawal; onAct: (withdrawal: AdminWithdrawal, action: WithdrawalAction) => void }) {
  const { t } = useTranslation();
  const actions = ACTIONS[withdrawal.state];
  if (actions.length === 0) return null;
  return (
    <span className="partner-admin-actions">
      {actions.map((action) => (
        <Button key={action} variant={action === 'reject' ? 'destructive' : action === 'paid' ? 'primary' : 'secondary'} className="button--small" onClick={() => onAct(withdrawal, action)} data-testid={`withdrawal-${action}`}>
          {t(ACTION_LABEL[action])}
        </Button>
      ))}
    </span>
  );
}

/** Every request comes at once (a queue an admin works through is short); the tabs filter it here. */
export function AdminWithdrawalsScreen({ withdrawals: all }: { withdrawals: AdminWithdrawal[] }) {
  const { t, i18n } = useTranslation();
  usePageHead(t('adminWithdrawals.title'));
  const wide = useWideLayout();
  const [filter, setFilter] = useState<AdminWithdrawalsFilter>('requested');
  const withdrawals = filter === 'all' ? all : all.filter((withdrawal) => withdrawal.state === filter);
  const [asking, setAsking] = useState<{ withdrawal: AdminWithdrawal; action: WithdrawalAction } | null>(null);
  const money = (withdrawal: AdminWithdrawal) => formatMoney(withdrawal.amount, withdrawal.currency, i18n.language);

  async function act() {
    if (!asking) return;
    const { withdrawal, action } = asking;
    setAsking(null);
    const result = await runChange(() => actOnWithdrawal(withdrawal.id, action), { notice: t(`adminWithdrawals.done.${action}`) });
    if (!result.ok) noticeFailure(result.failure);
  }
  const onAct = (withdrawal: AdminWithdrawal, action: WithdrawalAction) => setAsking({ withdrawal, action });
  const filters: AdminWithdrawalsFilter[] = [...WITHDRAWAL_STATES, 'all'];
  const filterOptions = filters.map((value) => ({ value, label: value === 'all' ? t('adminWithdrawals.all') : t(`partnerWithdraw.states.${value}`) }));

  return (
    <Screen wide={wide && withdrawals.length > 0}>
      <ScreenHeader title={t('adminWithdrawals.title')} subtitle={t('adminWithdrawals.subtitle')} back={<BackLink to={ROUTES.settings} label={t('common.back')} />} />
      <SegmentedTabs
        label={t('adminWithdrawals.filter')}
        options={filterOptions}
        value={filter}
        onChange={setFilter}
      />
      {withdrawals.length === 0 ? (
        <Section>
          <EmptyState icon={<WalletIcon />} title={t('adminWithdrawals.emptyTitle')}>
            <p>{t('adminWithdrawals.emptyText')}</p>
          </EmptyState>
        </Section>
      ) : wide ? (
        <DataTable
          label={t('adminWithdrawals.title')}
          rows={withdrawals}
          rowKey={(withdrawal) => withdrawal.id}
          rowTestId="admin-withdrawal"
          columns={[
            { key: 'requested', header: t('adminWithdrawals.requestedAt'), width: '16%', sorted: 'ascending', cell: (withdrawal) => formatDateTime(withdrawal.requested_at, i18n.language) },
            { key: 'partner', header: t('adminWithdrawals.partner'), width: '18%', cell: partnerName },
            { key: 'amount', header: t('adminWithdrawals.amount'), numeric: true, width: '12%', cell: money },
            { key: 'method', header: t('adminWithdrawals.method'), cell: (withdrawal) => withdrawal.method },
            { key: 'state', header: t('adminWithdrawals.state'), width: '11%', cell: (withdrawal) => <WithdrawalStateLabel withdrawal={withdrawal} /> },
            { key: 'actions', header: t('adminWithdrawals.actions'), width: '26%', cell: (withdrawal) => <Actions withdrawal={withdrawal} onAct={onAct} /> },
          ]}
        />
      ) : (
        <Section>
          {withdrawals.map((withdrawal) => (
            <div key={withdrawal.id} className="partner-admin-request" data-testid="admin-withdrawal">
              <div className="row row--static">
                <RowContent
                  title={`${partnerName(withdrawal)} · ${money(withdrawal)}`}
                  description={`${formatDateTime(withdrawal.requested_at, i18n.language)} · ${withdrawal.method}`}
                  value={<WithdrawalStateLabel withdrawal={withdrawal} />}
                  chevron={false}
                />
              </div>
              <Actions withdrawal={withdrawal} onAct={onAct} />
            </div>
          ))}
        </Section>
      )}
      {asking ? (
        <ConfirmDialog
          title={t(CONFIRM_TITLE[asking.action], { amount: money(asking.withdrawal), name: partnerName(asking.withdrawal) })}
          confirmLabel={t(ACTION_LABEL[asking.action])}
          cancelLabel={t('adminWithdrawals.cancel')}
          destructive={asking.action === 'reject'}
          onConfirm={() => void act()}
          onCancel={() => setAsking(null)}
        >
          <p>{t(CONFIRM_TEXT[asking.action], { method: asking.withdrawal.method })}</p>
        </ConfirmDialog>
      ) : null}
    </Screen>
  );
}
