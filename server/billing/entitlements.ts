// Where a user stands: whether billing gates anything at all (only while a paid plan is on offer),
// their subscription's state, the limits that apply now and what they use. Read by the gate
// (requireFeature), by GET /api/billing/subscription/, and by the ending and resuming of what is
// over the free plan.
import { and, asc, count, eq, isNotNull, isNull, or, sql } from 'drizzle-orm';
import { DEFAULT_FREE_LIMITS, type PaymentMethod, type Plan, type PlanLimits, type SubscriptionState, type Usage } from '../../contract/billing';
import type { Database } from '../db';
import { funnels, people, plans, subscriptions, type PlanRow, type SubscriptionRow } from '../db/schema';

/** A transaction, as Drizzle hands it to orm.transaction's callback. */
export type Tx = Parameters<Parameters<Database['transaction']>[0]>[0];
/** Where billing reads and writes: the database's query API, or a transaction already open on it. */
export type BillingWriter = Database | Tx;

export const NO_LIMITS: PlanLimits = { running_funnels: null, people: null, mailings: true, letters: true };

export interface Entitlements {
  gated: boolean;
  state: SubscriptionState;
  /** The plan paid for (null: none, or it was deleted). */
  plan: PlanRow | null;
  subscription: SubscriptionRow | null;
  method: PaymentMethod | null;
  /** What applies now. */
  limits: PlanLimits;
  usage: Usage;
}

export const planLimits = (plan: PlanRow): PlanLimits => ({
  running_funnels: plan.maxRunningFunnels,
  people: plan.maxPeople,
  mailings: plan.mailings,
  letters: plan.letters,
});

export const toPlan = (row: PlanRow): Plan => ({
  id: row.id,
  title: row.title,
  description: row.description,
  is_free: row.isFree,
  limits: planLimits(row),
  price_stars: row.priceStars,
  price_card: row.priceCard,
  card_currency: row.cardCurrency,
});

const isPaid = or(isNotNull(plans.priceStars), isNotNull(plans.priceCard));

/** Gating is on while at least one non-archived paid plan exists (a fresh install has none). */
export async function gatingOn(reader: BillingWriter): Promise<boolean> {
  const [row] = await reader.select({ id: plans.id }).from(plans).where(and(eq(plans.archived, false), isPaid)).limit(1);
  return row !== undefined;
}

/** The free plan's limits: the non-archived free plan's, else the defaults. */
export async function freeLimits(reader: BillingWriter): Promise<PlanLimits> {
  const [free] = await reader
    .select()
    .from(plans)
    .where(and(eq(plans.isFree, true), eq(plans.archived, false)))
    .orderBy(asc(plans.position), asc(plans.id))
    .limit(1);
  return free ? planLimits(free) : { ...DEFAULT_FREE_LIMITS };
}

/** The state of a subscription at `now` (gating on). */
export function subscriptionState(subscription: Pick<SubscriptionRow, 'paidUntil' | 'graceUntil' | 'renews'> | null, now: Date): Exclude<SubscriptionState, 'ungated'> {
  if (!subscription) return 'free';
  const at = now.getTime();
  if (at < subscription.paidUntil.getTime()) return subscription.renews ? 'active' : 'cancelled';
  if (at < subscription.graceUntil.getTime()) return 'grace';
  return 'ended';
}

/** The states in which the paid plan's limits apply. */
export const PAID_STATES: readonly SubscriptionState[] = ['active', 'cancelled', 'grace'];

export async function usageOf(reader: BillingWriter, userId: number): Promise<Usage> {
  const [running] = await reader
    .select({ n: count() })
    .from(funnels)
    .where(and(eq(funnels.ownerId, userId), eq(funnels.state, 'running'), isNull(funnels.archivedAt)));
  const [contacts] = await reader
    .select({ n: count() })
    .from(people)
    .where(sql`${people.funnelId} in (select ${funnels.id} from ${funnels} where ${funnels.ownerId} = ${userId})`);
  return { running_funnels: Number(running?.n ?? 0), people: Number(contacts?.n ?? 0) };
}

export async function readEntitlements(reader: BillingWriter, userId: number, now: Date): Promise<Entitlements> {
  const [subscription] = await reader.select().from(subscriptions).where(eq(subscriptions.userId, userId)).limit(1);
  const [plan] = subscription?.planId ? await reader.select().from(plans).where(eq(plans.id, subscription.planId)).limit(1) : [];
  const gated = await gatingOn(reader);
  const usage = await usageOf(reader, userId);
  const base = { subscription: subscription ?? null, plan: plan ?? null, method: subscription?.method ?? null, usage };
  if (!gated) return { ...base, gated, state: 'ungated', limits: NO_LIMITS };
  const state = subscriptionState(subscription ?? null, now);
  const limits = PAID_STATES.includes(state) && plan ? planLimits(plan) : await freeLimits(reader);
  return { ...base, gated, state, limits };
}
