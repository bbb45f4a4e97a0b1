// Stable error codes of the product API (funnels, stages, messages, media, tags, people, and the
// areas that come next). The Djoser-shaped English text stays for humans and old clients; the
// app translates by code, never by parsing the text. Auth keeps Djoser's exact bodies (no codes).
//
//   {"detail": "Stages can't be reordered…", "code": "order_locked"}
//   {"detail": "File too big…", "code": "file_too_big", "count": 10}
//   {"title": ["A tag with this title already exists."],
//    "codes": {"title": [{"code": "tag_title_taken"}]}}
//
// `codes` lists, per field, one entry for each message of that field, in the same order.

export const API_ERROR_CODES = [
  // connecting a bot
  'malformed_token',
  'unknown_token',
  'already_connected',
  'telegram_down',
  'token_revoked',
  // funnel state
  'run_without_stages',
  'stage_without_message',
  'last_stage_next',
  'other_bot',
  'person_blocked',
  /** A reply Telegram refused for this person; `detail` is the reason (contract/delivery.ts). */
  'not_delivered',
  'run_archived',
  'delete_not_archived',
  'order_locked',
  'order_mismatch',
  'too_many_stages',
  'too_many_tags',
  'tag_title_taken',
  'too_many_sources',
  'copy_into_itself',
  // branches
  /** A choice button leads to a deleted stage; `detail` is the button's text. */
  'broken_choice',
  /** A stage's wait leads to a deleted stage; `detail` is the waiting stage's title. */
  'broken_wait',
  /** A wait longer than 90 days in all; `count` is 90. */
  'wait_too_long',
  'wait_to_itself',
  // payments
  /** A payment stage's paid or refund stage was deleted; `detail` is the stage's title. */
  'broken_payment',
  'payment_refunded',
  'payment_not_refundable',
  'charge_not_found',
  'balance_too_low',
  'null',
  'keyword_taken',
  'keyword_without_word',
  'too_many_keywords',
  // webhooks
  'bad_webhook_url',
  'webhook_not_https',
  'webhook_private_address',
  'too_many_webhooks',
  // ask and remember
  'field_key_taken',
  'field_key_reserved',
  'field_options',
  'too_many_fields',
  /** A stage asks for a deleted field; `detail` is the stage's title. */
  'broken_ask',
  /** A phone or choice question shows its own keyboard: the stage's message cannot have buttons too. */
  'ask_with_buttons',
  'field_value',
  // fields
  'required',
  'blank',
  'too_long',
  'does_not_exist',
  'bad_button_url',
  'bad_html',
  'invalid',
  // media
  'file_too_big',
  'unsupported_file',
  'empty_file',
  // mailings
  'empty_audience',
  'mailing_state',
  'schedule_in_past',
  'unsend_too_late',
  'funnel_archived',
  // letters
  'incorrect_data',
  'no_sending_time',
  'too_many_letters',
  // templates
  'no_bot',
  'template_without_stages',
  'funnel_was_run',
  'template_up_to_date',
  'not_from_template',
  // lists
  'segment_members',
  // partner programme
  'too_many_links',
  'below_minimum',
  'above_available',
  'withdrawal_state',
  // billing
  /** 402: the action needs a paid plan (the app shows 'Subscription isn't active'). */
  'subscription_inactive',
  /** Card payment is not configured on this server (no STRIPE_SECRET_KEY). */
  'card_payments_off',
  /** The plan has no card price. */
  'not_sold_by_card',
  /** The card provider could not be reached or refused; try again. */
  'card_provider_down',
  /** A renewing subscription exists already (409): cancel its renewal before paying again. */
  'already_subscribed',
  // anything
  'not_found',
] as const;
export type ApiErrorCode = (typeof API_ERROR_CODES)[number];

/** One coded message: the code, and the number or technical detail its text carries. */
export interface CodedMessage {
  code: ApiErrorCode;
  /** A limit or a size (too_long: characters; file_too_big: MB; too_many_*: items). */
  count?: number;
  /** Technical words kept as the server wrote them (bad_html: what Telegram would refuse). */
  detail?: string;
}

/**
 * An error body of the product API: either a detail (with its code and count) or field lists
 * (each with its codes under `codes`). Fields are read from the body's other keys.
 */
export interface CodedErrorBody {
  detail?: string;
  code?: ApiErrorCode;
  count?: number;
  codes?: Record<string, CodedMessage[]>;
  [field: string]: unknown;
}

export const isApiErrorCode = (value: unknown): value is ApiErrorCode =>
  typeof value === 'string' && (API_ERROR_CODES as readonly string[]).includes(value);
