// Tests only (TEST_CLOCK=1, never in production): "an hour passes" for the signed-in user's
// series of letters, by moving their schedule back instead of waiting — members' joining, the
// series' start and every waiting moment, so the engine then finds them due as it would have.
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Sessions } from '../../accounts/sessions';
import type { Db } from '../../db';
import { currentUser, requireAuth } from '../auth/authenticate';

export const TEST_CLOCK_PATH = '/api/test/clock/';

export function testClockRoutes({ db, sessions }: { db: Db; sessions: Sessions }) {
  return async function plugin(untyped: FastifyInstance): Promise<void> {
    const app = untyped.withTypeProvider<TypeBoxTypeProvider>();
    app.addHook('onRequest', requireAuth(sessions));
    app.post(TEST_CLOCK_PATH, { schema: { body: Type.Object({ advance_seconds: Type.Integer({ minimum: 1, maximum: 400 * 86_400 }) }) } }, async (request, reply) => {
      const owner = currentUser(request).id;
      const shift = [owner, request.body.advance_seconds];
      const mine = `(select s.id from letter_series s join funnels f on f.id = s.funnel_id where f.owner_id = $1)`;
      await db.query(`update letter_series set enabled_at = enabled_at - make_interval(secs => $2) where id in ${mine}`, shift);
      await db.query(`update series_members set joined_at = joined_at - make_interval(secs => $2) where series_id in ${mine}`, shift);
      await db.query(
        `update outbox set moment = moment - make_interval(secs => $2), anchor = anchor - make_interval(secs => $2), not_before = not_before - make_interval(secs => $2)
          where series_id in ${mine} and state = 'waiting'`,
        shift,
      );
      return reply.code(204).send();
    });
  };
}
