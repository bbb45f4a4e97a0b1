// The partner ledger's rules, pure: what a referred payment earns, which line a refund writes,
// how a line reads to the partner, and what a balance is. Every sum is over the ledger's lines
// (server/partner/sql.ts); nothing here is stored.
import type { PartnerLedgerKind, PartnerTransactionState } from '../../contract/partner';

/** The commission on a payment: `percent` of it, rounded down (never more than was promised). */
export function commissionOf(amount: number, percent: number): number {
  return Math.floor((amount * percent) / 100);
}

/**
 * A refund of a payment whose commission is still in its hold voids it (the void matures with
 * the commission, so the two net to zero in whichever bucket they sit); once the hold is over it
 * is clawed back from the available balance.
 */
export function reversalKind(refundedAt: Date, commissionAvailableAt: Date): 'void' | 'clawback' {
  return refundedAt.getTime() < commissionAvailableAt.getTime() ? 'void' : 'clawback';
}

/** How a line reads: a voided commission and its void are 'voided'; otherwise pending until available_at. */
export function lineState(line: { kind: PartnerLedgerKind; availableAt: Date; voided: boolean }, now: Date): PartnerTransactionState {
  if (line.kind === 'void' || (line.kind === 'commission' && line.voided)) return 'voided';
  return line.availableAt.getTime() > now.getTime() ? 'pending' : 'available';
}

/**
 * The balance of one currency from the two sums of its lines. The available sum goes below zero
 * only when a clawback follows a payout: that is a debt, shown apart, that the next commissions
 * pay off as they mature; what a withdrawal may take is never below zero.
 */
export function balanceOf(availableSum: number, pendingSum: number) {
  return { available: Math.max(0, availableSum), debt: Math.max(0, -availableSum), pending: pendingSum };
}

/** Idempotency keys of the ledger's lines. */
export const LEDGER_KEYS = {
  commission: (paymentKey: string) => `commission:${paymentKey}`,
  /** The one reversal (void or clawback) a payment's commission may have. */
  reversal: (paymentKey: string) => `reversal:${paymentKey}`,
  withdrawal: (withdrawalId: number) => `withdrawal:${withdrawalId}`,
  withdrawalReturned: (withdrawalId: number) => `withdrawal_returned:${withdrawalId}`,
} as const;

/** An address without its +tag, lower case: a second account at me+2@x is still me@x. */
export function canonicalEmail(email: string): string {
  const [local, domain] = email.toLowerCase().split('@');
  return `${local.split('+')[0]}@${domain}`;
}
