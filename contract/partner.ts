// The partner programme (issue 23): every user has partner links (a short public uid each) in
// three forms; visits, sign-ups and payments are attributed to a link; a commission on each
// referred payment goes to the partner's ledger, pending for a hold, then available; the partner
// withdraws above a minimum and an admin approves, rejects (the funds return) or marks it paid.
// Limits, names and API paths; the shapes are TypeBox schemas in ./schemas/partner.ts.
import { fillPath } from './paths';

export type * from './schemas/partner';

/** `?start=ref_<uid>` (bot) and `?startapp=ref_<uid>` (Mini App) carry a link's uid. */
export const PARTNER_START_PREFIX = 'ref_';
/** The web form `/?ref=<uid>` and its cookie (in their own module: the app's boot reads them). */
export { REF_COOKIE, REF_COOKIE_DAYS, REF_QUERY_PARAM } from './partner-ref';
/** A link's uid: url-safe, short (the server makes 10 characters; this is what it accepts). */
export const PARTNER_UID_PATTERN = '^[A-Za-z0-9_-]{4,32}$';
export const PARTNER_LINK_LABEL_MAX = 64;
/** Links a partner may have (the default one included). */
export const PARTNER_LINKS_MAX = 50;
export const WITHDRAWAL_METHOD_MAX = 200;
export const PARTNER_TRANSACTIONS_PAGE_SIZE = 50;

/** How a click came: the web link, the bot's /start, the Mini App's startapp. */
export const PARTNER_CLICK_KINDS = ['web', 'bot', 'app'] as const;
export type PartnerClickKind = (typeof PARTNER_CLICK_KINDS)[number];

/** Periods of the statistics; `all` starts at the partner's first link. */
export const PARTNER_PERIODS = ['7d', '30d', '90d', 'all'] as const;
export type PartnerPeriod = (typeof PARTNER_PERIODS)[number];

/**
 * Lines of the partner ledger (append-only; the balance is their sum per currency):
 * commission (+, pending until available_at = payment + hold), void (−, cancels a pending
 * commission when the payment is refunded within the hold; matures with it, so they net to 0),
 * clawback (−, a refund after the hold), withdrawal (−, holds the requested amount),
 * withdrawal_returned (+, a rejected withdrawal's amount comes back).
 */
export const PARTNER_LEDGER_KINDS = ['commission', 'void', 'clawback', 'withdrawal', 'withdrawal_returned'] as const;
export type PartnerLedgerKind = (typeof PARTNER_LEDGER_KINDS)[number];

/** A line as the partner sees it: pending (before available_at), available, or voided (a voided commission and its void). */
export const PARTNER_TRANSACTION_STATES = ['pending', 'available', 'voided'] as const;
export type PartnerTransactionState = (typeof PARTNER_TRANSACTION_STATES)[number];

/** requested → approved → paid; requested → paid; requested/approved → rejected (the amount returns). */
export const WITHDRAWAL_STATES = ['requested', 'approved', 'rejected', 'paid'] as const;
export type WithdrawalState = (typeof WITHDRAWAL_STATES)[number];
/** What an admin does to a request (the path's last segment). */
export const WITHDRAWAL_ACTIONS = ['approve', 'reject', 'paid'] as const;
export type WithdrawalAction = (typeof WITHDRAWAL_ACTIONS)[number];

export const PARTNER_PATHS = {
  links: '/api/partner/links/',
  linkStats: '/api/partner/links/:uid/stats/',
  statistics: '/api/partner/statistics/',
  balance: '/api/partner/balance/',
  transactions: '/api/partner/transactions/',
  withdrawals: '/api/partner/withdrawals/',
  /** No login: the SPA reports a web click ({uid, kind: 'web'}); rate-limited per IP. */
  clicks: '/api/partner/clicks/',
  adminWithdrawals: '/api/admin/withdrawals/',
  adminWithdrawalApprove: '/api/admin/withdrawals/:id/approve/',
  adminWithdrawalReject: '/api/admin/withdrawals/:id/reject/',
  adminWithdrawalPaid: '/api/admin/withdrawals/:id/paid/',
} as const;

export const PARTNER_API = {
  links: PARTNER_PATHS.links,
  linkStats: (uid: string) => fillPath(PARTNER_PATHS.linkStats, { uid }),
  statistics: PARTNER_PATHS.statistics,
  balance: PARTNER_PATHS.balance,
  transactions: PARTNER_PATHS.transactions,
  withdrawals: PARTNER_PATHS.withdrawals,
  clicks: PARTNER_PATHS.clicks,
  adminWithdrawals: PARTNER_PATHS.adminWithdrawals,
  adminWithdrawalApprove: (id: number) => fillPath(PARTNER_PATHS.adminWithdrawalApprove, { id }),
  adminWithdrawalReject: (id: number) => fillPath(PARTNER_PATHS.adminWithdrawalReject, { id }),
  adminWithdrawalPaid: (id: number) => fillPath(PARTNER_PATHS.adminWithdrawalPaid, { id }),
  /** The admin's action on a request, by name. */
  adminWithdrawalAction: (id: number, action: WithdrawalAction) => `${PARTNER_PATHS.adminWithdrawals}${id}/${action}/`,
} as const;
