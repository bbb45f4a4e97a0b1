// The subscription (issue 23): plans, what they gate, and the API paths of billing. Money is an
// integer in minor units with its currency: XTR (Telegram Stars, 1 = one Star) or an ISO code
// such as USD (cents). Shapes are TypeBox schemas in ./schemas/billing.ts (types re-exported).
import { fillPath } from './paths';

export type * from './schemas/billing';

/** One paid period: 30 days, the only subscription period Telegram allows for Stars. */
export const SUBSCRIPTION_PERIOD_DAYS = 30;
export const STARS_SUBSCRIPTION_PERIOD_SECONDS = 2_592_000;
/** After paid_until, running bots keep answering for this long, then what is over the free plan stops. */
export const GRACE_DAYS = 3;
/** The Stars currency code. */
export const STARS_CURRENCY = 'XTR';
/** Telegram's largest price of a Stars subscription. */
export const STARS_PRICE_MAX = 10_000;
/** A card price: at most this many minor units (999,999.99). */
export const CARD_PRICE_MAX = 99_999_999;

export const PAYMENT_METHODS = ['stars', 'card'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

/**
 * ungated: no paid plan is configured, nothing is limited; free: no paid subscription, the free
 * plan's limits; active: paid and renewing; cancelled: paid, will not renew, active until
 * paid_until; grace: paid_until passed, bots keep answering until grace_until; ended: past grace,
 * the free plan's limits.
 */
export const SUBSCRIPTION_STATES = ['ungated', 'free', 'active', 'cancelled', 'grace', 'ended'] as const;
export type SubscriptionState = (typeof SUBSCRIPTION_STATES)[number];

/** What a plan can gate (the server checks these in its services). */
export const GATED_FEATURES = ['run_funnel', 'mailings', 'letters'] as const;
export type GatedFeature = (typeof GATED_FEATURES)[number];

/** The free limits when no free plan row exists (and gating is on). */
export const DEFAULT_FREE_LIMITS = { running_funnels: 1, people: 500, mailings: false, letters: false } as const;

export const PLAN_TITLE_MAX = 64;
export const PLAN_DESCRIPTION_MAX = 1000;
/** Limits of a plan: at most this (a larger figure is "no limit": leave it null). */
export const PLAN_LIMIT_MAX = 10_000_000;

export const BILLING_PATHS = {
  /** GET, no login. */
  plans: '/api/billing/plans/',
  /** GET, login. */
  subscription: '/api/billing/subscription/',
  /** POST {plan_id} → {invoice_link}, login. */
  starsInvoice: '/api/billing/stars/invoice/',
  /** POST {plan_id} → {url}, login. */
  cardCheckout: '/api/billing/card/checkout/',
  /** POST, the provider's signature. */
  cardWebhook: '/api/billing/card/webhook/',
  /** GET ?token= (signed, no login) → 303 to a fresh session of the card provider's customer portal, else to /subscribe/. */
  cardPortal: '/api/billing/card/portal/',
  /** GET ?token= and POST {token}, no login. */
  cancel: '/api/billing/cancel/',
  /** Admins: GET, POST. */
  adminPlans: '/api/admin/plans/',
  /** Admins: PATCH (and DELETE: an unused plan goes, a used one is archived). */
  adminPlan: '/api/admin/plans/:id/',
  /** Admins: POST {user_id}, refunds the user's last Stars payment. */
  adminRefunds: '/api/admin/billing/refunds/',
} as const;

export const BILLING_API = {
  plans: BILLING_PATHS.plans,
  subscription: BILLING_PATHS.subscription,
  starsInvoice: BILLING_PATHS.starsInvoice,
  cardCheckout: BILLING_PATHS.cardCheckout,
  cardWebhook: BILLING_PATHS.cardWebhook,
  cardPortal: BILLING_PATHS.cardPortal,
  cancel: BILLING_PATHS.cancel,
  adminPlans: BILLING_PATHS.adminPlans,
  adminPlan: (id: number) => fillPath(BILLING_PATHS.adminPlan, { id }),
  adminRefunds: BILLING_PATHS.adminRefunds,
} as const;

/** The SPA's routes of billing (the cancel link points at CANCEL_ROUTE?token=…). */
export const SUBSCRIBE_ROUTE = '/subscribe/';
export const CARD_SUBSCRIBE_ROUTE = '/sbscrb/';
export const CANCEL_ROUTE = '/cancel/';
