// PROVISIONAL (billing screens branch): the shared model's shapes, written before billing core's
// contract/billing.ts was committed. Replaced by that file when wt-bill is merged.
export interface PlanLimits {
  running_funnels: number | null;
  people: number | null;
  mailings: boolean;
  letters: boolean;
}
export interface Plan {
  id: number;
  title: string;
  description: string;
  is_free: boolean;
  limits: PlanLimits;
  price_stars: number | null;
  price_card: number | null;
  card_currency: string | null;
}
export interface SubscriptionUsage {
  running_funnels: number;
  people: number;
}
export type SubscriptionStateName = 'ungated' | 'free' | 'active' | 'cancelled' | 'grace' | 'ended';
export interface Subscription {
  gated: boolean;
  state: SubscriptionStateName;
  plan: Plan | null;
  method: 'stars' | 'card' | null;
  paid_until: string | null;
  grace_until: string | null;
  limits: PlanLimits;
  usage: SubscriptionUsage;
  cancel_url?: string | null;
}
export interface CancelInfo {
  plan: Plan | null;
  method: 'stars' | 'card' | null;
  paid_until: string | null;
  renews: boolean;
}
export interface AdminPlan {
  id: number;
  title: string;
  description: string;
  is_free: boolean;
  max_running_funnels: number | null;
  max_people: number | null;
  mailings: boolean;
  letters: boolean;
  price_stars: number | null;
  price_card: number | null;
  card_currency: string | null;
  archived: boolean;
  position: number;
}
export type PlanBody = Omit<AdminPlan, 'id'>;

export const BILLING_API = {
  plans: '/api/billing/plans/',
  subscription: '/api/billing/subscription/',
  starsInvoice: '/api/billing/stars/invoice/',
  cardCheckout: '/api/billing/card/checkout/',
  cancel: '/api/billing/cancel/',
  adminPlans: '/api/admin/plans/',
  adminPlan: (id: number) => `/api/admin/plans/${id}/`,
} as const;
