// Stages' waits (contract/timers.ts), on the authenticated client. Only the funnel screens import
// this, so it loads with their chunks.
import type { Stage } from '../../contract/funnels';
import { TIMERS_API, type StageWait } from '../../contract/timers';
import { apiPath, authClient } from './clients';

export const setStageWait = (funnelId: number, stageId: number, wait: StageWait) =>
  authClient.put(apiPath(TIMERS_API.stageWait(funnelId, stageId)), { json: wait }).json<Stage>();
export const clearStageWait = (funnelId: number, stageId: number) => authClient.delete(apiPath(TIMERS_API.stageWait(funnelId, stageId))).json<Stage>();
