// Telegram's deliveries to funnel bots in webhook mode: POST /telegram/funnels/:id with the
// funnel's secret token in a header. This plugin checks the token and hands the update to the bot
// runtime through its FunnelWebhookPort (server/bots/runtime/webhook-port.ts); the runtime knows
// no HTTP. A non-2xx makes Telegram deliver the update again later, so only what Telegram must
// not retry forever is answered 200.
import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Update } from 'grammy/types';
import { Type } from 'typebox';
import {
  FUNNEL_WEBHOOK_PATH,
  funnelWebhookSecret,
  WEBHOOK_SECRET_HEADER,
  type FunnelWebhookPort,
} from '../../bots/runtime/webhook-port';
import { MESSAGES } from '../errors';

export const WEBHOOK_MESSAGES = {
  badSecret: 'Invalid secret token.',
  stopping: 'The server is shutting down; deliver the update again later.',
  notTaken: 'The update could not be taken now; deliver it again later.',
} as const;

/** What a 503 asks Telegram to wait before delivering again (it retries on its own schedule anyway). */
export const STOPPING_RETRY_AFTER_S = 5;
/** The same while the database is unavailable. */
export const NOT_TAKEN_RETRY_AFTER_S = 2;

export interface WebhookRoutesDeps {
  /** SECRET_KEY: each funnel's webhook secret is derived from it. */
  secretKey: string;
  webhooks: FunnelWebhookPort;
}

/** A funnel id in the path: a positive integer. */
const FUNNEL_ID_PATTERN = '^[1-9][0-9]{0,14}$';

// Telegram's strings, not the contract's: plain TypeBox strings (no contract format or keyword), so
// the plugin also works on an app without the API's ajv set-up (server/bots/runtime/database-outage.test.ts).
const paramsSchema = Type.Object({ id: Type.String({ pattern: FUNNEL_ID_PATTERN }) });
/** An update: Telegram's whole object is passed on as it came; only update_id is required here. */
const updateSchema = Type.Object({ update_id: Type.Integer({ minimum: 0 }) });
const detailSchema = Type.Object({ detail: Type.String() });

function sameSecret(given: unknown, expected: string): boolean {
  if (typeof given !== 'string' || given.length !== expected.length) return false;
  return timingSafeEqual(Buffer.from(given), Buffer.from(expected));
}

export function webhookRoutes({ secretKey, webhooks }: WebhookRoutesDeps) {
  /** Before the body is read or validated: a delivery without the funnel's secret goes no further. */
  async function checkSecret(request: FastifyRequest<{ Params: { id: string } }>, reply: FastifyReply) {
    const id = Number(request.params.id);
    if (!new RegExp(FUNNEL_ID_PATTERN).test(request.params.id)) return reply.code(404).send({ detail: MESSAGES.notFound });
    if (!sameSecret(request.headers[WEBHOOK_SECRET_HEADER], funnelWebhookSecret(secretKey, id))) {
      return reply.code(401).send({ detail: WEBHOOK_MESSAGES.badSecret });
    }
  }

  return async function funnelWebhookPlugin(app: FastifyInstance): Promise<void> {
    app.post<{ Params: { id: string }; Body: Update }>(
      FUNNEL_WEBHOOK_PATH,
      {
        onRequest: checkSecret,
        schema: {
          params: paramsSchema,
          body: updateSchema,
          response: { 200: Type.Object({}), 401: detailSchema, 404: detailSchema, 503: detailSchema },
        },
      },
      async (request, reply) => {
        const outcome = await webhooks.deliver(Number(request.params.id), request.body);
        if (outcome === 'unknown') return reply.code(404).send({ detail: MESSAGES.notFound });
        if (outcome === 'unavailable') {
          return reply.code(503).header('retry-after', String(STOPPING_RETRY_AFTER_S)).send({ detail: WEBHOOK_MESSAGES.stopping });
        }
        if (outcome === 'not_taken') {
          return reply.code(503).header('retry-after', String(NOT_TAKEN_RETRY_AFTER_S)).send({ detail: WEBHOOK_MESSAGES.notTaken });
        }
        return reply.code(200).send({});
      },
    );
  };
}
