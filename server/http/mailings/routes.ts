// The mailings API (issue 9): handlers parse ids and call server/mailings; every lookup names the
// signed-in owner through the mailing's funnel, so another user's mailing is 404.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { MAILINGS_PATHS } from '../../../contract/mailings';
import { parseId } from '../../funnels/access';
import type { Services } from '../../services';
import { currentUser } from '../auth/authenticate';
import * as schemas from './schemas';

export type MailingRoutesDeps = Pick<Services, 'mailings'>;

const ownerOf = (request: FastifyRequest) => currentUser(request).id;
const idOf = (request: { params: { id: string } }) => parseId(request.params.id);
const num = (v: string | undefined) => (v === undefined ? undefined : Number(v));

export function mailingRoutes(deps: MailingRoutesDeps) {
  const { mailings } = deps;
  return async function plugin(untyped: FastifyInstance): Promise<void> {
    const app = untyped.withTypeProvider<TypeBoxTypeProvider>();

    app.get(MAILINGS_PATHS.mailings, { schema: schemas.listSchema }, async (request) => mailings.list(ownerOf(request), idOf(request)));
    app.post(MAILINGS_PATHS.mailings, { schema: schemas.createSchema }, async (request, reply) =>
      reply.code(201).send(await mailings.create(ownerOf(request), idOf(request), request.body)),
    );
    app.post(MAILINGS_PATHS.audience, { schema: schemas.audienceSchema }, async (request) => ({
      count: await mailings.audienceCount(ownerOf(request), idOf(request), request.body),
    }));
    app.get(MAILINGS_PATHS.mailing, { schema: schemas.mailingSchema }, async (request) => mailings.get(ownerOf(request), idOf(request)));
    app.patch(MAILINGS_PATHS.mailing, { schema: schemas.updateSchema }, async (request) =>
      mailings.update(ownerOf(request), idOf(request), request.body),
    );
    app.delete(MAILINGS_PATHS.mailing, { schema: schemas.byIdSchema }, async (request, reply) => {
      await mailings.remove(ownerOf(request), idOf(request));
      return reply.code(204).send();
    });
    app.get(MAILINGS_PATHS.check, { schema: schemas.checkSchema }, async (request) => mailings.check(ownerOf(request), idOf(request)));
    app.post(MAILINGS_PATHS.send, { schema: schemas.sendSchema }, async (request) =>
      mailings.send(ownerOf(request), idOf(request), request.body?.scheduled_at),
    );
    app.post(MAILINGS_PATHS.pause, { schema: schemas.mailingSchema }, async (request) => mailings.pause(ownerOf(request), idOf(request)));
    app.post(MAILINGS_PATHS.resume, { schema: schemas.mailingSchema }, async (request) => mailings.resume(ownerOf(request), idOf(request)));
    app.post(MAILINGS_PATHS.cancel, { schema: schemas.mailingSchema }, async (request) => mailings.cancel(ownerOf(request), idOf(request)));
    app.post(MAILINGS_PATHS.unsend, { schema: schemas.mailingSchema }, async (request) => mailings.unsend(ownerOf(request), idOf(request)));
    app.get(MAILINGS_PATHS.recipients, { schema: schemas.recipientsSchema }, async (request) =>
      mailings.recipients(ownerOf(request), idOf(request), {
        state: request.query.state,
        limit: num(request.query.limit),
        offset: num(request.query.offset),
      }),
    );
  };
}
