// Why Telegram did not deliver (or delete) a message, as a stable code: the server classifies
// Telegram's answer once (server/telegram/send.ts, deliveryErrorReason) and sends the code; the app
// says it in the user's language (src/ui/deliveryErrors.ts). Telegram's own text stays a detail.
export const DELIVERY_ERROR_REASONS = [
  /** 403: the person blocked the bot. */
  'blocked',
  /** 400 chat not found: the person never pressed Start (or deleted the chat). */
  'chat_not_found',
  /** 403: the person's account was deleted. */
  'user_deactivated',
  /** 403: the bot was removed from the group or channel. */
  'kicked',
  /** 400: the text or caption is longer than Telegram takes. */
  'message_too_long',
  /** 400: Telegram could not read the message's formatting or buttons. */
  'bad_markup',
  /** 413 or 400: the picture or video is too big for Telegram. */
  'file_too_big',
  /** 429: too many messages at once; the engine waits and tries again. */
  'rate_limited',
  /** Telegram could not be reached, or did not answer. */
  'network',
  /** deleteMessage: the message is gone already (the person deleted the chat or the message). */
  'message_gone',
  /** deleteMessage: Telegram no longer lets the bot delete it (past 48 hours). */
  'cannot_delete',
  'other',
] as const;
export type DeliveryErrorReason = (typeof DELIVERY_ERROR_REASONS)[number];
