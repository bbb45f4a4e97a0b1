// Stages' waits (issue 24, "Wait"): after a while in a stage, a person moves on by themselves.
// The owner sets or clears a stage's wait here; the database makes and cancels each person's
// timer (stage_moves' trigger, migration 0023) and the delivery engine fires them
// (outbox/timer-scheduler.ts). A stage must lead to another stage of the same funnel.
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Stage } from '../../contract/funnels';
import { WAIT_MAX_SECONDS, waitSeconds, type StageWait } from '../../contract/timers';
import type { Db } from '../db';
import { stages } from '../db/schema';
import { COMMON_ERRORS, invalidField, notFound } from '../domain-error';
import { ownedFunnel, ownersFunnelIds } from './access';
import { FUNNEL_ERRORS } from './errors';
import { idleFunnelRuntime, type FunnelRuntimePort } from './runtime-port';
import type { StageService } from './stages';

export interface TimerServiceDeps {
  db: Db;
  stages: Pick<StageService, 'one'>;
  runtime?: Pick<FunnelRuntimePort, 'stagesChanged'>;
}

export function createTimerService({ db, stages: stageService, runtime = idleFunnelRuntime }: TimerServiceDeps) {
  const orm = db.orm;

  /** The stage's row, only if it is of this funnel and the funnel is the owner's (else 404). */
  async function ownedStageOf(ownerId: number, funnelId: number, stageId: number) {
    await ownedFunnel(orm, ownerId, funnelId);
    const [row] = await orm.select().from(stages).where(and(eq(stages.id, stageId), eq(stages.funnelId, funnelId))).limit(1);
    if (!row) throw notFound();
    return row;
  }

  /** The write's WHERE: this stage of this funnel, only if the funnel is the owner's. */
  const ownersStage = (ownerId: number, funnelId: number, stageId: number) =>
    and(eq(stages.id, stageId), eq(stages.funnelId, funnelId), inArray(stages.funnelId, ownersFunnelIds(orm, ownerId)));

  /** Sets the stage's wait; people who reach the stage from now on get its timer (due after its length). */
  async function setWait(ownerId: number, funnelId: number, stageId: number, body: StageWait): Promise<Stage> {
    await ownedStageOf(ownerId, funnelId, stageId);
    if (waitSeconds(body) > WAIT_MAX_SECONDS) throw invalidField('amount', FUNNEL_ERRORS.waitTooLong);
    if (body.to_stage_id !== null) {
      if (body.to_stage_id === stageId) throw invalidField('to_stage_id', FUNNEL_ERRORS.waitToItself);
      const [target] = await orm.select({ id: stages.id }).from(stages).where(and(eq(stages.id, body.to_stage_id), eq(stages.funnelId, funnelId))).limit(1);
      if (!target) throw invalidField('to_stage_id', COMMON_ERRORS.doesNotExist(body.to_stage_id));
    }
    const wait: StageWait = { amount: body.amount, unit: body.unit, to_stage_id: body.to_stage_id, only_if_silent: body.only_if_silent };
    const row = await orm.transaction(async (tx) => {
      const [updated] = await tx.update(stages).set({ wait }).where(ownersStage(ownerId, funnelId, stageId)).returning();
      if (!updated) throw notFound();
      // Timers already waiting in the stage keep their moment but lead where the wait leads now.
      await tx.execute(
        sql`update person_timers set to_stage_id = ${body.to_stage_id}, only_if_silent = ${body.only_if_silent} where stage_id = ${stageId} and state = 'waiting'`,
      );
      return updated;
    });
    runtime.stagesChanged(funnelId);
    return stageService.one(row);
  }

  /** Clears the stage's wait; timers already waiting in it are cancelled (nobody is moved by a wait that is gone). */
  async function clearWait(ownerId: number, funnelId: number, stageId: number): Promise<Stage> {
    await ownedStageOf(ownerId, funnelId, stageId);
    const row = await orm.transaction(async (tx) => {
      const [updated] = await tx.update(stages).set({ wait: null }).where(ownersStage(ownerId, funnelId, stageId)).returning();
      if (!updated) throw notFound();
      await tx.execute(sql`update person_timers set state = 'cancelled' where stage_id = ${stageId} and state = 'waiting'`);
      return updated;
    });
    runtime.stagesChanged(funnelId);
    return stageService.one(row);
  }

  return { setWait, clearWait };
}

export type TimerService = ReturnType<typeof createTimerService>;
