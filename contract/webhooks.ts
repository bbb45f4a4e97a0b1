// Webhooks of a funnel (issue 24). Outgoing: the funnel POSTs its events (a person reached a
// stage, got a tag, answered a field, paid, was refunded, blocked the bot) as signed JSON to the
// owner's URLs. Incoming: other systems (the owner's course platform, card processor) POST an
// action for a person to the funnel's signed URL. Limits, paths and headers; the shapes are
// TypeBox schemas in ./schemas/webhooks.ts (types re-exported here).
import { fillPath } from './paths';

export const WEBHOOK_EVENTS = ['stage.reached', 'tag.added', 'field.answered', 'payment.paid', 'payment.refunded', 'person.blocked'] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

/** The event of "Send a test" (sent once, never retried, not in the log's counts of real events). */
export const WEBHOOK_TEST_EVENT = 'webhook.test';

export const WEBHOOK_URL_MAX = 2048;
export const WEBHOOKS_MAX = 10;
/** The delivery log shows this many, newest first. */
export const WEBHOOK_LOG_SIZE = 50;

/** Headers of every outgoing POST. The signature is `sha256=<hex HMAC-SHA256 of the raw body, keyed with the webhook's secret>`. */
export const WEBHOOK_SIGNATURE_HEADER = 'X-Funnel-Signature';
export const WEBHOOK_EVENT_HEADER = 'X-Funnel-Event';
/** The event's id: the same on every retry, so the receiver can drop repeats. */
export const WEBHOOK_DELIVERY_HEADER = 'X-Funnel-Delivery';

export const INBOUND_ACTIONS = ['go_to_stage', 'add_tag', 'set_field', 'mark_paid'] as const;
export type InboundAction = (typeof INBOUND_ACTIONS)[number];
export const INBOUND_EVENT_ID_MAX = 128;

export const WEBHOOKS_PATHS = {
  settings: '/api/funnels/:id/webhooks/settings/',
  rotateInbound: '/api/funnels/:id/webhooks/settings/rotate/',
  webhooks: '/api/funnels/:id/webhooks/',
  webhook: '/api/funnels/:id/webhooks/:webhookId/',
  rotateSecret: '/api/funnels/:id/webhooks/:webhookId/secret/',
  deliveries: '/api/funnels/:id/webhooks/:webhookId/deliveries/',
  test: '/api/funnels/:id/webhooks/:webhookId/test/',
  /** Public, no session: the secret in the path is the credential. */
  inbound: '/api/hooks/funnels/:id/:secret/',
} as const;

export const WEBHOOKS_API = {
  settings: (id: number) => fillPath(WEBHOOKS_PATHS.settings, { id }),
  rotateInbound: (id: number) => fillPath(WEBHOOKS_PATHS.rotateInbound, { id }),
  webhooks: (id: number) => fillPath(WEBHOOKS_PATHS.webhooks, { id }),
  webhook: (id: number, webhookId: number) => fillPath(WEBHOOKS_PATHS.webhook, { id, webhookId }),
  rotateSecret: (id: number, webhookId: number) => fillPath(WEBHOOKS_PATHS.rotateSecret, { id, webhookId }),
  deliveries: (id: number, webhookId: number) => fillPath(WEBHOOKS_PATHS.deliveries, { id, webhookId }),
  test: (id: number, webhookId: number) => fillPath(WEBHOOKS_PATHS.test, { id, webhookId }),
  inbound: (id: number, secret: string) => fillPath(WEBHOOKS_PATHS.inbound, { id, secret }),
} as const;

export type * from './schemas/webhooks';
