// Every shape of the webhooks API (see ./funnels.ts for how these are used). The SPA imports the
// types only, through contract/webhooks.ts.
import { Type, type Static } from 'typebox';
import { INBOUND_ACTIONS, INBOUND_EVENT_ID_MAX, WEBHOOK_EVENTS, WEBHOOK_URL_MAX } from '../webhooks';
import { Id, Nullable, PatternText, StringEnum, Text } from './common';

const Timestamp = () => Text();

export const FunnelWebhookSchema = Type.Object({
  id: Type.Integer(),
  funnel_id: Type.Integer(),
  url: Text(),
  events: Type.Array(StringEnum(WEBHOOK_EVENTS)),
  enabled: Type.Boolean(),
  /** Why it switched itself off: 'failing' (its deliveries failed for a day); null when the owner did, or it is on. */
  disabled_reason: Nullable(Text()),
  /** The first failed delivery since the last one that went through; null: not failing. */
  failing_since: Nullable(Timestamp()),
  created_at: Timestamp(),
});
export type FunnelWebhook = Static<typeof FunnelWebhookSchema>;

/** A webhook just made, or whose secret was just rotated: the only answers that carry the secret. */
export const FunnelWebhookWithSecretSchema = Type.Object({ ...FunnelWebhookSchema.properties, secret: Text() });
export type FunnelWebhookWithSecret = Static<typeof FunnelWebhookWithSecretSchema>;

export const WebhookBodySchema = Type.Object({
  url: Text(WEBHOOK_URL_MAX, 1),
  events: Type.Array(StringEnum(WEBHOOK_EVENTS), { minItems: 1, maxItems: WEBHOOK_EVENTS.length }),
});
export type WebhookBody = Static<typeof WebhookBodySchema>;

/** Change the URL or the events, switch it on or off (on again clears "failing"). */
export const WebhookPatchSchema = Type.Object({
  url: Type.Optional(Text(WEBHOOK_URL_MAX, 1)),
  events: Type.Optional(Type.Array(StringEnum(WEBHOOK_EVENTS), { minItems: 1, maxItems: WEBHOOK_EVENTS.length })),
  enabled: Type.Optional(Type.Boolean()),
});
export type WebhookPatch = Static<typeof WebhookPatchSchema>;

export const WEBHOOK_DELIVERY_STATES = ['waiting', 'sending', 'sent', 'failed'] as const;

export const WebhookDeliverySchema = Type.Object({
  id: Type.Integer(),
  event_id: Text(),
  event: Text(),
  state: StringEnum(WEBHOOK_DELIVERY_STATES),
  attempts: Type.Integer(),
  /** The receiver's last HTTP status; null: no answer (a timeout, a refused connection) or not tried yet. */
  last_status: Nullable(Type.Integer()),
  last_error: Nullable(Text()),
  created_at: Timestamp(),
  sent_at: Nullable(Timestamp()),
  next_attempt_at: Nullable(Timestamp()),
});
export type WebhookDelivery = Static<typeof WebhookDeliverySchema>;

/** The funnel's incoming webhook: its URL (with the secret) and a person to show in the example. */
export const WebhookSettingsSchema = Type.Object({
  inbound_url: Text(),
  /** A person of the funnel for the copyable example (null: nobody yet; the example keeps a placeholder). */
  example_person_id: Nullable(Type.Integer()),
  example_stage_id: Nullable(Type.Integer()),
});
export type WebhookSettings = Static<typeof WebhookSettingsSchema>;

/**
 * What another system POSTs to the incoming URL: one action for one person of the funnel, applied
 * once per event_id. go_to_stage needs stage_id; add_tag needs tag (a title: made if the funnel
 * has none by it); set_field needs field and value; mark_paid needs amount.
 */
export const InboundEventSchema = Type.Object({
  event_id: Text(INBOUND_EVENT_ID_MAX, 1),
  person_id: Id(),
  action: StringEnum(INBOUND_ACTIONS),
  stage_id: Type.Optional(Id()),
  tag: Type.Optional(Text(64, 1)),
  field: Type.Optional(Text(64, 1)),
  value: Type.Optional(Text(1024)),
  /** mark_paid: in the currency's smallest unit (kopecks, cents; Stars are whole). */
  amount: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000_000 })),
  /** mark_paid: an ISO 4217 code such as RUB or USD; XTR (Telegram Stars) when absent. */
  currency: Type.Optional(PatternText('^[A-Z]{3}$', 'Enter a currency code of three capital letters, such as RUB.')),
});
export type InboundEvent = Static<typeof InboundEventSchema>;

export const InboundResultSchema = Type.Object({ status: StringEnum(['applied', 'duplicate'] as const) });
export type InboundResult = Static<typeof InboundResultSchema>;
