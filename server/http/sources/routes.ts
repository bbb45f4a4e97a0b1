// The sources API (issue 24): a funnel's traffic sources and the results by source. Handlers
// parse ids and call server/funnels/sources.ts, which names the signed-in owner in every
// statement: another user's funnel or source is 404.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { SOURCES_PATHS } from '../../../contract/sources';
import { FunnelSourceSchema, SourceBodySchema, SourcePatchSchema, SourceStatsQuerySchema, SourceStatsSchema } from '../../../contract/schemas/sources';
import { parseId } from '../../funnels/access';
import { FUNNEL_ERRORS } from '../../funnels/errors';
import { isTimeZone } from '../../funnels/time-zone';
import { invalidField } from '../../domain-error';
import type { Services } from '../../services';
import { currentUser } from '../auth/authenticate';

export type SourceRoutesDeps = Pick<Services, 'sources'>;

/** Path ids as text: the handler parses them (anything but an id of ours is 404, not 400). */
const funnelParams = Type.Object({ id: Type.String() });
const sourceParams = Type.Object({ id: Type.String(), sourceId: Type.String() });

const ownerOf = (request: FastifyRequest) => currentUser(request).id;

export function sourceRoutes({ sources }: SourceRoutesDeps) {
  return async function plugin(untyped: FastifyInstance): Promise<void> {
    const app = untyped.withTypeProvider<TypeBoxTypeProvider>();

    app.get(SOURCES_PATHS.sources, { schema: { params: funnelParams, response: { 200: Type.Array(FunnelSourceSchema) } } }, async (request) =>
      sources.list(ownerOf(request), parseId(request.params.id)),
    );
    app.post(SOURCES_PATHS.sources, { schema: { params: funnelParams, body: SourceBodySchema, response: { 201: FunnelSourceSchema } } }, async (request, reply) =>
      reply.code(201).send(await sources.create(ownerOf(request), parseId(request.params.id), request.body)),
    );
    app.get(SOURCES_PATHS.stats, { schema: { params: funnelParams, querystring: SourceStatsQuerySchema, response: { 200: SourceStatsSchema } } }, async (request) => {
      const { tz, period } = request.query;
      if (tz !== undefined && !isTimeZone(tz)) throw invalidField('tz', FUNNEL_ERRORS.unknownTimeZone);
      return sources.stats(ownerOf(request), parseId(request.params.id), period ?? 'all', tz ?? 'UTC');
    });
    app.patch(SOURCES_PATHS.source, { schema: { params: sourceParams, body: SourcePatchSchema, response: { 200: FunnelSourceSchema } } }, async (request) =>
      sources.update(ownerOf(request), parseId(request.params.id), parseId(request.params.sourceId), request.body),
    );
    app.delete(SOURCES_PATHS.source, { schema: { params: sourceParams } }, async (request, reply) => {
      await sources.remove(ownerOf(request), parseId(request.params.id), parseId(request.params.sourceId));
      return reply.code(204).send();
    });
  };
}
