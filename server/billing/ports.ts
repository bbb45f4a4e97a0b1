// What billing tells others and asks of them, without knowing them: the partner programme hears
// of every applied payment and refund (PartnerHooks: services.ts fills it with services.partner),
// and each payment method cancels a renewal its own way (PaymentMethodPort: Stars through the
// service bot's editUserStarSubscription, a card through the provider's cancel at period end).
import type { GatedFeature, PaymentMethod } from '../../contract/billing';
import type { SubscriptionRow } from '../db/schema';
import type { BillingWriter } from './entitlements';

/**
 * refund ends the period; partial_refund (a part of a charge given back) does not. resume: a
 * cancelled renewal switched on again (the card provider's portal). payment_failed: a renewal's
 * charge failed; nothing changes until paid_until (the owner is told, once per invoice).
 */
export type BillingEventKind = 'payment' | 'renewal' | 'refund' | 'partial_refund' | 'cancel' | 'resume' | 'payment_failed';

/** One thing that happened to a user's subscription, as the ledger records it (idempotent by key). */
export interface BillingEvent {
  /** stars:charge:<charge id>, stars:refund:<charge id>, card:event:<provider event id>, cancel:<user>:<generation>. */
  key: string;
  userId: number;
  kind: BillingEventKind;
  method: PaymentMethod;
  planId: number | null;
  /** Minor units of `currency` (XTR: Stars). */
  amount: number;
  currency: string;
  /** Paid up to here (Stars: subscription_expiration_date); null: the period extends by 30 days. */
  paidUntil: Date | null;
  externalId?: string | null;
  chargeId?: string | null;
  /** For a refund: the key of the payment it gives back (the partner programme claws its commission back). */
  refundOfKey?: string | null;
}

export interface PartnerPayment {
  payerUserId: number;
  paymentKey: string;
  amount: number;
  currency: string;
  at: Date;
}

export interface PartnerRefund {
  payerUserId: number;
  /** The key of the payment refunded. */
  paymentKey: string;
  at: Date;
}

/** The partner programme, told after each applied payment/renewal and refund has committed (idempotent by key). */
export interface PartnerHooks {
  onPayment(payment: PartnerPayment): Promise<void>;
  onRefund(refund: PartnerRefund): Promise<void>;
}

export const noPartnerHooks: PartnerHooks = {
  async onPayment() {},
  async onRefund() {},
};

/** A payment method's side of cancelling: the renewal must stop at the provider too. */
export interface PaymentMethodPort {
  cancelRenewal(subscription: SubscriptionRow): Promise<void>;
}

export type PaymentMethodPorts = Partial<Record<PaymentMethod, PaymentMethodPort>>;

export interface GateOptions {
  /** run_funnel: this funnel, if already running, is not one more. */
  funnelId?: number;
  /** Read in this transaction (one that holds the owner's lock, so two runs cannot both pass). */
  writer?: BillingWriter;
}

/** What the other services (funnels, mailings, series) need of billing: the gate, called inside them. */
export interface FeatureGate {
  /** Throws the 402 subscription_inactive DomainError when the feature is not allowed now. */
  requireFeature(userId: number, feature: GatedFeature, options?: GateOptions): Promise<void>;
}

/** Nothing gated (services built without billing, as API-only tests of other areas). */
export const openGate: FeatureGate = { async requireFeature() {} };
