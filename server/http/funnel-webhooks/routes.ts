// The webhooks API (issue 24). Signed in: a funnel's incoming URL (and its rotation) and its
// outgoing webhooks, their delivery logs and tests; handlers parse ids and call
// server/funnels/webhooks.ts, which names the owner in every statement (another user's funnel or
// webhook is 404). Public: the incoming webhook itself, whose secret in the path is its credential
// (server/funnels/inbound.ts compares it in constant time; a wrong one is 404).
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { WEBHOOKS_PATHS } from '../../../contract/webhooks';
import {
  FunnelWebhookSchema,
  FunnelWebhookWithSecretSchema,
  InboundEventSchema,
  InboundResultSchema,
  WebhookBodySchema,
  WebhookDeliverySchema,
  WebhookPatchSchema,
  WebhookSettingsSchema,
} from '../../../contract/schemas/webhooks';
import { parseId } from '../../funnels/access';
import type { Services } from '../../services';
import { currentUser } from '../auth/authenticate';

export type WebhookRoutesDeps = Pick<Services, 'webhooks'>;

/** Path ids as text: the handler parses them (anything but an id of ours is 404, not 400). */
const funnelParams = Type.Object({ id: Type.String() });
const webhookParams = Type.Object({ id: Type.String(), webhookId: Type.String() });
const inboundParams = Type.Object({ id: Type.String(), secret: Type.String() });

const ownerOf = (request: FastifyRequest) => currentUser(request).id;

export function funnelWebhookRoutes({ webhooks }: WebhookRoutesDeps) {
  return async function plugin(untyped: FastifyInstance): Promise<void> {
    const app = untyped.withTypeProvider<TypeBoxTypeProvider>();
    const ids = (params: { id: string; webhookId: string }) => [parseId(params.id), parseId(params.webhookId)] as const;

    app.get(WEBHOOKS_PATHS.settings, { schema: { params: funnelParams, response: { 200: WebhookSettingsSchema } } }, async (request) =>
      webhooks.settings(ownerOf(request), parseId(request.params.id)),
    );
    app.post(WEBHOOKS_PATHS.rotateInbound, { schema: { params: funnelParams, response: { 200: WebhookSettingsSchema } } }, async (request) =>
      webhooks.rotateInbound(ownerOf(request), parseId(request.params.id)),
    );
    app.get(WEBHOOKS_PATHS.webhooks, { schema: { params: funnelParams, response: { 200: Type.Array(FunnelWebhookSchema) } } }, async (request) =>
      webhooks.list(ownerOf(request), parseId(request.params.id)),
    );
    app.post(WEBHOOKS_PATHS.webhooks, { schema: { params: funnelParams, body: WebhookBodySchema, response: { 201: FunnelWebhookWithSecretSchema } } }, async (request, reply) =>
      reply.code(201).send(await webhooks.create(ownerOf(request), parseId(request.params.id), request.body)),
    );
    app.get(WEBHOOKS_PATHS.webhook, { schema: { params: webhookParams, response: { 200: FunnelWebhookSchema } } }, async (request) =>
      webhooks.get(ownerOf(request), ...ids(request.params)),
    );
    app.patch(WEBHOOKS_PATHS.webhook, { schema: { params: webhookParams, body: WebhookPatchSchema, response: { 200: FunnelWebhookSchema } } }, async (request) =>
      webhooks.update(ownerOf(request), ...ids(request.params), request.body),
    );
    app.delete(WEBHOOKS_PATHS.webhook, { schema: { params: webhookParams } }, async (request, reply) => {
      await webhooks.remove(ownerOf(request), ...ids(request.params));
      return reply.code(204).send();
    });
    app.post(WEBHOOKS_PATHS.rotateSecret, { schema: { params: webhookParams, response: { 200: FunnelWebhookWithSecretSchema } } }, async (request) =>
      webhooks.rotateSecret(ownerOf(request), ...ids(request.params)),
    );
    app.get(WEBHOOKS_PATHS.deliveries, { schema: { params: webhookParams, response: { 200: Type.Array(WebhookDeliverySchema) } } }, async (request) =>
      webhooks.deliveries(ownerOf(request), ...ids(request.params)),
    );
    app.post(WEBHOOKS_PATHS.test, { schema: { params: webhookParams, response: { 200: WebhookDeliverySchema } } }, async (request) =>
      webhooks.test(ownerOf(request), ...ids(request.params)),
    );
  };
}

export type InboundRoutesDeps = Pick<Services, 'inbound'>;

/** The incoming webhook: no session, the path's secret is the credential. */
export function inboundWebhookRoutes({ inbound }: InboundRoutesDeps) {
  return async function plugin(untyped: FastifyInstance): Promise<void> {
    const app = untyped.withTypeProvider<TypeBoxTypeProvider>();
    app.post(WEBHOOKS_PATHS.inbound, { schema: { params: inboundParams, body: InboundEventSchema, response: { 200: InboundResultSchema } } }, async (request) =>
      inbound.apply(parseId(request.params.id), request.params.secret, request.body),
    );
  };
}
