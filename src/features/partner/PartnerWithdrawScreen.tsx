// /partner/withdraw/: a payout request of the available balance, above the minimum, to a method
// the partner states; the amount is held until an admin acts. Below, every request and its state.
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { WITHDRAWAL_METHOD_MAX, type PartnerBalances, type Withdrawal } from '../../../contract/partner';
import { ROUTES } from '../../../contract/routes';
import { runChange } from '@/api/action';
import { requestWithdrawal } from '@/api/partner';
import { describeFailure } from '@/api/useApi';
import { usePageHead } from '@/state/ui';
import { BackLink } from '@/ui/BackLink';
import { EmptyState, RowContent, Section } from '@/ui/blocks';
import { Button, FormAlert, TextField } from '@/ui/form';
import { WalletIcon } from '@/ui/icons';
import { Screen, ScreenHeader } from '@/ui/Screen';
import { BalanceCard } from './BalanceCard';
import { formatDate, formatMoney, formatMonies, parseMajorAmount } from './format';
import './partner.css';

const FORM_FIELDS = ['amount', 'currency', 'method'] as const;
type FormErrors = { fields: Record<string, string[]>; messages: string[] };
const NO_ERRORS: FormErrors = { fields: {}, messages: [] };

function WithdrawForm({ balance }: { balance: PartnerBalances }) {
  const { t, i18n } = useTranslation();
  const currencyId = useId();
  const withdrawable = balance.balances.filter((line) => line.available - line.debt >= line.minimum_withdrawal && line.available > 0);
  const [currency, setCurrency] = useState(withdrawable[0]?.currency ?? '');
  const [amount, setAmount] = useState('');
  const [method, setMethod] = useState('');
  const [errors, setErrors] = useState<FormErrors>(NO_ERRORS);
  const [busy, setBusy] = useState(false);
  const line = withdrawable.find((candidate) => candidate.currency === currency) ?? withdrawable[0];

  if (!line) {
    return (
      <Section>
        <EmptyState icon={<WalletIcon />} title={t('partnerWithdraw.emptyTitle')}>
          <p>{t('partnerWithdraw.emptyText', { minimum: formatMonies(balance.minimum_withdrawal, i18n.language, '0') })}</p>
        </EmptyState>
      </Section>
    );
  }
  const money = (value: number) => formatMoney(value, line.currency, i18n.language);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!line) return;
    const fields: Record<string, string[]> = {};
    const minor = parseMajorAmount(amount, line.currency);
    if (minor === null || minor <= 0) fields.amount = [t('partnerWithdraw.amountInvalid')];
    else if (minor < line.minimum_withdrawal) fields.amount = [t('partnerWithdraw.amountBelowMinimum', { minimum: money(line.minimum_withdrawal) })];
    else if (minor > line.available) fields.amount = [t('partnerWithdraw.amountAboveAvailable', { available: money(line.available) })];
    if (!method.trim()) fields.method = [t('partnerWithdraw.methodRequired')];
    if (Object.keys(fields).length > 0 || minor === null) {
      setErrors({ fields, messages: [] });
      return;
    }
    setBusy(true);
    const result = await runChange(() => requestWithdrawal({ amount: minor, currency: line.currency, method: method.trim() }), { notice: t('partnerWithdraw.requested') });
    setBusy(false);
    if (result.ok) {
      setAmount('');
      setErrors(NO_ERRORS);
    } else setErrors(describeFailure(result.failure, FORM_FIELDS));
  }

  return (
    <Section title={t('partnerWithdraw.formTitle')} footer={t('partnerWithdraw.formHint', { minimum: money(line.minimum_withdrawal) })}>
      <form className="partner-withdraw-form" onSubmit={(event) => void submit(event)} noValidate>
        <FormAlert messages={errors.messages} />
        {withdrawable.length > 1 ? (
          <div className="field">
            <label className="field-label" htmlFor={currencyId}>
              {t('partnerWithdraw.currency')}
            </label>
            <select id={currencyId} className="field-input field-select" value={line.currency} onChange={(event) => setCurrency(event.target.value)}>
              {withdrawable.map((candidate) => (
                <option key={candidate.currency} value={candidate.currency}>
                  {candidate.currency === 'XTR' ? t('partnerWithdraw.stars') : candidate.currency}
                </option>
              ))}
            </select>
          </div>
        ) : null}
        <TextField
          label={t('partnerWithdraw.amount', { currency: line.currency === 'XTR' ? '★' : line.currency })}
          name="amount"
          inputMode="decimal"
          autoComplete="off"
          value={amount}
          placeholder={money(line.available)}
          hint={t('partnerWithdraw.availableHint', { available: money(line.available) })}
          errors={errors.fields.amount ?? errors.fields.currency}
          onChange={(event) => setAmount(event.target.value)}
        />
        <TextField
          label={t('partnerWithdraw.method')}
          name="method"
          value={method}
          maxLength={WITHDRAWAL_METHOD_MAX}
          placeholder={t('partnerWithdraw.methodPlaceholder')}
          errors={errors.fields.method}
          onChange={(event) => setMethod(event.target.value)}
        />
        <Button type="submit" disabled={busy} data-testid="partner-withdraw-submit">
          {t('partnerWithdraw.submit')}
        </Button>
      </form>
    </Section>
  );
}

export function WithdrawalStateLabel({ withdrawal }: { withdrawal: Withdrawal }) {
  const { t } = useTranslation();
  return (
    <span className={`partner-state partner-state--${withdrawal.state}`} data-testid="withdrawal-state">
      {t(`partnerWithdraw.states.${withdrawal.state}`)}
    </span>
  );
}

export function PartnerWithdrawScreen({ balance, withdrawals }: { balance: PartnerBalances; withdrawals: Withdrawal[] }) {
  const { t, i18n } = useTranslation();
  usePageHead(t('partnerWithdraw.title'));
  return (
    <Screen>
      <ScreenHeader title={t('partnerWithdraw.title')} subtitle={t('partnerWithdraw.subtitle')} back={<BackLink to={ROUTES.partnerDashboard} label={t('common.back')} />} />
      <BalanceCard balance={balance} />
      <WithdrawForm key={balance.balances.map((line) => `${line.currency}:${line.available}`).join()} balance={balance} />
      <Section title={t('partnerWithdraw.historyTitle')} footer={withdrawals.length === 0 ? t('partnerWithdraw.historyEmpty') : undefined}>
        {withdrawals.map((withdrawal) => (
          <div key={withdrawal.id} className="row row--static" data-testid="withdrawal">
            <RowContent
              title={formatMoney(withdrawal.amount, withdrawal.currency, i18n.language)}
              description={`${formatDate(withdrawal.requested_at, i18n.language)} · ${withdrawal.method}`}
              value={<WithdrawalStateLabel withdrawal={withdrawal} />}
              chevron={false}
            />
          </div>
        ))}
      </Section>
    </Screen>
  );
}
