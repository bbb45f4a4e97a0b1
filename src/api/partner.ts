// The partner programme's API (contract/partner.ts), on the authenticated client. Only the
// partner screens and the admin's withdrawals screen import this.
import {
  PARTNER_API,
  type AdminWithdrawal,
  type CreatePartnerLinkBody,
  type CreateWithdrawalBody,
  type PartnerBalances,
  type PartnerLink,
  type PartnerLinkStats,
  type PartnerPeriod,
  type PartnerStatistics,
  type PartnerTransactionsPage,
  type Withdrawal,
  type WithdrawalAction,
  type WithdrawalState,
} from '../../contract/partner';
import { apiPath, authClient } from './clients';

export const listPartnerLinks = () => authClient.get(apiPath(PARTNER_API.links)).json<PartnerLink[]>();
export const createPartnerLink = (body: CreatePartnerLinkBody) => authClient.post(apiPath(PARTNER_API.links), { json: body }).json<PartnerLink>();
export const partnerLinkStats = (uid: string, period: PartnerPeriod) =>
  authClient.get(apiPath(PARTNER_API.linkStats(uid)), { searchParams: { period } }).json<PartnerLinkStats>();
export const partnerStatistics = (period: PartnerPeriod) => authClient.get(apiPath(PARTNER_API.statistics), { searchParams: { period } }).json<PartnerStatistics>();
export const partnerBalance = () => authClient.get(apiPath(PARTNER_API.balance)).json<PartnerBalances>();
export const partnerTransactions = (page: number) =>
  authClient.get(apiPath(PARTNER_API.transactions), { searchParams: { page } }).json<PartnerTransactionsPage>();
export const listWithdrawals = () => authClient.get(apiPath(PARTNER_API.withdrawals)).json<Withdrawal[]>();
export const requestWithdrawal = (body: CreateWithdrawalBody) => authClient.post(apiPath(PARTNER_API.withdrawals), { json: body }).json<Withdrawal>();
export const adminWithdrawals = (state?: WithdrawalState) =>
  authClient.get(apiPath(PARTNER_API.adminWithdrawals), { searchParams: state ? { state } : {} }).json<AdminWithdrawal[]>();
export const actOnWithdrawal = (id: number, action: WithdrawalAction) => authClient.post(apiPath(PARTNER_API.adminWithdrawalAction(id, action))).json<AdminWithdrawal>();
