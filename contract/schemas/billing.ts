// Every shape of the billing API, written once. The SPA imports the types only, through
// contract/billing.ts.
import { Type, type Static } from 'typebox';
import {
  CARD_PRICE_MAX,
  PAYMENT_METHODS,
  PLAN_DESCRIPTION_MAX,
  PLAN_LIMIT_MAX,
  PLAN_TITLE_MAX,
  STARS_PRICE_MAX,
  SUBSCRIPTION_STATES,
} from '../billing';
import { DateTime, Id, Nullable, PatternText, StringEnum, Text } from './common';

/** What a plan allows; null = no limit. */
export const PlanLimitsSchema = Type.Object({
  running_funnels: Nullable(Type.Integer({ minimum: 0, maximum: PLAN_LIMIT_MAX })),
  people: Nullable(Type.Integer({ minimum: 0, maximum: PLAN_LIMIT_MAX })),
  mailings: Type.Boolean(),
  letters: Type.Boolean(),
});
export type PlanLimits = Static<typeof PlanLimitsSchema>;

/** A plan as anyone sees it (GET /api/billing/plans/: the non-archived ones, in order). */
export const PlanSchema = Type.Object({
  id: Type.Integer(),
  title: Text(),
  description: Text(),
  is_free: Type.Boolean(),
  limits: PlanLimitsSchema,
  /** Stars a period (XTR); null: not sold for Stars. */
  price_stars: Nullable(Type.Integer()),
  /** Minor units of card_currency a period; null: not sold by card. */
  price_card: Nullable(Type.Integer()),
  card_currency: Nullable(Text()),
});
export type Plan = Static<typeof PlanSchema>;

export const PlanListSchema = Type.Array(PlanSchema);

export const UsageSchema = Type.Object({
  running_funnels: Type.Integer(),
  /** People (contacts) across the user's bots; above limits.people new ones are still recorded. */
  people: Type.Integer(),
});
export type Usage = Static<typeof UsageSchema>;

/** GET /api/billing/subscription/: where the user stands (see SUBSCRIPTION_STATES). */
export const SubscriptionSchema = Type.Object({
  gated: Type.Boolean(),
  state: StringEnum(SUBSCRIPTION_STATES),
  plan: Nullable(PlanSchema),
  method: Nullable(StringEnum(PAYMENT_METHODS)),
  paid_until: Nullable(DateTime()),
  grace_until: Nullable(DateTime()),
  /** What applies now (the plan's in active/cancelled/grace, the free plan's otherwise; all open when ungated). */
  limits: PlanLimitsSchema,
  usage: UsageSchema,
  /** The signed link to /cancel/ for this subscription while it renews; null when there is no renewal to cancel. */
  cancel_url: Nullable(Text()),
});
export type Subscription = Static<typeof SubscriptionSchema>;

/** POST /api/billing/stars/invoice/ and /api/billing/card/checkout/. */
export const PlanChoiceSchema = Type.Object({ plan_id: Id() });
export type PlanChoice = Static<typeof PlanChoiceSchema>;

export const StarsInvoiceSchema = Type.Object({ invoice_link: Text() });
export type StarsInvoice = Static<typeof StarsInvoiceSchema>;

export const CardCheckoutSchema = Type.Object({ url: Text() });
export type CardCheckout = Static<typeof CardCheckoutSchema>;

/** The signed token of a cancel link. */
export const CANCEL_TOKEN_MAX = 512;
export const CancelTokenSchema = Type.Object({ token: Text(CANCEL_TOKEN_MAX, 1) });
export type CancelToken = Static<typeof CancelTokenSchema>;

/** GET /api/billing/cancel/?token= and POST /api/billing/cancel/ {token}. */
export const CancelInfoSchema = Type.Object({
  plan: Nullable(PlanSchema),
  method: Nullable(StringEnum(PAYMENT_METHODS)),
  paid_until: Nullable(DateTime()),
  renews: Type.Boolean(),
});
export type CancelInfo = Static<typeof CancelInfoSchema>;

// --- admins ------------------------------------------------------------------------------------

/** A plan as admins see it: also archived ones, their place, and whether anyone ever paid for it. */
export const AdminPlanSchema = Type.Object({
  ...PlanSchema.properties,
  archived: Type.Boolean(),
  position: Type.Integer(),
  /** Someone subscribed to it (it can then only be archived, never deleted). */
  used: Type.Boolean(),
});
export type AdminPlan = Static<typeof AdminPlanSchema>;

export const AdminPlanListSchema = Type.Array(AdminPlanSchema);

const CURRENCY_MESSAGE = 'Enter a three-letter ISO currency code, e.g. USD.';

const planFields = {
  title: Text(PLAN_TITLE_MAX, 1),
  description: Text(PLAN_DESCRIPTION_MAX),
  is_free: Type.Boolean(),
  limits: PlanLimitsSchema,
  price_stars: Nullable(Type.Integer({ minimum: 1, maximum: STARS_PRICE_MAX })),
  price_card: Nullable(Type.Integer({ minimum: 1, maximum: CARD_PRICE_MAX })),
  card_currency: Nullable(PatternText('^[A-Z]{3}$', CURRENCY_MESSAGE)),
  archived: Type.Boolean(),
  position: Type.Integer({ minimum: 0, maximum: 1000 }),
};

/** POST /api/admin/plans/: title and limits required; description, prices, archived and position optional. */
export const AdminPlanInputSchema = Type.Object({
  title: planFields.title,
  description: Type.Optional(planFields.description),
  is_free: Type.Optional(planFields.is_free),
  limits: planFields.limits,
  price_stars: Type.Optional(planFields.price_stars),
  price_card: Type.Optional(planFields.price_card),
  card_currency: Type.Optional(planFields.card_currency),
  archived: Type.Optional(planFields.archived),
  position: Type.Optional(planFields.position),
});
export type AdminPlanInput = Static<typeof AdminPlanInputSchema>;

/** PATCH /api/admin/plans/<id>/: any of the fields. */
export const AdminPlanPatchSchema = Type.Partial(Type.Object(planFields));
export type AdminPlanPatch = Static<typeof AdminPlanPatchSchema>;

/** POST /api/admin/billing/refunds/. */
export const AdminRefundInputSchema = Type.Object({ user_id: Id() });
export type AdminRefundInput = Static<typeof AdminRefundInputSchema>;

/** What a refund did: the charge refunded and its amount in Stars. */
export const AdminRefundSchema = Type.Object({
  user_id: Type.Integer(),
  charge_id: Text(),
  amount: Type.Integer(),
  currency: Text(),
});
export type AdminRefund = Static<typeof AdminRefundSchema>;
