// The subscription: the ledger of payments, renewals, refunds and cancellations (applyEvent, the
// one way a subscription changes), the gate the other services call (requireFeature), the signed
// cancel link, and what happens when a paid period ends (sweep: a grace notice, then what is over
// the free plan stops; a payment resumes exactly what billing stopped).
import { and, asc, desc, eq, isNotNull, sql } from 'drizzle-orm';
import {
  CANCEL_ROUTE,
  GRACE_DAYS,
  STARS_CURRENCY,
  SUBSCRIBE_ROUTE,
  SUBSCRIPTION_PERIOD_DAYS,
  type AdminPlan,
  type AdminPlanInput,
  type AdminPlanPatch,
  type CancelInfo,
  type GatedFeature,
  type Plan,
  type Subscription,
} from '../../contract/billing';
import type { Config } from '../config';
import type { Db } from '../db';
import { loggableError } from '../db/errors';
import { rawSql } from '../db/raw';
import { billingEvents, funnels, plans, subscriptions, type PlanRow, type SubscriptionRow } from '../db/schema';
import { invalidField, invalidFields, notFound, paymentRequired, unavailable, type DomainMessage } from '../domain-error';
import type { FunnelRuntimePort } from '../funnels/runtime-port';
import { pauseOwnersMailingsForBilling, resumeOwnersMailingsFromBilling } from '../mailings/state';
import type { ServiceLog } from '../services';
import { signCancelToken, verifyCancelToken, type CancelTokenClaims } from './cancel-token';
import {
  PAID_STATES,
  freeLimits,
  gatingOn,
  readEntitlements,
  toPlan,
  type BillingWriter,
  type Entitlements,
} from './entitlements';
import { BILLING_ERRORS } from './errors';
import type { GraceNoticeSender, SubscriptionActiveNoticeSender } from './notices';
import { noPartnerHooks, type BillingEvent, type GateOptions, type PartnerHooks, type PaymentMethodPort, type PaymentMethodPorts } from './ports';
import type { PaymentMethod, PlanLimits } from '../../contract/billing';

const DAY_MS = 86_400_000;
const PERIOD_MS = SUBSCRIPTION_PERIOD_DAYS * DAY_MS;
const GRACE_MS = GRACE_DAYS * DAY_MS;
/** Subscriptions ended per sweep at most (the rest at the next one). */
const ENDINGS_PER_SWEEP = 100;

export interface BillingServiceDeps {
  db: Db;
  config: Pick<Config, 'publicUrl' | 'secretKey'>;
  now: () => Date;
  log: ServiceLog;
  /** The bot runtime: told of each funnel billing stops or runs again. */
  runtime: FunnelRuntimePort;
  /** The delivery engine, woken when billing resumes a mailing. */
  wake?: () => void;
  /** The partner programme (a no-op until it is given). */
  partnerHooks?: PartnerHooks;
  /** Each method's side of cancelling a renewal (more can be registered later). */
  paymentMethods?: PaymentMethodPorts;
  /** Tells the owner that the grace period began (none: nobody is told, as in API-only tests). */
  graceNotice?: GraceNoticeSender;
  /** Tells the owner that a payment started their subscription, with its cancel link (none: nobody is told). */
  activeNotice?: SubscriptionActiveNoticeSender;
  /** Runs work after the answer (services.ts: its background tasks, settled on close); none: started, not awaited. */
  background?: (task: () => Promise<void>) => void;
}

/** What billing stopped or paused for one user (or resumed). */
export interface BillingChanges {
  funnels: number[];
  mailings: number[];
  series: number[];
}

/** What applyEvent did: whether the event was new, and (a failed charge) whether it is the first failure of its invoice. */
export interface AppliedEvent {
  applied: boolean;
  /** Only for a payment_failed event. */
  firstFailure?: boolean;
}

/** pg_advisory_xact_lock's first key for a failed charge (the second: its id's hash). */
const FAILED_CHARGE_LOCK_SPACE = 23_021;

const NO_CHANGES: BillingChanges = { funnels: [], mailings: [], series: [] };

/** Pause and resume ordered the same way: the funnels that ran first are the ones kept running. */
const FUNNEL_ORDER = 'first_run_at nulls last, id';

const STOP_FUNNELS_OVER = `
  update funnels set state = 'stopped', stop_reason = 'billing', updated_at = $3
   where id in (select id from funnels where owner_id = $1 and state = 'running' and archived_at is null order by ${FUNNEL_ORDER} offset $2)
  returning id`;

const RUN_BILLING_STOPPED = `
  update funnels set state = 'running', stop_reason = null, updated_at = $3
   where id in (select id from funnels where owner_id = $1 and state = 'stopped' and stop_reason = 'billing' and archived_at is null
                 order by ${FUNNEL_ORDER} limit $2)
  returning id`;

const PAUSE_SERIES = `
  update letter_series set billing_paused_enabled_at = enabled_at, enabled_at = null
   where enabled_at is not null and funnel_id in (select id from funnels where owner_id = $1)
  returning id`;

const RESUME_SERIES = `
  update letter_series set enabled_at = billing_paused_enabled_at, billing_paused_enabled_at = null
   where billing_paused_enabled_at is not null and funnel_id in (select id from funnels where owner_id = $1)
  returning id`;

/** Owners with something billing stopped (their entitlement decides whether it resumes). */
const OWNERS_WITH_BILLING_STOPS = `
  select owner_id from funnels where state = 'stopped' and stop_reason = 'billing'
  union select f.owner_id from mailings m join funnels f on f.id = m.funnel_id where m.state = 'paused' and m.pause_reason = 'billing'
  union select f.owner_id from letter_series s join funnels f on f.id = s.funnel_id where s.billing_paused_enabled_at is not null
  limit 500`;

const idsOf = (result: unknown): number[] => ((result as { rows: Array<{ id: number }> }).rows ?? []).map((row) => Number(row.id));

export function createBillingService(deps: BillingServiceDeps) {
  const { db, config, now, log, runtime } = deps;
  const orm = db.orm;
  let partnerHooks = deps.partnerHooks ?? noPartnerHooks;
  const paymentMethods: PaymentMethodPorts = { ...deps.paymentMethods };

  // --- reading --------------------------------------------------------------------------------

  function entitlements(userId: number, reader: BillingWriter = orm): Promise<Entitlements> {
    return readEntitlements(reader, userId, now());
  }

  async function subscription(userId: number): Promise<Subscription> {
    const ent = await entitlements(userId);
    const sub = ent.subscription;
    return {
      gated: ent.gated,
      state: ent.state,
      plan: ent.plan ? toPlan(ent.plan) : null,
      method: ent.method,
      paid_until: sub ? sub.paidUntil.toISOString() : null,
      grace_until: sub ? sub.graceUntil.toISOString() : null,
      limits: ent.limits,
      usage: ent.usage,
      // While it renews (in its paid period or its grace) there is a renewal to cancel.
      cancel_url: sub && sub.renews && now() < sub.graceUntil ? linkFor(userId, sub.cancelGeneration) : null,
    };
  }

  /** The plans on offer, in order (archived ones are not). */
  async function listPlans(): Promise<Plan[]> {
    const rows = await orm.select().from(plans).where(eq(plans.archived, false)).orderBy(asc(plans.position), asc(plans.id));
    return rows.map(toPlan);
  }

  // --- the gate -------------------------------------------------------------------------------

  /**
   * Refuses (402 subscription_inactive) what the limits that apply now do not allow. Nothing is
   * refused while no paid plan exists. run_funnel: one more running funnel (`funnelId` already
   * running counts as itself). mailings, letters: the plan must include them and the people
   * recorded must not be over its limit (new people are still recorded above it: nobody who
   * pressed Start is lost; only sending to them is refused).
   */
  async function requireFeature(userId: number, feature: GatedFeature, options: GateOptions = {}): Promise<void> {
    const reader = options.writer ?? orm;
    const ent = await entitlements(userId, reader);
    if (!ent.gated) return;
    const { limits, usage } = ent;
    const refuse = () => paymentRequired(BILLING_ERRORS.subscriptionInactive);
    if (feature === 'run_funnel') {
      if (limits.running_funnels === null) return;
      let running = usage.running_funnels;
      if (options.funnelId !== undefined) {
        const [self] = await reader.select({ state: funnels.state }).from(funnels).where(and(eq(funnels.id, options.funnelId), eq(funnels.ownerId, userId))).limit(1);
        if (self?.state === 'running') running -= 1;
      }
      if (running >= limits.running_funnels) throw refuse();
      return;
    }
    if (!limits[feature]) throw refuse();
    if (limits.people !== null && usage.people > limits.people) throw refuse();
  }

  // --- the ledger -----------------------------------------------------------------------------

  /**
   * Records `event` once (its key) and, only when it was new, changes the subscription in the
   * same transaction. After commit the partner programme hears of a payment or a refund, and what
   * billing had stopped resumes (or, after a refund, stops at once).
   */
  async function applyEvent(event: BillingEvent): Promise<AppliedEvent> {
    const at = now();
    const outcome = await orm.transaction(async (tx) => {
      // A failed charge is told of once per invoice (the provider retries it under new event ids):
      // the invoice's earlier failures are looked up under a lock on it, so two never both tell.
      let firstFailure = false;
      if (event.kind === 'payment_failed' && event.chargeId) {
        await tx.execute(rawSql('select pg_advisory_xact_lock($1, hashtext($2))', [FAILED_CHARGE_LOCK_SPACE, event.chargeId]));
        const [told] = await tx
          .select({ id: billingEvents.id })
          .from(billingEvents)
          .where(and(eq(billingEvents.chargeId, event.chargeId), eq(billingEvents.kind, 'payment_failed')))
          .limit(1);
        firstFailure = told === undefined;
      }
      const inserted = await tx
        .insert(billingEvents)
        .values({
          userId: event.userId,
          key: event.key,
          kind: event.kind,
          method: event.method,
          planId: event.planId,
          amount: event.amount,
          currency: event.currency,
          paidUntil: event.paidUntil,
          externalId: event.externalId ?? null,
          chargeId: event.chargeId ?? null,
          createdAt: at,
        })
        .onConflictDoNothing({ target: billingEvents.key })
        .returning({ id: billingEvents.id });
      if (inserted.length === 0) return { applied: false, started: null, firstFailure: false };
      const changed = await changeSubscription(tx, event, at);
      // A first payment starts a subscription: the one its notice (and cancel link) is for.
      return { applied: true, started: event.kind === 'payment' ? changed : null, firstFailure };
    });
    const { applied, started, firstFailure } = outcome;
    const failure = event.kind === 'payment_failed' ? { firstFailure } : {};
    if (!applied) return { applied, ...failure };
    // First, so that nothing failing after the commit (partner, settle) loses it.
    if (started) tellStarted(started);
    if (event.kind === 'payment' || event.kind === 'renewal') {
      await tellPartner(() => partnerHooks.onPayment({ payerUserId: event.userId, paymentKey: event.key, amount: event.amount, currency: event.currency, at }), event.key);
    } else if (event.kind === 'refund' && event.refundOfKey) {
      const paymentKey = event.refundOfKey;
      await tellPartner(() => partnerHooks.onRefund({ payerUserId: event.userId, paymentKey, at }), event.key);
    }
    // A partial refund leaves the commission as it is: PartnerHooks.onRefund takes no amount (it
    // voids or claws back the whole commission), so telling it would take back too much.
    // A failed charge or a partial refund changes no access: nothing to stop or resume.
    if (event.kind !== 'payment_failed' && event.kind !== 'partial_refund') await settle(event.userId);
    return { applied, ...failure };
  }

  /** The "subscription active" notices, one at a time: a burst of payments must not crowd out the answers to pre-checkouts. */
  let noticeLane: Promise<void> = Promise.resolve();

  /** "Subscription active", after commit, once per applied first payment; a failure is logged, the payment stands. */
  function tellStarted(started: SubscriptionRow): void {
    const send = deps.activeNotice;
    if (!send) return;
    const task = async () => {
      try {
        await send(started.userId, {
          planId: started.planId,
          method: started.method,
          paidUntil: started.paidUntil,
          cancelLink: linkFor(started.userId, started.cancelGeneration),
        });
      } catch (error) {
        log.warn({ error: loggableError(error), user_id: started.userId }, 'the "subscription active" notice failed');
      }
    };
    const queued = noticeLane.then(task);
    noticeLane = queued;
    if (deps.background) deps.background(() => queued);
    else void queued;
  }

  async function tellPartner(call: () => Promise<void>, key: string): Promise<void> {
    // The payment stands whatever the partner programme says; it is idempotent by key, so a later
    // delivery of the same event (never applied twice here) is not what repairs it: log loudly.
    try {
      await call();
    } catch (error) {
      log.error({ error: loggableError(error), key }, 'the partner programme failed to record a billing event');
    }
  }

  /** Changes the user's subscription; a payment or renewal returns the row as it now is. */
  async function changeSubscription(tx: BillingWriter, event: BillingEvent, at: Date): Promise<SubscriptionRow | null> {
    const userId = event.userId;
    if (event.kind === 'payment' || event.kind === 'renewal') {
      const [current] = await tx.select().from(subscriptions).where(eq(subscriptions.userId, userId)).for('update');
      const from = Math.max(current?.paidUntil.getTime() ?? 0, at.getTime());
      const paidUntil = event.paidUntil ?? new Date(from + PERIOD_MS);
      const graceUntil = new Date(paidUntil.getTime() + GRACE_MS);
      const firstPayment = event.kind === 'payment';
      if (!current) {
        const [inserted] = await tx
          .insert(subscriptions)
          .values({
          userId,
          planId: event.planId,
          method: event.method,
          paidUntil,
          graceUntil,
          renews: true,
          externalId: event.externalId ?? null,
          cancelGeneration: 1,
          updatedAt: at,
          })
          .returning();
        return inserted;
      }
      const [updated] = await tx
        .update(subscriptions)
        .set({
          planId: event.planId ?? current.planId,
          method: event.method,
          paidUntil,
          graceUntil,
          renews: true,
          // A renewal keeps the subscription's id (Stars: the first charge id, what cancelling takes).
          externalId: firstPayment ? (event.externalId ?? current.externalId) : (current.externalId ?? event.externalId ?? null),
          cancelGeneration: firstPayment ? current.cancelGeneration + 1 : current.cancelGeneration,
          updatedAt: at,
        })
        .where(eq(subscriptions.userId, userId))
        .returning();
      return updated;
    }
    if (event.kind === 'refund') {
      // The period ends now, without grace: what was given back was the access.
      await tx
        .update(subscriptions)
        .set({ paidUntil: sql`least(${subscriptions.paidUntil}, ${at})`, graceUntil: at, renews: false, updatedAt: at })
        .where(eq(subscriptions.userId, userId));
      return null;
    }
    if (event.kind === 'cancel' || event.kind === 'resume') {
      // Only the subscription the event is about: a provider's old subscription ending must not
      // touch the one the user has since (the access it paid for lasts to paid_until either way).
      await tx
        .update(subscriptions)
        .set({ renews: event.kind === 'resume', updatedAt: at })
        .where(and(eq(subscriptions.userId, userId), sql`${subscriptions.externalId} is not distinct from ${event.externalId ?? null}`));
    }
    // partial_refund, payment_failed: recorded; the period and its renewal stay as they are.
    return null;
  }

  // --- cancelling -----------------------------------------------------------------------------

  function registerPaymentMethod(method: PaymentMethod, port: PaymentMethodPort): void {
    paymentMethods[method] = port;
  }

  function setPartnerHooks(hooks: PartnerHooks): void {
    partnerHooks = hooks;
  }

  /**
   * Stops the renewal: the method's provider first (Stars: editUserStarSubscription; card: cancel
   * at period end), then the ledger's cancel event (once per subscription generation). Access
   * lasts to paid_until. Nothing to cancel: an error on the token field (the link's only input).
   */
  async function cancelRenewal(userId: number): Promise<void> {
    const [current] = await orm.select().from(subscriptions).where(eq(subscriptions.userId, userId)).limit(1);
    if (!current) throw invalidField('token', BILLING_ERRORS.nothingToCancel);
    if (!current.renews) return;
    const port = paymentMethods[current.method];
    if (port) {
      try {
        await port.cancelRenewal(current);
      } catch (error) {
        log.warn({ error: loggableError(error), user_id: userId }, 'the payment method could not cancel the renewal');
        throw unavailable(BILLING_ERRORS.cancelUnavailable);
      }
    }
    const [plan] = current.planId ? await orm.select().from(plans).where(eq(plans.id, current.planId)).limit(1) : [];
    // A renewal resumed (in the card provider's portal) can be cancelled again: that is another cancel.
    const [resumed] = await orm
      .select({ id: billingEvents.id })
      .from(billingEvents)
      .where(and(eq(billingEvents.userId, userId), eq(billingEvents.kind, 'resume')))
      .orderBy(desc(billingEvents.id))
      .limit(1);
    await applyEvent({
      key: `cancel:${userId}:${current.cancelGeneration}${resumed ? `:after:${resumed.id}` : ''}`,
      userId,
      kind: 'cancel',
      method: current.method,
      planId: current.planId,
      amount: 0,
      currency: current.method === 'stars' ? STARS_CURRENCY : (plan?.cardCurrency ?? STARS_CURRENCY),
      paidUntil: current.paidUntil,
      externalId: current.externalId,
    });
  }

  /** The signed link to /cancel/ for the user's present subscription (an older one's link stops working). */
  async function cancelLink(userId: number): Promise<string> {
    const [current] = await orm.select({ generation: subscriptions.cancelGeneration }).from(subscriptions).where(eq(subscriptions.userId, userId)).limit(1);
    return linkFor(userId, current?.generation ?? 0);
  }

  function linkFor(userId: number, generation: number): string {
    const token = signCancelToken(config.secretKey, { userId, generation });
    return `${config.publicUrl}${CANCEL_ROUTE}?token=${encodeURIComponent(token)}`;
  }

  /** The claims of a cancel token that is signed by this server and for the user's present subscription; 400 on the token otherwise. */
  async function readCancelToken(token: string): Promise<CancelTokenClaims> {
    const claims = verifyCancelToken(config.secretKey, token);
    if (!claims) throw invalidField('token', BILLING_ERRORS.badCancelToken);
    const [current] = await orm.select({ generation: subscriptions.cancelGeneration }).from(subscriptions).where(eq(subscriptions.userId, claims.userId)).limit(1);
    if (!current || current.generation !== claims.generation) throw invalidField('token', BILLING_ERRORS.oldCancelToken);
    return claims;
  }

  async function cancelInfo(userId: number): Promise<CancelInfo> {
    const ent = await entitlements(userId);
    const sub = ent.subscription;
    return { plan: ent.plan ? toPlan(ent.plan) : null, method: ent.method, paid_until: sub ? sub.paidUntil.toISOString() : null, renews: sub?.renews ?? false };
  }

  /** GET /api/billing/cancel/?token=: what the link would cancel. */
  async function cancelPreview(token: string): Promise<CancelInfo> {
    const { userId } = await readCancelToken(token);
    return cancelInfo(userId);
  }

  /** POST /api/billing/cancel/ {token}: cancels the renewal, then shows it. */
  async function cancelByToken(token: string): Promise<CancelInfo> {
    const { userId } = await readCancelToken(token);
    await cancelRenewal(userId);
    return cancelInfo(userId);
  }

  // --- ending and resuming ----------------------------------------------------------------------

  /** Stops what is over `limits` for this owner (in the caller's transaction). */
  async function stopOverLimits(tx: BillingWriter, userId: number, limits: PlanLimits, at: Date): Promise<BillingChanges> {
    const stopped =
      limits.running_funnels === null ? [] : idsOf(await tx.execute(rawSql(STOP_FUNNELS_OVER, [userId, limits.running_funnels, at])));
    const paused = limits.mailings ? [] : await pauseOwnersMailingsForBilling(tx, userId, at);
    const series = limits.letters ? [] : idsOf(await tx.execute(rawSql(PAUSE_SERIES, [userId])));
    return { funnels: stopped, mailings: paused, series };
  }

  async function afterChanges(changes: BillingChanges): Promise<void> {
    for (const funnelId of changes.funnels) {
      await runtime.sync(funnelId).catch((error: unknown) => log.error({ error: loggableError(error), funnelId }, 'funnel runtime sync failed'));
    }
    if (changes.mailings.length > 0 || changes.series.length > 0) deps.wake?.();
  }

  /**
   * Ends this user's paid access if its grace is over and that ending was not applied yet: claims
   * the ending on the subscription row (ended_for = paid_until) and stops what is over the free
   * plan in the same transaction, so two processes (or a payment racing it) never both act.
   */
  async function endIfDue(userId: number): Promise<BillingChanges> {
    const at = now();
    const changes = await orm.transaction(async (tx) => {
      const [claimed] = await tx
        .update(subscriptions)
        .set({ endedFor: sql`${subscriptions.paidUntil}` })
        .where(and(eq(subscriptions.userId, userId), sql`${subscriptions.graceUntil} <= ${at}`, sql`${subscriptions.endedFor} is distinct from ${subscriptions.paidUntil}`))
        .returning({ id: subscriptions.id });
      if (!claimed || !(await gatingOn(tx))) return NO_CHANGES;
      return stopOverLimits(tx, userId, await freeLimits(tx), at);
    });
    await afterChanges(changes);
    return changes;
  }

  /** Runs again what billing stopped, as far as the limits that apply now allow (nothing when they are the free plan's). */
  async function resumeIfEntitled(userId: number): Promise<BillingChanges> {
    const ent = await entitlements(userId);
    if (ent.gated && !PAID_STATES.includes(ent.state)) return NO_CHANGES;
    const at = now();
    const { limits, usage } = ent;
    const changes = await orm.transaction(async (tx) => {
      const room = limits.running_funnels === null ? 2_147_483_647 : Math.max(0, limits.running_funnels - usage.running_funnels);
      const ran = room > 0 ? idsOf(await tx.execute(rawSql(RUN_BILLING_STOPPED, [userId, room, at]))) : [];
      const mailingIds = limits.mailings ? await resumeOwnersMailingsFromBilling(tx, userId, at) : [];
      const series = limits.letters ? idsOf(await tx.execute(rawSql(RESUME_SERIES, [userId]))) : [];
      return { funnels: ran, mailings: mailingIds, series };
    });
    await afterChanges(changes);
    return changes;
  }

  /** After a ledger change: resume what billing stopped, or end at once (a refund). */
  async function settle(userId: number): Promise<void> {
    await endIfDue(userId);
    await resumeIfEntitled(userId);
  }

  /**
   * The periodic check (every process runs it; each step claims its rows, so two processes do
   * each thing once): tells owners whose paid period passed that the grace period began, ends
   * subscriptions whose grace is over, and resumes what billing stopped for owners entitled again
   * (a payment does that at once; this catches gating switched off by an admin).
   */
  async function sweep(): Promise<void> {
    const at = now();
    if (await gatingOn(orm)) {
      const told = await orm
        .update(subscriptions)
        .set({ graceNotifiedFor: sql`${subscriptions.paidUntil}` })
        .where(
          and(
            sql`${subscriptions.paidUntil} <= ${at}`,
            sql`${subscriptions.graceUntil} > ${at}`,
            sql`${subscriptions.graceNotifiedFor} is distinct from ${subscriptions.paidUntil}`,
          ),
        )
        .returning({ userId: subscriptions.userId, graceUntil: subscriptions.graceUntil, renews: subscriptions.renews });
      for (const row of told) {
        const cancel = row.renews ? await cancelLink(row.userId) : null;
        await deps
          .graceNotice?.(row.userId, { graceUntil: row.graceUntil, subscribeLink: `${config.publicUrl}${SUBSCRIBE_ROUTE}`, cancelLink: cancel })
          .catch((error: unknown) => log.warn({ error: loggableError(error), user_id: row.userId }, 'the grace notice failed'));
      }
    }
    const due = await orm
      .select({ userId: subscriptions.userId })
      .from(subscriptions)
      .where(and(sql`${subscriptions.graceUntil} <= ${at}`, sql`${subscriptions.endedFor} is distinct from ${subscriptions.paidUntil}`))
      .limit(ENDINGS_PER_SWEEP);
    for (const { userId } of due) await endIfDue(userId);
    const owners = await db.query<{ owner_id: number }>(OWNERS_WITH_BILLING_STOPS);
    for (const { owner_id: ownerId } of owners) await resumeIfEntitled(Number(ownerId));
  }

  /**
   * The next moment after now at which the sweep has something to do: a paid period ends whose
   * grace notice is not sent, or a grace period ends whose ending is not applied (null: none).
   */
  async function nextDueAt(): Promise<Date | null> {
    const at = now();
    const [row] = await db.query<{ due: Date | string | null }>(
      `select least(
         (select min(paid_until) from subscriptions where paid_until > $1 and grace_notified_for is distinct from paid_until),
         (select min(grace_until) from subscriptions where grace_until > $1 and ended_for is distinct from paid_until)) as due`,
      [at],
    );
    return row?.due ? new Date(row.due) : null;
  }

  // --- plans (admins) -------------------------------------------------------------------------

  async function toAdminPlans(rows: PlanRow[]): Promise<AdminPlan[]> {
    const used = new Set(
      (await orm.selectDistinct({ planId: subscriptions.planId }).from(subscriptions).where(isNotNull(subscriptions.planId))).map((row) => row.planId),
    );
    const paid = new Set(
      (await orm.selectDistinct({ planId: billingEvents.planId }).from(billingEvents).where(isNotNull(billingEvents.planId))).map((row) => row.planId),
    );
    return rows.map((row) => ({ ...toPlan(row), archived: row.archived, position: row.position, used: used.has(row.id) || paid.has(row.id) }));
  }

  async function adminPlans(): Promise<AdminPlan[]> {
    return toAdminPlans(await orm.select().from(plans).orderBy(asc(plans.archived), asc(plans.position), asc(plans.id)));
  }

  /** The rules a plan's fields follow together (the schema checks each alone). */
  function planProblems(plan: { isFree: boolean; priceStars: number | null; priceCard: number | null; cardCurrency: string | null }): Record<string, DomainMessage[]> {
    const problems: Record<string, DomainMessage[]> = {};
    if ((plan.priceCard === null) !== (plan.cardCurrency === null)) problems[plan.priceCard === null ? 'price_card' : 'card_currency'] = [BILLING_ERRORS.cardCurrencyWithPrice];
    if (plan.isFree && (plan.priceStars !== null || plan.priceCard !== null)) problems.is_free = [BILLING_ERRORS.freePlanPriced];
    return problems;
  }

  async function createPlan(input: AdminPlanInput): Promise<AdminPlan> {
    const values = {
      title: input.title.trim(),
      description: input.description ?? '',
      isFree: input.is_free ?? false,
      maxRunningFunnels: input.limits.running_funnels,
      maxPeople: input.limits.people,
      mailings: input.limits.mailings,
      letters: input.limits.letters,
      priceStars: input.price_stars ?? null,
      priceCard: input.price_card ?? null,
      cardCurrency: input.card_currency ?? null,
      archived: input.archived ?? false,
      position: input.position ?? 0,
    };
    if (!values.title) throw invalidField('title', { code: 'blank', text: 'This field may not be blank.' });
    const problems = planProblems(values);
    if (Object.keys(problems).length > 0) throw invalidFields(problems);
    const [row] = await orm.insert(plans).values(values).returning();
    return (await toAdminPlans([row]))[0];
  }

  async function updatePlan(id: number, patch: AdminPlanPatch): Promise<AdminPlan> {
    const [current] = await orm.select().from(plans).where(eq(plans.id, id)).limit(1);
    if (!current) throw notFound();
    const next = {
      title: patch.title !== undefined ? patch.title.trim() : current.title,
      description: patch.description ?? current.description,
      isFree: patch.is_free ?? current.isFree,
      maxRunningFunnels: patch.limits ? patch.limits.running_funnels : current.maxRunningFunnels,
      maxPeople: patch.limits ? patch.limits.people : current.maxPeople,
      mailings: patch.limits ? patch.limits.mailings : current.mailings,
      letters: patch.limits ? patch.limits.letters : current.letters,
      priceStars: patch.price_stars !== undefined ? patch.price_stars : current.priceStars,
      priceCard: patch.price_card !== undefined ? patch.price_card : current.priceCard,
      cardCurrency: patch.card_currency !== undefined ? patch.card_currency : current.cardCurrency,
      archived: patch.archived ?? current.archived,
      position: patch.position ?? current.position,
    };
    if (!next.title) throw invalidField('title', { code: 'blank', text: 'This field may not be blank.' });
    const problems = planProblems(next);
    if (Object.keys(problems).length > 0) throw invalidFields(problems);
    const [row] = await orm.update(plans).set(next).where(eq(plans.id, id)).returning();
    return (await toAdminPlans([row]))[0];
  }

  /** A plan nobody ever paid for goes; one that was used is archived instead (the ledger and subscriptions name it). */
  async function removePlan(id: number): Promise<{ archived: boolean }> {
    const [plan] = (await adminPlans()).filter((p) => p.id === id);
    if (!plan) throw notFound();
    if (plan.used) {
      await orm.update(plans).set({ archived: true }).where(eq(plans.id, id));
      return { archived: true };
    }
    await orm.delete(plans).where(eq(plans.id, id));
    return { archived: false };
  }

  /** The user's latest applied payment or renewal (for a refund). */
  async function lastPayment(userId: number, method: PaymentMethod) {
    const [row] = await orm
      .select()
      .from(billingEvents)
      .where(and(eq(billingEvents.userId, userId), eq(billingEvents.method, method), sql`${billingEvents.kind} in ('payment', 'renewal')`))
      .orderBy(desc(billingEvents.id))
      .limit(1);
    return row ?? null;
  }

  return {
    entitlements,
    subscription,
    listPlans,
    requireFeature,
    applyEvent,
    registerPaymentMethod,
    setPartnerHooks,
    cancelRenewal,
    cancelLink,
    readCancelToken,
    cancelPreview,
    cancelByToken,
    endIfDue,
    resumeIfEntitled,
    sweep,
    nextDueAt,
    adminPlans,
    createPlan,
    updatePlan,
    removePlan,
    lastPayment,
  };
}

export type BillingService = ReturnType<typeof createBillingService>;
