// The waits API (issue 24, "Wait"): a stage's wait is set (PUT) or cleared (DELETE), and the
// answer is the whole stage. Handlers parse ids and call server/funnels/timers.ts, which names the
// signed-in owner in every statement: another user's funnel or stage is 404.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { StageSchema } from '../../../contract/schemas/funnels';
import { StageWaitSchema } from '../../../contract/schemas/timers';
import { TIMERS_PATHS } from '../../../contract/timers';
import { parseId } from '../../funnels/access';
import type { Services } from '../../services';
import { currentUser } from '../auth/authenticate';

export type TimerRoutesDeps = Pick<Services, 'timers'>;

/** Path ids as text: the handler parses them (anything but an id of ours is 404, not 400). */
const stageParams = Type.Object({ id: Type.String(), stageId: Type.String() });

const ownerOf = (request: FastifyRequest) => currentUser(request).id;

export function timerRoutes({ timers }: TimerRoutesDeps) {
  return async function plugin(untyped: FastifyInstance): Promise<void> {
    const app = untyped.withTypeProvider<TypeBoxTypeProvider>();

    app.put(TIMERS_PATHS.stageWait, { schema: { params: stageParams, body: StageWaitSchema, response: { 200: StageSchema } } }, async (request) =>
      timers.setWait(ownerOf(request), parseId(request.params.id), parseId(request.params.stageId), request.body),
    );
    app.delete(TIMERS_PATHS.stageWait, { schema: { params: stageParams, response: { 200: StageSchema } } }, async (request) =>
      timers.clearWait(ownerOf(request), parseId(request.params.id), parseId(request.params.stageId)),
    );
  };
}
