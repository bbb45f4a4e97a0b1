// The fields API (issue 24, "ask and remember"): a funnel's fields, a stage's question, and a
// person's values. Handlers parse ids and call server/funnels/fields.ts, which names the signed-in
// owner in every statement: another user's funnel, field, stage or person is 404.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { FIELDS_PATHS } from '../../../contract/fields';
import { FieldBodySchema, FieldPatchSchema, FunnelFieldSchema, PersonFieldBodySchema, PersonFieldValueSchema, StageAskSchema } from '../../../contract/schemas/fields';
import { StageSchema } from '../../../contract/schemas/funnels';
import { parseId } from '../../funnels/access';
import type { Services } from '../../services';
import { currentUser } from '../auth/authenticate';

export type FieldRoutesDeps = Pick<Services, 'fields'>;

/** Path ids as text: the handler parses them (anything but an id of ours is 404, not 400). */
const funnelParams = Type.Object({ id: Type.String() });
const fieldParams = Type.Object({ id: Type.String(), fieldId: Type.String() });
const stageParams = Type.Object({ id: Type.String(), stageId: Type.String() });

const ownerOf = (request: FastifyRequest) => currentUser(request).id;

export function fieldRoutes({ fields }: FieldRoutesDeps) {
  return async function plugin(untyped: FastifyInstance): Promise<void> {
    const app = untyped.withTypeProvider<TypeBoxTypeProvider>();

    app.get(FIELDS_PATHS.fields, { schema: { params: funnelParams, response: { 200: Type.Array(FunnelFieldSchema) } } }, async (request) =>
      fields.list(ownerOf(request), parseId(request.params.id)),
    );
    app.post(FIELDS_PATHS.fields, { schema: { params: funnelParams, body: FieldBodySchema, response: { 201: FunnelFieldSchema } } }, async (request, reply) =>
      reply.code(201).send(await fields.create(ownerOf(request), parseId(request.params.id), request.body)),
    );
    app.get(FIELDS_PATHS.field, { schema: { params: fieldParams, response: { 200: FunnelFieldSchema } } }, async (request) =>
      fields.get(ownerOf(request), parseId(request.params.id), parseId(request.params.fieldId)),
    );
    app.patch(FIELDS_PATHS.field, { schema: { params: fieldParams, body: FieldPatchSchema, response: { 200: FunnelFieldSchema } } }, async (request) =>
      fields.update(ownerOf(request), parseId(request.params.id), parseId(request.params.fieldId), request.body),
    );
    app.delete(FIELDS_PATHS.field, { schema: { params: fieldParams } }, async (request, reply) => {
      await fields.remove(ownerOf(request), parseId(request.params.id), parseId(request.params.fieldId));
      return reply.code(204).send();
    });
    app.put(FIELDS_PATHS.stageAsk, { schema: { params: stageParams, body: StageAskSchema, response: { 200: StageSchema } } }, async (request) =>
      fields.setAsk(ownerOf(request), parseId(request.params.id), parseId(request.params.stageId), request.body),
    );
    app.delete(FIELDS_PATHS.stageAsk, { schema: { params: stageParams, response: { 200: StageSchema } } }, async (request) =>
      fields.clearAsk(ownerOf(request), parseId(request.params.id), parseId(request.params.stageId)),
    );
    app.put(
      FIELDS_PATHS.personField,
      { schema: { params: fieldParams, body: PersonFieldBodySchema, response: { 200: Type.Array(PersonFieldValueSchema) } } },
      async (request) => fields.setPersonValue(ownerOf(request), parseId(request.params.id), parseId(request.params.fieldId), request.body.value),
    );
  };
}
