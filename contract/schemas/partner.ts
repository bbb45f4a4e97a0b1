// Every shape of the partner programme's API, written once (see ./funnels.ts for how these are
// used). The SPA imports the types only, through contract/partner.ts. Money is an integer in
// minor units with its currency: XTR (Telegram Stars, 1 = one Star) or an ISO code (USD: cents).
import { Type, type Static } from 'typebox';
import {
  PARTNER_LEDGER_KINDS,
  PARTNER_LINK_LABEL_MAX,
  PARTNER_PERIODS,
  PARTNER_TRANSACTION_STATES,
  PARTNER_UID_PATTERN,
  WITHDRAWAL_METHOD_MAX,
  WITHDRAWAL_STATES,
} from '../partner';
import { Nullable, PatternText, QueryInt, StringEnum, Text } from './common';

/** XTR or a three-letter ISO code, upper case. */
export const CurrencySchema = PatternText('^[A-Z]{3}$', 'Enter a valid currency code.');

/** An amount in one currency (minor units). */
export const MoneySchema = Type.Object({ amount: Type.Integer(), currency: Text() });
export type Money = Static<typeof MoneySchema>;

/**
 * A link's (or all links') figures: clicks (all kinds), sign-ups (accounts attributed to it),
 * paying (those of them who paid at least once), revenue (their payments, refunds not counted,
 * per currency) and the partner's commission on it (per currency, voided ones not counted).
 */
export const PartnerTotalsSchema = Type.Object({
  clicks: Type.Integer(),
  signups: Type.Integer(),
  paying: Type.Integer(),
  revenue: Type.Array(MoneySchema),
  commission: Type.Array(MoneySchema),
});
export type PartnerTotals = Static<typeof PartnerTotalsSchema>;

export const PartnerLinkSchema = Type.Object({
  uid: Text(),
  /** null for the default link (the app names it). */
  label: Nullable(Text()),
  is_default: Type.Boolean(),
  created_at: Text(),
  /** `${PUBLIC_URL}/?ref=<uid>` */
  web_url: Text(),
  /** `https://t.me/<service bot>?start=ref_<uid>`; null when the service bot is not configured. */
  bot_url: Nullable(Text()),
  /** `https://t.me/<service bot>?startapp=ref_<uid>`; null when the service bot is not configured. */
  app_url: Nullable(Text()),
  totals: PartnerTotalsSchema,
});
export type PartnerLink = Static<typeof PartnerLinkSchema>;

/** GET links/: the default link first, then the others, oldest first. */
export const PartnerLinksSchema = Type.Array(PartnerLinkSchema);

export const CreatePartnerLinkBodySchema = Type.Object({ label: Text(PARTNER_LINK_LABEL_MAX, 1) }, { additionalProperties: false });
export type CreatePartnerLinkBody = Static<typeof CreatePartnerLinkBodySchema>;

export const PartnerStatsQuerySchema = Type.Object({ period: Type.Optional(StringEnum(PARTNER_PERIODS)) });
export type PartnerStatsQuery = Static<typeof PartnerStatsQuerySchema>;

/** One UTC day of a series; every day of the period is present (zeros included), oldest first. */
export const PartnerDaySchema = Type.Object({
  /** YYYY-MM-DD (UTC). */
  date: Text(),
  clicks: Type.Integer(),
  signups: Type.Integer(),
  /** Referred people who paid that day (first payments and renewals). */
  paying: Type.Integer(),
  revenue: Type.Array(MoneySchema),
  commission: Type.Array(MoneySchema),
});
export type PartnerDay = Static<typeof PartnerDaySchema>;

/** GET links/<uid>/stats/?period= (default 30d): one link's totals over the period and its days. */
export const PartnerLinkStatsSchema = Type.Object({
  uid: Text(),
  label: Nullable(Text()),
  is_default: Type.Boolean(),
  period: StringEnum(PARTNER_PERIODS),
  totals: PartnerTotalsSchema,
  days: Type.Array(PartnerDaySchema),
});
export type PartnerLinkStats = Static<typeof PartnerLinkStatsSchema>;

/** GET statistics/?period=: all the partner's links together, and each link's totals over the period. */
export const PartnerStatisticsSchema = Type.Object({
  period: StringEnum(PARTNER_PERIODS),
  totals: PartnerTotalsSchema,
  days: Type.Array(PartnerDaySchema),
  links: Type.Array(Type.Object({ uid: Text(), label: Nullable(Text()), is_default: Type.Boolean(), totals: PartnerTotalsSchema })),
});
export type PartnerStatistics = Static<typeof PartnerStatisticsSchema>;

/**
 * One currency of the balance, both sums of the ledger: available (lines whose hold has ended)
 * and pending (commissions still in their hold). available is never below zero: a clawback
 * after a payout that takes the sum below zero shows as `debt`, which the next commissions pay
 * off as they become available (available − debt = the sum of the available lines).
 */
export const PartnerBalanceSchema = Type.Object({
  currency: Text(),
  available: Type.Integer(),
  pending: Type.Integer(),
  debt: Type.Integer(),
  /** The least a withdrawal in this currency may ask for. */
  minimum_withdrawal: Type.Integer(),
});
export type PartnerBalance = Static<typeof PartnerBalanceSchema>;

/** GET balance/: every currency the partner has lines in, plus the programme's terms. */
export const PartnerBalancesSchema = Type.Object({
  balances: Type.Array(PartnerBalanceSchema),
  /** Of each referred payment, renewals included. */
  commission_percent: Type.Integer(),
  /** The hold in whole days (rounded), and exactly. */
  hold_days: Type.Integer(),
  hold_seconds: Type.Integer(),
  /** The minimum per configured currency (minimum_withdrawal of each balance is the one that applies). */
  minimum_withdrawal: Type.Array(MoneySchema),
});
export type PartnerBalances = Static<typeof PartnerBalancesSchema>;

export const PartnerTransactionsQuerySchema = Type.Object({ page: Type.Optional(QueryInt(6)) });
export type PartnerTransactionsQuery = Static<typeof PartnerTransactionsQuerySchema>;

/** A line of the partner's ledger. */
export const PartnerTransactionSchema = Type.Object({
  id: Type.Integer(),
  /** When the line was written (RFC 3339). */
  date: Text(),
  kind: StringEnum(PARTNER_LEDGER_KINDS),
  /** Signed: commission and withdrawal_returned positive, the others negative. */
  amount: Type.Integer(),
  currency: Text(),
  /** When it counts as available (a commission: the end of its hold). */
  available_at: Text(),
  state: StringEnum(PARTNER_TRANSACTION_STATES),
  /** The withdrawal request a withdrawal or withdrawal_returned line belongs to. */
  withdrawal_id: Nullable(Type.Integer()),
});
export type PartnerTransaction = Static<typeof PartnerTransactionSchema>;

/** GET transactions/?page= (1-based, PARTNER_TRANSACTIONS_PAGE_SIZE a page): newest first. */
export const PartnerTransactionsPageSchema = Type.Object({ count: Type.Integer(), results: Type.Array(PartnerTransactionSchema) });
export type PartnerTransactionsPage = Static<typeof PartnerTransactionsPageSchema>;

export const WithdrawalSchema = Type.Object({
  id: Type.Integer(),
  /** Positive, minor units. */
  amount: Type.Integer(),
  currency: Text(),
  /** Where to pay, as the partner wrote it (a card, a wallet…). */
  method: Text(),
  state: StringEnum(WITHDRAWAL_STATES),
  requested_at: Text(),
  approved_at: Nullable(Text()),
  rejected_at: Nullable(Text()),
  paid_at: Nullable(Text()),
});
export type Withdrawal = Static<typeof WithdrawalSchema>;

/** GET withdrawals/: the partner's requests, newest first. */
export const WithdrawalsSchema = Type.Array(WithdrawalSchema);

/**
 * POST withdrawals/ → 201 the request. Errors (400): amount below the currency's minimum or
 * above the available balance → {"amount": [...]}; method blank or too long → {"method": [...]}.
 */
export const CreateWithdrawalBodySchema = Type.Object(
  {
    amount: Type.Integer({ minimum: 1, maximum: 2_000_000_000 }),
    currency: CurrencySchema,
    method: Text(WITHDRAWAL_METHOD_MAX, 1),
  },
  { additionalProperties: false },
);
export type CreateWithdrawalBody = Static<typeof CreateWithdrawalBodySchema>;

/** POST clicks/ (no login) → 204 whether or not the uid exists (nothing to learn from it). */
export const PartnerClickBodySchema = Type.Object({
  uid: PatternText(PARTNER_UID_PATTERN, 'Enter a valid link code.'),
  /** Only the web form is reported by the app; the bot and Mini App clicks are recorded by the server. */
  kind: StringEnum(['web'] as const),
});
export type PartnerClickBody = Static<typeof PartnerClickBodySchema>;

export const AdminWithdrawalsQuerySchema = Type.Object({ state: Type.Optional(StringEnum(WITHDRAWAL_STATES)) });
export type AdminWithdrawalsQuery = Static<typeof AdminWithdrawalsQuerySchema>;

/** A request as admins see it, with who asked. */
export const AdminWithdrawalSchema = Type.Object({
  ...WithdrawalSchema.properties,
  user: Type.Object({ id: Type.Integer(), email: Nullable(Text()), name: Text(), telegram_username: Nullable(Text()) }),
});
export type AdminWithdrawal = Static<typeof AdminWithdrawalSchema>;

/** GET admin/withdrawals/?state=: oldest first (the queue). POST …/<id>/approve|reject|paid/ → the AdminWithdrawal. */
export const AdminWithdrawalsSchema = Type.Array(AdminWithdrawalSchema);
