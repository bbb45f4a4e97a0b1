// Mailings (issue 9) as the SPA, the API and the delivery engine see them: states, limits, the
// rate figures the pre-send check estimates with, and API paths. Shapes are TypeBox schemas in
// ./schemas/mailings.ts; their types are re-exported here (types only, as for funnels).
import { fillPath } from './paths';

export type * from './schemas/mailings';

/**
 * draft → scheduled → sending ⇄ paused → finished; draft/scheduled/sending/paused → cancelled.
 * A scheduled mailing may go back to draft (edit it); finished and cancelled are final.
 */
export const MAILING_STATES = ['draft', 'scheduled', 'sending', 'paused', 'cancelled', 'finished'] as const;
export type MailingState = (typeof MAILING_STATES)[number];

/** Why a mailing paused by itself (shown to its owner); null = the owner paused it. */
/** billing: the subscription ended (a payment resumes it by itself). */
export const MAILING_PAUSE_REASONS = ['token_revoked', 'too_many_errors', 'paid_broadcast_unavailable', 'billing'] as const;
export type MailingPauseReason = (typeof MAILING_PAUSE_REASONS)[number];

/**
 * One recipient's outcome. waiting: not sent yet; unknown: on the wire when the server died.
 * After "delete from the chats" a sent message is deleting (asked, not done yet), deleted,
 * too_old (sent more than 48 hours before it was asked: Telegram keeps it) or delete_failed.
 */
export const RECIPIENT_STATES = [
  'waiting',
  'sending',
  'sent',
  'failed',
  'blocked',
  'unknown',
  'cancelled',
  'deleting',
  'deleted',
  'too_old',
  'delete_failed',
] as const;
export type RecipientState = (typeof RECIPIENT_STATES)[number];
/** The states of a message that reached the chat (the filter "sent" shows them all). */
export const DELIVERED_RECIPIENT_STATES = ['sent', 'deleting', 'deleted', 'too_old', 'delete_failed'] as const satisfies readonly RecipientState[];

export const MAILING_TITLE_MAX = 128;
export const MAILINGS_PAGE_MAX = 200;
export const RECIPIENTS_PAGE_DEFAULT = 50;
export const RECIPIENTS_PAGE_MAX = 200;
/** Audience filters: stage and tag ids, each list at most this long. */
export const AUDIENCE_IDS_MAX = 100;

/** Telegram: ~30 messages a second per bot; the engine keeps a little under it by default. */
export const TELEGRAM_FREE_RATE = 30;
export const DEFAULT_SEND_RATE = 29;
/** allow_paid_broadcast: up to 1,000 messages a second, 0.1 Star per message above the free 30/s. */
export const PAID_BROADCAST_RATE = 1000;
export const STARS_PER_PAID_MESSAGE = 0.1;
/** A sent message can be deleted from the chats for 48 hours (deleteMessage). */
export const DELETE_FROM_CHATS_HOURS = 48;

/** Seconds to send `count` messages at `perSecond`. */
export const sendingSeconds = (count: number, perSecond: number) => Math.ceil(count / perSecond);

/**
 * Stars a paid burst of `count` messages costs: each second carries PAID_BROADCAST_RATE
 * messages, of which the first TELEGRAM_FREE_RATE are free; the rest cost 0.1 Star each.
 * Rounded up to a whole Star.
 */
export function paidBroadcastStars(count: number): number {
  const free = TELEGRAM_FREE_RATE * Math.ceil(count / PAID_BROADCAST_RATE);
  const paid = Math.max(0, count - free);
  return Math.ceil(paid / (1 / STARS_PER_PAID_MESSAGE));
}

export const MAILINGS_PATHS = {
  mailings: '/api/funnels/:id/mailings/',
  audience: '/api/funnels/:id/mailings/audience/',
  mailing: '/api/mailings/:id/',
  check: '/api/mailings/:id/check/',
  send: '/api/mailings/:id/send/',
  pause: '/api/mailings/:id/pause/',
  resume: '/api/mailings/:id/resume/',
  cancel: '/api/mailings/:id/cancel/',
  unsend: '/api/mailings/:id/delete-from-chats/',
  recipients: '/api/mailings/:id/recipients/',
} as const;

export const MAILINGS_API = {
  mailings: (funnelId: number) => fillPath(MAILINGS_PATHS.mailings, { id: funnelId }),
  audience: (funnelId: number) => fillPath(MAILINGS_PATHS.audience, { id: funnelId }),
  mailing: (id: number) => fillPath(MAILINGS_PATHS.mailing, { id }),
  check: (id: number) => fillPath(MAILINGS_PATHS.check, { id }),
  send: (id: number) => fillPath(MAILINGS_PATHS.send, { id }),
  pause: (id: number) => fillPath(MAILINGS_PATHS.pause, { id }),
  resume: (id: number) => fillPath(MAILINGS_PATHS.resume, { id }),
  cancel: (id: number) => fillPath(MAILINGS_PATHS.cancel, { id }),
  unsend: (id: number) => fillPath(MAILINGS_PATHS.unsend, { id }),
  recipients: (id: number) => fillPath(MAILINGS_PATHS.recipients, { id }),
} as const;
