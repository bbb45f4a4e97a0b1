// Payments inside a funnel (issue 24, "Sell"): a stage's Stars invoice (its settings), a person's
// payments, and the owner's refund of one. The bot runtime sends the invoice, answers the
// pre-checkout and records the payment (bots/runtime/behaviours/payment.ts); the statements that
// record a payment or a refund and move the person are in outbox/sql.ts (PAY_PERSON, REFUND_PAYMENT).
import type { Api } from 'grammy';
import type { Config } from '../config';
import type { Stage } from '../../contract/funnels';
import type { PersonPayment, StagePayment } from '../../contract/payments';
import type { Db } from '../db';
import { isoTime } from '../db/raw';
import { REFUND_PAYMENT } from '../outbox/sql';
import { COMMON_ERRORS, type DomainError, type DomainMessage, invalid, invalidFields, notFound, unavailable } from '../domain-error';
import { ownedFunnel } from './access';
import { telegramRefusal } from './bot-api';
import { FUNNEL_ERRORS } from './errors';
import { idleFunnelRuntime, type FunnelRuntimePort } from './runtime-port';
import { decryptBotToken } from './secret-box';
import type { StageService } from './stages';

/** The Bot API call a refund makes, with the funnel's own bot (its Stars are in that bot's balance). */
export type RefundBotApi = Pick<Api, 'refundStarPayment'>;

export interface PaymentServiceDeps {
  db: Db;
  config: Pick<Config, 'secretKey'>;
  stages: Pick<StageService, 'get'>;
  /** A client for a bot's token (one attempt, a short timeout). */
  botApi: (token: string) => RefundBotApi;
  runtime?: Pick<FunnelRuntimePort, 'stagesChanged'>;
}

/** The messages of payments (http/errors.ts gives each its status and Djoser-shaped body). */
export const PAYMENT_ERRORS = {
  notNull: { code: 'null', text: 'This field may not be null.' },
  alreadyRefunded: { code: 'payment_refunded', text: 'This payment has been refunded already.' },
  notRefundable: { code: 'payment_not_refundable', text: 'Only a payment in Telegram Stars can be refunded here.' },
  chargeNotFound: { code: 'charge_not_found', text: 'Telegram does not know this payment: it cannot be refunded.' },
  balanceTooLow: { code: 'balance_too_low', text: "The bot's Star balance is too low for this refund." },
  brokenPayment: (stageTitle: string): DomainMessage => ({
    code: 'broken_payment',
    text: `The payment of the stage “${stageTitle}” leads to a deleted stage. Choose another stage for it.`,
    detail: stageTitle,
  }),
} as const satisfies Record<string, DomainMessage | ((...args: never[]) => DomainMessage)>;

interface PaymentRow {
  id: string | number;
  stage_id: number | null;
  amount: number;
  currency: string;
  provider: PersonPayment['provider'];
  charge_id: string;
  state: PersonPayment['state'];
  created_at: Date | string;
  refunded_at: Date | string | null;
}

const PAYMENT_COLUMNS = 'fp.id, fp.stage_id, fp.amount, fp.currency, fp.provider, fp.charge_id, fp.state, fp.created_at, fp.refunded_at';

const toPersonPayment = (row: PaymentRow): PersonPayment => ({
  id: Number(row.id),
  stage_id: row.stage_id,
  amount: row.amount,
  currency: row.currency,
  provider: row.provider,
  charge_id: row.charge_id,
  state: row.state,
  created_at: isoTime(row.created_at),
  refunded_at: row.refunded_at === null ? null : isoTime(row.refunded_at),
});

/** A person's payments, newest first (the caller checked the owner). */
export async function paymentsOfPerson(db: Db, personId: number): Promise<PersonPayment[]> {
  const rows = await db.query<PaymentRow>(`select ${PAYMENT_COLUMNS} from funnel_payments fp where fp.person_id = $1 order by fp.created_at desc, fp.id desc`, [personId]);
  return rows.map(toPersonPayment);
}

/** Payments that count as revenue (state paid: a refunded one does not): how many, and their Stars. */
export interface Revenue {
  paid: number;
  revenue: number;
}

/**
 * Revenue of each funnel since `since` (null: all time), in total and per payment stage (by when
 * the payment was made). The caller checked the owner.
 */
export async function revenueOf(db: Db, funnelIds: number[], since: Date | null): Promise<Map<number, Revenue & { stages: Map<number, Revenue> }>> {
  const result = new Map(funnelIds.map((id) => [id, { paid: 0, revenue: 0, stages: new Map<number, Revenue>() }]));
  if (funnelIds.length === 0) return result;
  const rows = await db.query<{ funnel_id: number; stage_id: number | null; paid: number; revenue: string | number }>(
    // Revenue is in Stars: a payment marked paid from elsewhere in another currency counts as paid, not as Stars.
    `select funnel_id, stage_id, count(*)::int as paid, coalesce(sum(amount) filter (where currency = 'XTR'), 0)::bigint as revenue from funnel_payments
      where funnel_id = any($1::int[]) and state = 'paid' and ($2::timestamptz is null or created_at >= $2::timestamptz)
      group by funnel_id, stage_id`,
    [funnelIds, since?.toISOString() ?? null],
  );
  for (const row of rows) {
    const funnel = result.get(row.funnel_id);
    if (!funnel) continue;
    const figures = { paid: row.paid, revenue: Number(row.revenue) };
    funnel.paid += figures.paid;
    funnel.revenue += figures.revenue;
    if (row.stage_id !== null) funnel.stages.set(row.stage_id, figures);
  }
  return result;
}

/** The problems of a funnel's payment stages that stop it from running: a paid or refund stage that was deleted. */
export function paymentProblems(list: ReadonlyArray<{ id: number; title: string; payment: StagePayment | null }>): DomainMessage[] {
  const stageIds = new Set(list.map((s) => s.id));
  const leadsNowhere = (id: number | null) => id === null || !stageIds.has(id);
  return list
    .filter((stage) => stage.payment && (leadsNowhere(stage.payment.paid_stage_id) || leadsNowhere(stage.payment.refund_stage_id)))
    .map((stage) => PAYMENT_ERRORS.brokenPayment(stage.title));
}

export function createPaymentService({ db, config, stages, botApi, runtime = idleFunnelRuntime }: PaymentServiceDeps) {
  const orm = db.orm;

  /** Sets the stage's invoice: Telegram's limits, and a paid and a refund stage of the same funnel. */
  async function setStagePayment(ownerId: number, funnelId: number, stageId: number, body: StagePayment): Promise<Stage> {
    await ownedFunnel(orm, ownerId, funnelId);
    const funnelStageIds = new Set(
      (await db.query<{ id: number }>('select id from stages where funnel_id = $1', [funnelId])).map((s) => s.id),
    );
    if (!funnelStageIds.has(stageId)) throw notFound();
    const problems: Record<string, DomainMessage[]> = {};
    const title = body.title.trim();
    const description = body.description.trim();
    if (!title) problems.title = [COMMON_ERRORS.blank];
    if (!description) problems.description = [COMMON_ERRORS.blank];
    for (const field of ['paid_stage_id', 'refund_stage_id'] as const) {
      const id = body[field];
      if (id === null) problems[field] = [PAYMENT_ERRORS.notNull];
      else if (!funnelStageIds.has(id)) problems[field] = [COMMON_ERRORS.doesNotExist(id)];
    }
    if (Object.keys(problems).length > 0) throw invalidFields(problems);
    const payment: StagePayment = { title, description, amount: body.amount, paid_stage_id: body.paid_stage_id, refund_stage_id: body.refund_stage_id };
    // The owner is in the write's own WHERE.
    const updated = await db.query<{ id: number }>(
      `update stages s set payment = $4::jsonb from funnels f
        where s.id = $3 and s.funnel_id = $2 and f.id = s.funnel_id and f.owner_id = $1 returning s.id`,
      [ownerId, funnelId, stageId, JSON.stringify(payment)],
    );
    if (updated.length === 0) throw notFound();
    runtime.stagesChanged(funnelId);
    return stages.get(ownerId, stageId);
  }

  async function clearStagePayment(ownerId: number, funnelId: number, stageId: number): Promise<Stage> {
    const updated = await db.query<{ id: number }>(
      `update stages s set payment = null from funnels f
        where s.id = $3 and s.funnel_id = $2 and f.id = s.funnel_id and f.owner_id = $1 returning s.id`,
      [ownerId, funnelId, stageId],
    );
    if (updated.length === 0) throw notFound();
    runtime.stagesChanged(funnelId);
    return stages.get(ownerId, stageId);
  }

  async function ownedPayment(ownerId: number, funnelId: number, personId: number, paymentId: number) {
    const [row] = await db.query<PaymentRow & { telegram_id: string | number }>(
      `select ${PAYMENT_COLUMNS}, p.telegram_id from funnel_payments fp join people p on p.id = fp.person_id join funnels f on f.id = fp.funnel_id
        where fp.id = $4 and fp.person_id = $3 and fp.funnel_id = $2 and f.owner_id = $1`,
      [ownerId, funnelId, personId, paymentId],
    );
    if (!row) throw notFound();
    return row;
  }

  /** Telegram's refusal of a refund, in the owner's words. */
  function refundRefused(error: unknown): DomainError {
    const refusal = telegramRefusal(error);
    if (!refusal) return unavailable(FUNNEL_ERRORS.telegramDown);
    if (refusal.error_code === 401 || refusal.error_code === 404) return invalid(FUNNEL_ERRORS.tokenRevoked);
    if (refusal.error_code >= 500 || refusal.error_code === 429) return unavailable(FUNNEL_ERRORS.telegramDown);
    const description = refusal.description;
    if (description.includes('CHARGE_ALREADY_REFUNDED')) return invalid(PAYMENT_ERRORS.alreadyRefunded);
    if (description.includes('CHARGE_NOT_FOUND') || description.includes('CHARGE_ID_INVALID')) return invalid(PAYMENT_ERRORS.chargeNotFound);
    if (description.includes('BALANCE_TOO_LOW')) return invalid(PAYMENT_ERRORS.balanceTooLow);
    return invalid(FUNNEL_ERRORS.telegramRefused(description));
  }

  /**
   * Refunds a Stars payment through the funnel's own bot; once Telegram has, the payment is
   * refunded and the person moves to the stage for refunds (its message goes through the running
   * bot). Telegram saying it was refunded already (by Telegram itself) records that too.
   */
  async function refund(ownerId: number, funnelId: number, personId: number, paymentId: number): Promise<PersonPayment> {
    const payment = await ownedPayment(ownerId, funnelId, personId, paymentId);
    if (payment.state === 'refunded') throw invalid(PAYMENT_ERRORS.alreadyRefunded);
    if (payment.provider !== 'stars') throw invalid(PAYMENT_ERRORS.notRefundable);
    const funnel = await ownedFunnel(orm, ownerId, funnelId);
    if (funnel.botTokenEncrypted === null) throw invalid(FUNNEL_ERRORS.noBot);
    const api = botApi(decryptBotToken(funnel, config));
    let failure: DomainError | null = null;
    try {
      await api.refundStarPayment(Number(payment.telegram_id), payment.charge_id);
    } catch (error) {
      failure = refundRefused(error);
      if (failure.detail.code !== PAYMENT_ERRORS.alreadyRefunded.code) throw failure;
    }
    // Telegram refunded it (now, or before): recorded once, whoever records it first (the bot
    // also hears refunded_payment and records it the same way).
    await db.query(REFUND_PAYMENT, [funnelId, payment.charge_id, null, null, null]);
    if (failure) throw failure;
    return toPersonPayment(await ownedPayment(ownerId, funnelId, personId, paymentId));
  }

  return { setStagePayment, clearStagePayment, refund };
}

export type PaymentService = ReturnType<typeof createPaymentService>;
