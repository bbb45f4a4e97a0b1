// Failures of the funnel services, without HTTP: the API maps each kind to a status and each
// message to its Djoser-shaped text plus its stable code (contract/errors.ts); the bot runtime
// uses whatever it needs.
import type { CodedMessage } from '../../contract/errors';
import { STAGES_MAX, TAGS_MAX } from '../../contract/funnels';

export type FunnelErrorKind = 'invalid' | 'not_found' | 'conflict' | 'unavailable' | 'too_large' | 'unsupported';

/** A message of the funnel services: its English text and its code (with the number in it). */
export interface FunnelMessage extends CodedMessage {
  text: string;
}

export class FunnelError extends Error {
  constructor(
    readonly kind: FunnelErrorKind,
    /** Field errors, DRF-style: {"field": [message]}; null = the detail alone. */
    readonly fields: Record<string, FunnelMessage[]> | null,
    readonly detail: FunnelMessage,
  ) {
    super(detail.text);
    this.name = 'FunnelError';
  }
}

export const invalidFields = (fields: Record<string, FunnelMessage[]>) => new FunnelError('invalid', fields, Object.values(fields)[0][0]);
export const invalidField = (field: string, message: FunnelMessage) => invalidFields({ [field]: [message] });
export const invalid = (message: FunnelMessage) => new FunnelError('invalid', null, message);
export const notFound = () => new FunnelError('not_found', null, FUNNEL_ERRORS.notFound);
export const conflict = (message: FunnelMessage) => new FunnelError('conflict', null, message);
export const unavailable = (message: FunnelMessage) => new FunnelError('unavailable', null, message);
export const tooLarge = (message: FunnelMessage) => new FunnelError('too_large', null, message);
export const unsupported = (message: FunnelMessage) => new FunnelError('unsupported', null, message);

/** Every message the funnel services give, in one place (tests compare with these). */
export const FUNNEL_ERRORS = {
  malformedToken: { code: 'malformed_token', text: 'This is not a bot token. It looks like 123456789:AAbc… — copy it from @BotFather.' },
  unknownToken: { code: 'unknown_token', text: 'Telegram does not know this token. Copy it again from @BotFather.' },
  alreadyConnected: { code: 'already_connected', text: 'This bot is already connected.' },
  telegramDown: { code: 'telegram_down', text: 'Telegram is not answering. Try again in a minute.' },
  telegramRefused: (description: string): FunnelMessage => ({ code: 'invalid', text: `Telegram refused: ${description}`, detail: description }),
  tokenRevoked: {
    code: 'token_revoked',
    text: "Telegram does not accept this bot's token any more. Replace the token with a new one from @BotFather.",
  },
  otherBot: (username: string): FunnelMessage => ({
    code: 'other_bot',
    text: `This token belongs to another bot (@${username}). Use a token of this funnel's bot.`,
    detail: username,
  }),
  stageWithoutMessage: (title: string): FunnelMessage => ({ code: 'stage_without_message', text: `The stage “${title}” has no message.`, detail: title }),
  lastStageNext: (title: string): FunnelMessage => ({
    code: 'last_stage_next',
    text: `The last stage “${title}” has a next-step button, but there is no stage after it.`,
    detail: title,
  }),
  runWithoutStages: { code: 'run_without_stages', text: 'Add at least one stage before running the bot.' },
  noBot: { code: 'no_bot', text: 'Connect a bot to this funnel before running it.' },
  runArchived: { code: 'run_archived', text: 'Return the funnel from the archive before running it.' },
  deleteNotArchived: { code: 'delete_not_archived', text: 'Archive the funnel before deleting it.' },
  orderLocked: { code: 'order_locked', text: 'Stop the bot to change the order of stages.' },
  orderMismatch: { code: 'order_mismatch', text: "The list must name each of the funnel's stages exactly once." },
  tooManyStages: { code: 'too_many_stages', count: STAGES_MAX, text: `A funnel can have no more than ${STAGES_MAX} stages.` },
  tooManyTags: { code: 'too_many_tags', count: TAGS_MAX, text: `A funnel can have no more than ${TAGS_MAX} tags.` },
  tagTitleTaken: { code: 'tag_title_taken', text: 'A tag with this title already exists.' },
  copyIntoItself: { code: 'copy_into_itself', text: 'Choose another funnel to copy into.' },
  blank: { code: 'blank', text: 'This field may not be blank.' },
  required: { code: 'required', text: 'This field is required.' },
  doesNotExist: (id: number): FunnelMessage => ({ code: 'does_not_exist', text: `Invalid pk "${id}" - object does not exist.` }),
  tooLong: (max: number): FunnelMessage => ({ code: 'too_long', count: max, text: `Ensure this field has no more than ${max} characters.` }),
  badButtonUrl: { code: 'bad_button_url', text: 'Enter a valid URL: http://, https:// or tg://.' },
  /** Telegram would refuse the message's HTML: its technical reason goes along as `detail`. */
  badHtml: (reason: string): FunnelMessage => ({ code: 'bad_html', text: reason, detail: reason }),
  personBlocked: { code: 'person_blocked', text: 'This person has blocked the bot: Telegram delivers nothing to them until they write again.' },
  notFound: { code: 'not_found', text: 'Not found.' },
  emptyAudience: { code: 'empty_audience', text: 'Nobody would receive this mailing: the audience is empty.' },
  mailingState: { code: 'mailing_state', text: 'The mailing cannot do this in its present state.' },
  scheduleInPast: { code: 'schedule_in_past', text: 'Choose a moment in the future.' },
  unsendTooLate: { code: 'unsend_too_late', text: 'Telegram lets a bot delete its messages for 48 hours only.' },
  funnelArchived: { code: 'funnel_archived', text: 'Return the funnel from the archive first.' },
  incorrectData: { code: 'incorrect_data', text: 'Incorrect data' },
  noSendingTime: { code: 'no_sending_time', text: 'You have not configured the sending time' },
  tooManyLetters: { code: 'too_many_letters', count: 50, text: 'A series can have no more than 50 letters.' },
} as const satisfies Record<string, FunnelMessage | ((...args: never[]) => FunnelMessage)>;
