// Every shape of timed moves (see ../timers.ts). The SPA imports the types only, through contract/timers.ts.
import { Type, type Static } from 'typebox';
import { WAIT_AMOUNT_MAX, WAIT_UNITS } from '../timers';
import { Id, Nullable, StringEnum, Text } from './common';

/**
 * A stage's wait: after `amount` `unit`s in the stage, the person moves to `to_stage_id` (null: that
 * stage was deleted, the wait is broken and the funnel cannot run); with `only_if_silent`, only if
 * they wrote and pressed nothing meanwhile.
 */
export const StageWaitSchema = Type.Object({
  amount: Type.Integer({ minimum: 1, maximum: WAIT_AMOUNT_MAX }),
  unit: StringEnum(WAIT_UNITS),
  to_stage_id: Nullable(Id()),
  only_if_silent: Type.Boolean(),
});
export type StageWait = Static<typeof StageWaitSchema>;

/** A person's waiting timer, on their screen. */
export const PersonTimerSchema = Type.Object({
  id: Type.Integer(),
  stage_id: Type.Integer(),
  /** null: the stage it leads to was deleted (it will move nobody). */
  to_stage_id: Nullable(Type.Integer()),
  due_at: Text(),
  only_if_silent: Type.Boolean(),
});
export type PersonTimer = Static<typeof PersonTimerSchema>;
