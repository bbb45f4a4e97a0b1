// Tests only (TEST_CLOCK=1, never in production): "an hour passes" for the signed-in user's
// series of letters. The TestClock service (server/letters/test-clock.ts) moves the schedule; this
// plugin, registered only when that service exists, checks who is asking and calls it.
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Sessions } from '../../accounts/sessions';
import { TEST_CLOCK_MAX_ADVANCE_S, type TestClock } from '../../letters/test-clock';
import { currentUser, requireAuth } from '../auth/authenticate';

export const TEST_CLOCK_PATH = '/api/test/clock/';

export function testClockRoutes({ testClock, sessions }: { testClock: TestClock; sessions: Sessions }) {
  return async function plugin(untyped: FastifyInstance): Promise<void> {
    const app = untyped.withTypeProvider<TypeBoxTypeProvider>();
    app.addHook('onRequest', requireAuth(sessions));
    app.post(TEST_CLOCK_PATH, { schema: { body: Type.Object({ advance_seconds: Type.Integer({ minimum: 1, maximum: TEST_CLOCK_MAX_ADVANCE_S }) }) } }, async (request, reply) => {
      await testClock.advance(currentUser(request).id, request.body.advance_seconds);
      return reply.code(204).send();
    });
  };
}
