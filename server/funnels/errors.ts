// Failures of the funnel services, without HTTP: the API maps each kind to a status
// (http/funnels/routes.ts), the bot runtime to whatever it needs.
import { STAGES_MAX, TAGS_MAX } from '../../contract/funnels';

export type FunnelErrorKind = 'invalid' | 'not_found' | 'conflict' | 'unavailable' | 'too_large' | 'unsupported';

export class FunnelError extends Error {
  constructor(
    readonly kind: FunnelErrorKind,
    /** Field errors, DRF-style: {"field": ["message"]}; null = the detail alone. */
    readonly fields: Record<string, string[]> | null,
    readonly detail: string,
  ) {
    super(detail);
    this.name = 'FunnelError';
  }
}

export const invalidField = (field: string, message: string) => new FunnelError('invalid', { [field]: [message] }, message);
export const invalid = (detail: string) => new FunnelError('invalid', null, detail);
export const notFound = () => new FunnelError('not_found', null, 'Not found.');
export const conflict = (detail: string) => new FunnelError('conflict', null, detail);
export const unavailable = (detail: string) => new FunnelError('unavailable', null, detail);

/** Every message the funnel services give, in one place (tests compare with these). */
export const FUNNEL_ERRORS = {
  malformedToken: 'This is not a bot token. It looks like 123456789:AAbc… — copy it from @BotFather.',
  unknownToken: 'Telegram does not know this token. Copy it again from @BotFather.',
  alreadyConnected: 'This bot is already connected.',
  telegramDown: 'Telegram is not answering. Try again in a minute.',
  tokenRevoked: "Telegram does not accept this bot's token any more. Connect the bot again with a new token from @BotFather.",
  runWithoutStages: 'Add at least one stage before running the bot.',
  runArchived: 'Return the funnel from the archive before running it.',
  deleteNotArchived: 'Archive the funnel before deleting it.',
  orderLocked: "Stages can't be reordered after the bot has been run.",
  orderMismatch: "The list must name each of the funnel's stages exactly once.",
  tooManyStages: `A funnel can have no more than ${STAGES_MAX} stages.`,
  tooManyTags: `A funnel can have no more than ${TAGS_MAX} tags.`,
  tagTitleTaken: 'A tag with this title already exists.',
  copyIntoItself: 'Choose another funnel to copy into.',
  blank: 'This field may not be blank.',
  required: 'This field is required.',
  doesNotExist: (id: number) => `Invalid pk "${id}" - object does not exist.`,
  tooLong: (max: number) => `Ensure this field has no more than ${max} characters.`,
  badButtonUrl: 'Enter a valid URL: http://, https:// or tg://.',
  tagNotSet: 'Not found.',
} as const;

/** Postgres unique_violation, as either driver reports it (Drizzle wraps driver errors). */
export function isUniqueViolation(error: unknown): boolean {
  for (let e: unknown = error; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: unknown }).code === '23505') return true;
  }
  return false;
}
