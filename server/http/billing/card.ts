// Card payments over HTTP: the checkout (signed in) and the provider's webhook (no login: the
// provider's signature over the exact bytes is the proof, so this one route reads its body raw).
// A webhook the provider did not sign is 400 and changes nothing; one already recorded is 200 and
// changes nothing; one that cannot be decided now (a refund before its payment, the provider
// unreachable) is 503, so the provider delivers it again.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { BILLING_PATHS } from '../../../contract/billing';
import { CancelTokenSchema, CardCheckoutSchema, PlanChoiceSchema } from '../../../contract/schemas/billing';
import type { CardPayments } from '../../billing/card/card';
import { currentUser } from '../auth/authenticate';

/** Stripe's header; other providers would name theirs here. */
export const CARD_SIGNATURE_HEADER = 'stripe-signature';
/** A provider's event is a few kilobytes; anything far larger is not one. */
const WEBHOOK_BODY_LIMIT = 512 * 1024;
/** How long the provider is asked to wait before delivering a refund again. */
export const REFUND_RETRY_AFTER_S = 60;

export const CARD_WEBHOOK_MESSAGES = {
  badSignature: 'Invalid signature.',
  notNow: 'The event cannot be recorded now; deliver it again later.',
} as const;

const detailSchema = Type.Object({ detail: Type.String() });

/** POST /api/billing/card/checkout/ (inside the signed-in scope). */
export function cardCheckoutRoutes({ card }: { card: CardPayments }) {
  return async function cardCheckoutPlugin(untyped: FastifyInstance): Promise<void> {
    const app = untyped.withTypeProvider<TypeBoxTypeProvider>();
    app.post(
      BILLING_PATHS.cardCheckout,
      { schema: { body: PlanChoiceSchema, response: { 200: CardCheckoutSchema } } },
      async (request) => card.checkout(currentUser(request).id, request.body.plan_id),
    );
  };
}

/** POST /api/billing/card/webhook/ (outside the signed-in scope). */
export function cardWebhookRoutes({ card }: { card: CardPayments }) {
  return async function cardWebhookPlugin(app: FastifyInstance): Promise<void> {
    // This plugin's own parsers: the body stays the bytes the provider signed, whatever its type.
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: WEBHOOK_BODY_LIMIT }, (_request, body, done) => done(null, body));
    app.post<{ Body: Buffer | undefined }>(
      BILLING_PATHS.cardWebhook,
      { schema: { response: { 200: Type.Object({ received: Type.Boolean() }), 400: detailSchema, 503: detailSchema } } },
      async (request, reply) => {
        const signature = request.headers[CARD_SIGNATURE_HEADER];
        const result = await card.receiveWebhook(request.body ?? Buffer.alloc(0), typeof signature === 'string' ? signature : undefined);
        switch (result.outcome) {
          case 'refused':
            request.log.warn({ reason: result.reason }, 'card webhook refused');
            return reply.code(400).send({ detail: CARD_WEBHOOK_MESSAGES.badSignature });
          case 'retry_later':
            return reply.code(503).header('retry-after', String(REFUND_RETRY_AFTER_S)).send({ detail: CARD_WEBHOOK_MESSAGES.notNow });
          default:
            return reply.code(200).send({ received: true });
        }
      },
    );
  };
}

/**
 * GET /api/billing/card/portal/?token= (no login: the signed token is the proof): 303 to a fresh
 * session of the provider's customer portal, made now because its URL is short-lived.
 */
export function cardPortalRoutes({ card }: { card: CardPayments }) {
  return async function cardPortalPlugin(untyped: FastifyInstance): Promise<void> {
    const app = untyped.withTypeProvider<TypeBoxTypeProvider>();
    app.get(BILLING_PATHS.cardPortal, { schema: { querystring: CancelTokenSchema } }, async (request, reply) =>
      reply.header('cache-control', 'no-store').redirect(await card.portalRedirect(request.query.token), 303),
    );
  };
}
