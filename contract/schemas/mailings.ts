// Every shape of the mailings API, written once (see ./funnels.ts for how these are used). The
// SPA imports the types only, through contract/mailings.ts.
import { Type, type Static } from 'typebox';
import { AUDIENCE_IDS_MAX, MAILING_PAUSE_REASONS, MAILING_STATES, MAILING_TITLE_MAX, RECIPIENT_STATES } from '../mailings';
import { DELIVERY_ERROR_REASONS } from '../delivery';
import { FIELD_VALUE_MAX, FIELDS_MAX } from '../fields';
import { DateTime, Id, Nullable, QueryInt, StringEnum, Text } from './common';
import { MessageContentInputSchema, MessageContentSchema } from './funnels';

const Ids = () => Type.Array(Id(), { maxItems: AUDIENCE_IDS_MAX });

/**
 * Who gets a mailing: everyone of the funnel, narrowed by stages (people now in any of them;
 * 'none' = whose stage was deleted) and tags (having any of tags_in, none of tags_out), minus
 * stages_out. People who blocked the bot are always left out.
 */
export const AudienceSchema = Type.Object({
  stages_in: Ids(),
  stages_out: Ids(),
  tags_in: Ids(),
  tags_out: Ids(),
  /** People in any of these lists (static or segments); absent or empty: lists play no part. */
  lists_in: Type.Optional(Ids()),
  /** People whose first source is any of these; absent or empty: sources play no part. */
  sources_in: Type.Optional(Ids()),
  /** People who have each of these fields (of the funnel), with this value when one is given (any case); absent or empty: fields play no part. */
  fields: Type.Optional(Type.Array(Type.Object({ field_id: Id(), value: Type.Optional(Text(FIELD_VALUE_MAX, 1)) }, { additionalProperties: false }), { maxItems: FIELDS_MAX })),
});
export type Audience = Static<typeof AudienceSchema>;

export const AudienceCountSchema = Type.Object({ count: Type.Integer() });
export type AudienceCount = Static<typeof AudienceCountSchema>;

/** Outcomes so far, one count per recipient state. */
export const MailingProgressSchema = Type.Object({
  total: Type.Integer(),
  waiting: Type.Integer(),
  sending: Type.Integer(),
  sent: Type.Integer(),
  failed: Type.Integer(),
  blocked: Type.Integer(),
  unknown: Type.Integer(),
  cancelled: Type.Integer(),
});
export type MailingProgress = Static<typeof MailingProgressSchema>;

/**
 * After "delete from the chats": what happened to the messages that reached the chats (sent
 * counts them all). deleting: asked, not done yet; too_old: sent more than 48 hours before.
 */
export const MailingDeletionSchema = Type.Object({
  deleting: Type.Integer(),
  deleted: Type.Integer(),
  too_old: Type.Integer(),
  failed: Type.Integer(),
});
export type MailingDeletion = Static<typeof MailingDeletionSchema>;

export const MailingSchema = Type.Object({
  id: Type.Integer(),
  funnel_id: Type.Integer(),
  title: Text(),
  message: MessageContentSchema,
  audience: AudienceSchema,
  state: StringEnum(MAILING_STATES),
  /** Why it paused by itself: set only while it is paused (a cancelled or resumed mailing has none). */
  pause_reason: Nullable(StringEnum(MAILING_PAUSE_REASONS)),
  /** Send with allow_paid_broadcast (up to 1,000 messages a second, paid in Stars). */
  paid_broadcast: Type.Boolean(),
  scheduled_at: Nullable(Text()),
  started_at: Nullable(Text()),
  finished_at: Nullable(Text()),
  /** When "delete from the chats" was asked for (finished mailings only, within 48 hours). */
  unsent_at: Nullable(Text()),
  /** People the audience holds now (drafts) or the recipients made when it started. */
  audience_size: Type.Integer(),
  progress: MailingProgressSchema,
  /** Null until the owner asked to delete it from the chats (unsent_at). */
  deletion: Nullable(MailingDeletionSchema),
  created_at: Text(),
});
export type Mailing = Static<typeof MailingSchema>;

export const MailingListSchema = Type.Array(MailingSchema);

/** A new mailing or an edit (drafts and scheduled ones only; a scheduled one returns to draft). */
export const MailingBodySchema = Type.Object({
  title: Text(MAILING_TITLE_MAX, 1),
  message: MessageContentInputSchema,
  audience: Type.Optional(AudienceSchema),
  paid_broadcast: Type.Optional(Type.Boolean()),
});
export type MailingBody = Static<typeof MailingBodySchema>;
export const MailingPatchSchema = Type.Partial(MailingBodySchema);
export type MailingPatch = Static<typeof MailingPatchSchema>;

/** What the pre-send check found: problems (none = can send) and the estimate. */
export const MailingCheckSchema = Type.Object({
  problems: Type.Array(Type.Object({ field: Text(), code: Text(), message: Text(), count: Type.Optional(Type.Integer()) })),
  audience_size: Type.Integer(),
  /** At the bot's rate (or the paid rate). */
  estimated_seconds: Type.Integer(),
  messages_per_second: Type.Integer(),
  /** Stars the paid burst costs (0 without it). */
  stars: Type.Integer(),
});
export type MailingCheck = Static<typeof MailingCheckSchema>;

/** Send now (no body, or scheduled_at null) or at a moment (RFC 3339 with its offset). */
export const SendMailingBodySchema = Type.Object({ scheduled_at: Type.Optional(Nullable(DateTime())) });
export type SendMailingBody = Static<typeof SendMailingBodySchema>;

export const RecipientsQuerySchema = Type.Object({
  state: Type.Optional(StringEnum(RECIPIENT_STATES)),
  limit: Type.Optional(QueryInt(9)),
  offset: Type.Optional(QueryInt(9)),
});
export type RecipientsQuery = Static<typeof RecipientsQuerySchema>;

export const RecipientSchema = Type.Object({
  person_id: Type.Integer(),
  first_name: Text(),
  last_name: Text(),
  username: Nullable(Text()),
  state: StringEnum(RECIPIENT_STATES),
  /** When it was sent, or when it last changed. */
  at: Text(),
  /** Telegram's own words (English), a detail; error_reason says what happened. */
  error: Nullable(Text()),
  /** Why it was not delivered (or not deleted), as a stable code; null when nothing went wrong. */
  error_reason: Nullable(StringEnum(DELIVERY_ERROR_REASONS)),
});
export type Recipient = Static<typeof RecipientSchema>;
export const RecipientsPageSchema = Type.Object({ count: Type.Integer(), results: Type.Array(RecipientSchema) });
export type RecipientsPage = Static<typeof RecipientsPageSchema>;

export const MailingsQuerySchema = Type.Object({ limit: Type.Optional(QueryInt(9)) });
