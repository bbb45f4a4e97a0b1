// The funnel services' messages (connecting a bot, running it, stages, tags, copies): thrown as a
// DomainError (../domain-error.ts); http/errors.ts gives each its status and Djoser-shaped body.
import { KEYWORDS_MAX, STAGES_MAX, TAGS_MAX } from '../../contract/funnels';
import { SOURCES_MAX } from '../../contract/sources';
import { FIELD_OPTIONS_MAX, FIELD_OPTIONS_MIN, FIELDS_MAX } from '../../contract/fields';
import type { DeliveryErrorReason } from '../../contract/delivery';
import type { DomainMessage } from '../domain-error';

/** Every message the funnel services give, in one place (tests compare with these). */
export const FUNNEL_ERRORS = {
  malformedToken: { code: 'malformed_token', text: 'This is not a bot token. It looks like 123456789:AAbc… — copy it from @BotFather.' },
  unknownToken: { code: 'unknown_token', text: 'Telegram does not know this token. Copy it again from @BotFather.' },
  alreadyConnected: { code: 'already_connected', text: 'This bot is already connected.' },
  telegramDown: { code: 'telegram_down', text: 'Telegram is not answering. Try again in a minute.' },
  telegramRefused: (description: string): DomainMessage => ({ code: 'invalid', text: `Telegram refused: ${description}`, detail: description }),
  tokenRevoked: {
    code: 'token_revoked',
    text: "Telegram does not accept this bot's token any more. Replace the token with a new one from @BotFather.",
  },
  otherBot: (username: string): DomainMessage => ({
    code: 'other_bot',
    text: `This token belongs to another bot (@${username}). Use a token of this funnel's bot.`,
    detail: username,
  }),
  stageWithoutMessage: (title: string): DomainMessage => ({ code: 'stage_without_message', text: `The stage “${title}” has no message.`, detail: title }),
  lastStageNext: (title: string): DomainMessage => ({
    code: 'last_stage_next',
    text: `The last stage “${title}” has a next-step button, but there is no stage after it.`,
    detail: title,
  }),
  brokenChoice: (stageTitle: string, buttonText: string): DomainMessage => ({
    code: 'broken_choice',
    text: `The button “${buttonText}” of the stage “${stageTitle}” leads to a deleted stage. Choose another stage for it.`,
    detail: buttonText,
  }),
  brokenWait: (stageTitle: string): DomainMessage => ({
    code: 'broken_wait',
    text: `The wait of the stage “${stageTitle}” leads to a deleted stage. Choose another stage for it.`,
    detail: stageTitle,
  }),
  waitTooLong: { code: 'wait_too_long', count: 90, text: 'A wait can be no longer than 90 days.' },
  waitToItself: { code: 'wait_to_itself', text: 'Choose another stage: a wait cannot lead to its own stage.' },
  fieldKeyTaken: { code: 'field_key_taken', text: 'This funnel already has a field with this key.' },
  fieldKeyReserved: (key: string): DomainMessage => ({ code: 'field_key_reserved', text: `The key “${key}” is built in. Choose another one.`, detail: key }),
  fieldKeyMissing: { code: 'blank', text: 'Give the field a key of small Latin letters, digits and _.' },
  fieldOptions: { code: 'field_options', count: FIELD_OPTIONS_MIN, text: `A choice needs ${FIELD_OPTIONS_MIN} to ${FIELD_OPTIONS_MAX} different options.` },
  tooManyFields: { code: 'too_many_fields', count: FIELDS_MAX, text: `A funnel can have no more than ${FIELDS_MAX} fields.` },
  brokenAsk: (stageTitle: string): DomainMessage => ({
    code: 'broken_ask',
    text: `The stage “${stageTitle}” asks for a deleted field. Choose another field for it.`,
    detail: stageTitle,
  }),
  askWithButtons: {
    code: 'ask_with_buttons',
    text: "A phone or choice question shows its own keyboard: remove the stage message's buttons first.",
  },
  fieldValue: (kind: string): DomainMessage => ({ code: 'field_value', text: `This is not a valid ${kind} value.`, detail: kind }),
  keywordTaken: { code: 'keyword_taken', text: 'This funnel already has this keyword.' },
  keywordWithoutWord: { code: 'keyword_without_word', text: 'A keyword needs at least one letter or digit.' },
  tooManyKeywords: { code: 'too_many_keywords', count: KEYWORDS_MAX, text: `A funnel can have no more than ${KEYWORDS_MAX} keywords.` },
  runWithoutStages: { code: 'run_without_stages', text: 'Add at least one stage before running the bot.' },
  noBot: { code: 'no_bot', text: 'Connect a bot to this funnel before running it.' },
  runArchived: { code: 'run_archived', text: 'Return the funnel from the archive before running it.' },
  deleteNotArchived: { code: 'delete_not_archived', text: 'Archive the funnel before deleting it.' },
  orderLocked: { code: 'order_locked', text: 'Stop the bot to change the order of stages.' },
  orderMismatch: { code: 'order_mismatch', text: "The list must name each of the funnel's stages exactly once." },
  tooManyStages: { code: 'too_many_stages', count: STAGES_MAX, text: `A funnel can have no more than ${STAGES_MAX} stages.` },
  tooManyTags: { code: 'too_many_tags', count: TAGS_MAX, text: `A funnel can have no more than ${TAGS_MAX} tags.` },
  tooManySources: { code: 'too_many_sources', count: SOURCES_MAX, text: `A funnel can have no more than ${SOURCES_MAX} sources.` },
  tagTitleTaken: { code: 'tag_title_taken', text: 'A tag with this title already exists.' },
  copyIntoItself: { code: 'copy_into_itself', text: 'Choose another funnel to copy into.' },
  unknownTimeZone: { code: 'invalid', text: 'Unknown time zone.' },
  fieldRequiredForValue: { code: 'required', text: 'Choose a field to compare the value with.' },
  /** Telegram refused a reply for a reason of this person's chat: the reason is the detail, its words the app's. */
  notDelivered: (reason: DeliveryErrorReason, description: string): DomainMessage => ({ code: 'not_delivered', text: `Not delivered: ${description}`, detail: reason }),
  personBlocked: { code: 'person_blocked', text: 'This person has blocked the bot: Telegram delivers nothing to them until they write again.' },
} as const satisfies Record<string, DomainMessage | ((...args: never[]) => DomainMessage)>;
