// Every shape of the product API (funnels, stages and their messages, media, tags, people, the
// dashboard), written once: the server validates requests and serializes answers with these
// schemas (nothing unlisted, such as a bot token, can leak out), and both sides take their types
// from them. The SPA imports the types only, through contract/funnels.ts.
import { Type, type Static } from 'typebox';
import { NO_SOURCE } from '../sources';
import { FIELD_VALUE_MAX } from '../fields';
import { PersonTimerSchema, StageWaitSchema } from './timers';
import {
  BOT_DESCRIPTION_MAX,
  BOT_SHORT_DESCRIPTION_MAX,
  BOT_TOKEN_INPUT_MAX,
  BUTTON_TEXT_MAX,
  BUTTON_URL_MAX,
  CHOICE_BUTTONS_MAX,
  COLOR_PATTERN,
  FUNNEL_NAME_MAX,
  FUNNEL_STATES,
  KEYWORD_PHRASE_MAX,
  MEDIA_FILENAME_MAX,
  MEDIA_KINDS,
  MESSAGE_HTML_MAX,
  NO_STAGE,
  PEOPLE_SEARCH_MAX,
  STATS_PERIODS,
  STAGE_ICONS,
  STAGE_TITLE_MAX,
  STAGES_MAX,
  STAGE_MOVE_VIA,
  STOP_REASONS,
  TAG_TITLE_MAX,
  TIME_ZONE_MAX,
  URL_BUTTONS_MAX,
} from '../funnels';
import { Id, Nullable, PatternText, QueryInt, StringEnum, Text } from './common';
import { PersonPaymentSchema, StagePaymentSchema } from './payments';
import { PersonFieldValueSchema, StageAskSchema } from './fields';

const Color = () => PatternText(COLOR_PATTERN, 'Enter a valid colour: #rrggbb.');
const Timestamp = () => Text();

// --- funnels -----------------------------------------------------------------------------------
export const FunnelSchema = Type.Object({
  id: Type.Integer(),
  name: Text(),
  /** The bot: null until one is connected (a funnel added from a template starts without one). */
  bot_id: Nullable(Type.Integer()),
  bot_username: Nullable(Text()),
  /** The token is never sent back in full: "123456:AA…xyz". */
  bot_token_hint: Nullable(Text()),
  state: StringEnum(FUNNEL_STATES),
  stop_reason: Nullable(StringEnum(STOP_REASONS)),
  archived: Type.Boolean(),
  /** True once the bot has been run: stages can no longer be reordered. */
  /** The bot is running: stages can't be reordered or inserted until it is stopped. */
  stage_order_locked: Type.Boolean(),
  /** The bot has been run at least once (people may be in any stage). */
  was_run: Type.Boolean(),
  /** Messages people wrote that the owner has not read (the inbox). */
  unread_count: Type.Integer(),
  /** The owner is alerted through the service bot when someone writes. */
  inbox_alerts: Type.Boolean(),
  people_count: Type.Integer(),
  stage_count: Type.Integer(),
  /** The template it was added from (null: made by hand, or the template was deleted). */
  template_id: Nullable(Type.Integer()),
  /** The CRM folder it is grouped in (one at most). */
  folder_id: Nullable(Type.Integer()),
  /**
   * A running funnel whose bot has not reached Telegram (network failures or 5xx) for longer than
   * a short threshold: since when. Null once a call gets through again.
   */
  telegram_unreachable_since: Nullable(Timestamp()),
  created_at: Timestamp(),
});
export type Funnel = Static<typeof FunnelSchema>;

export const FunnelListQuerySchema = Type.Object({
  archived: Type.Optional(StringEnum(['true', 'false'])),
  /** Only the funnels of this CRM folder. */
  folder: Type.Optional(QueryInt(9)),
});
export type FunnelListQuery = Static<typeof FunnelListQuerySchema>;

export const CreateFunnelBodySchema = Type.Object({ bot_token: Text(BOT_TOKEN_INPUT_MAX, 1), name: Type.Optional(Text(FUNNEL_NAME_MAX)) });
export type CreateFunnelBody = Static<typeof CreateFunnelBodySchema>;

export const UpdateFunnelBodySchema = Type.Object({ name: Type.Optional(Text(FUNNEL_NAME_MAX, 1)), inbox_alerts: Type.Optional(Type.Boolean()) });
export type UpdateFunnelBody = Static<typeof UpdateFunnelBodySchema>;

/** A new token for the funnel's own bot (after @BotFather revoked the old one). */
export const ReplaceTokenBodySchema = Type.Object({ bot_token: Text(BOT_TOKEN_INPUT_MAX, 1) });
export type ReplaceTokenBody = Static<typeof ReplaceTokenBodySchema>;

/** Why a funnel cannot run now (empty when it can): each with its code and English text. */
export const RunCheckSchema = Type.Object({
  problems: Type.Array(
    Type.Object({
      code: Text(),
      message: Text(),
      /** The stage's title, or Telegram's words. */
      detail: Type.Optional(Text()),
    }),
  ),
});
export type RunCheck = Static<typeof RunCheckSchema>;

export const CopyFunnelBodySchema = Type.Object({ target_funnel_id: Id() });
export type CopyFunnelBody = Static<typeof CopyFunnelBodySchema>;

export const BotDescriptionSchema = Type.Object({
  description: Text(BOT_DESCRIPTION_MAX),
  short_description: Text(BOT_SHORT_DESCRIPTION_MAX),
});
export type BotDescription = Static<typeof BotDescriptionSchema>;

// --- stages and their messages -----------------------------------------------------------------
export const UrlButtonSchema = Type.Object({ text: Text(BUTTON_TEXT_MAX, 1), url: Text(BUTTON_URL_MAX, 1) });
export type UrlButton = Static<typeof UrlButtonSchema>;
export const NextButtonSchema = Type.Object({ text: Text(BUTTON_TEXT_MAX, 1) });
/** A button that moves the person to a stage of the owner's choice; stage_id null: that stage was deleted (the button is broken). */
export const ChoiceButtonSchema = Type.Object({ text: Text(BUTTON_TEXT_MAX, 1), stage_id: Nullable(Type.Integer()) });
export type ChoiceButton = Static<typeof ChoiceButtonSchema>;

export const MessageMediaSchema = Type.Object({
  id: Type.Integer(),
  kind: StringEnum(MEDIA_KINDS),
  content_type: Text(),
  size: Type.Integer(),
  filename: Text(),
});
export type MessageMedia = Static<typeof MessageMediaSchema>;

/** A stage's message: Telegram HTML text, optional media, URL buttons and a next-step button. */
export const MessageContentSchema = Type.Object({
  text: Text(),
  media: Nullable(MessageMediaSchema),
  buttons: Type.Array(UrlButtonSchema),
  /** Moves the person to the next stage; null = no such button. */
  next_button: Nullable(NextButtonSchema),
});
export type MessageContent = Static<typeof MessageContentSchema>;
/** A stage's message: also its choice buttons, each moving the person to a stage of its own. */
export const StageMessageSchema = Type.Object({ ...MessageContentSchema.properties, choices: Type.Array(ChoiceButtonSchema) });
export type StageMessage = Static<typeof StageMessageSchema>;

/** A whole message as the SPA sends it and the stage service takes it. */
export const MessageContentBodySchema = Type.Object({
  text: Text(MESSAGE_HTML_MAX),
  media_id: Nullable(Id()),
  buttons: Type.Array(UrlButtonSchema, { maxItems: URL_BUTTONS_MAX }),
  next_button: Nullable(NextButtonSchema),
  /** Stage messages only (absent in mailings, letters, and stage messages saved before choices existed). */
  choices: Type.Optional(Type.Array(ChoiceButtonSchema, { maxItems: CHOICE_BUTTONS_MAX })),
});
export type MessageContentBody = Static<typeof MessageContentBodySchema>;

/**
 * What PUT stages/:id/message/ accepts: only the text is required (the rest has defaults). A
 * button's missing text or url is not refused here but by the service, under the outer field's
 * name ("buttons"): the schema error would name the inner field alone.
 */
export const MessageContentInputSchema = Type.Object({
  text: MessageContentBodySchema.properties.text,
  media_id: Type.Optional(MessageContentBodySchema.properties.media_id),
  buttons: Type.Optional(Type.Array(Type.Partial(UrlButtonSchema), { maxItems: URL_BUTTONS_MAX })),
  next_button: Type.Optional(Nullable(Type.Partial(NextButtonSchema))),
});
export type MessageContentInput = Static<typeof MessageContentInputSchema>;
/** What PUT stages/:id/message/ accepts: a message and its choice buttons (a missing part is refused by the service, under "choices"). */
export const StageMessageInputSchema = Type.Object({
  ...MessageContentInputSchema.properties,
  choices: Type.Optional(Type.Array(Type.Partial(ChoiceButtonSchema), { maxItems: CHOICE_BUTTONS_MAX })),
});
export type StageMessageInput = Static<typeof StageMessageInputSchema>;

export const StageSchema = Type.Object({
  id: Type.Integer(),
  funnel_id: Type.Integer(),
  title: Text(),
  icon: StringEnum(STAGE_ICONS),
  color: Text(),
  position: Type.Integer(),
  /** Everyone who reaches the stage gets this tag. */
  tag_id: Nullable(Type.Integer()),
  message: StageMessageSchema,
  /** After a while in the stage, the person moves on by themselves (contract/timers.ts). */
  wait: Nullable(StageWaitSchema),
  /** A payment stage's Stars invoice (null: not a payment stage). */
  payment: Nullable(StagePaymentSchema),
  /** Its question: the person's next message is kept in a field (null: it asks nothing). */
  ask: Nullable(StageAskSchema),
  people_count: Type.Integer(),
});
export type Stage = Static<typeof StageSchema>;

export const StageBodySchema = Type.Object({
  title: Text(STAGE_TITLE_MAX, 1),
  icon: Type.Optional(StringEnum(STAGE_ICONS)),
  color: Type.Optional(Color()),
  tag_id: Type.Optional(Nullable(Id())),
});
export type StageBody = Static<typeof StageBodySchema>;
export const StagePatchSchema = Type.Partial(StageBodySchema);
/** A new stage; `position` (0 = first) inserts it among the others, which needs a stopped bot. */
export const StageCreateBodySchema = Type.Object({ ...StageBodySchema.properties, position: Type.Optional(Type.Integer({ minimum: 0, maximum: STAGES_MAX })) });
export type StageCreateBody = Static<typeof StageCreateBodySchema>;

export const StageOrderBodySchema = Type.Object({ stage_ids: Type.Array(Id(), { maxItems: STAGES_MAX }) });
export type StageOrderBody = Static<typeof StageOrderBodySchema>;

export const MediaUploadQuerySchema = Type.Object({ filename: Type.Optional(Text(MEDIA_FILENAME_MAX)) });

// --- tags and people -----------------------------------------------------------------------------
export const TagSchema = Type.Object({
  id: Type.Integer(),
  funnel_id: Type.Integer(),
  title: Text(),
  color: Text(),
  people_count: Type.Integer(),
});
export type Tag = Static<typeof TagSchema>;

export const TagBodySchema = Type.Object({ title: Text(TAG_TITLE_MAX, 1), color: Type.Optional(Color()) });
export type TagBody = Static<typeof TagBodySchema>;
export const TagPatchSchema = Type.Partial(TagBodySchema);

const personProperties = {
  id: Type.Integer(),
  funnel_id: Type.Integer(),
  telegram_id: Type.Integer(),
  first_name: Text(),
  last_name: Text(),
  username: Nullable(Text()),
  stage_id: Nullable(Type.Integer()),
  /** Their first source (contract/sources.ts); null: none, or it was deleted. */
  source_id: Nullable(Type.Integer()),
  tag_ids: Type.Array(Type.Integer()),
  blocked: Type.Boolean(),
  joined_at: Timestamp(),
  last_seen_at: Timestamp(),
};
export const PersonSchema = Type.Object(personProperties);
export type Person = Static<typeof PersonSchema>;

export const HistoryEntrySchema = Type.Object({
  id: Type.Integer(),
  direction: StringEnum(['in', 'out']),
  /** in: text or command the person wrote, or a button they pressed; out: a stage message sent. */
  kind: StringEnum(['text', 'command', 'button', 'stage_message', 'reply', 'mailing', 'letter']),
  text: Text(),
  stage_id: Nullable(Type.Integer()),
  created_at: Timestamp(),
});
export type HistoryEntry = Static<typeof HistoryEntrySchema>;

/** The same Telegram user in another of the owner's funnels (bots): one contact across bots. */
export const OtherFunnelSchema = Type.Object({
  person_id: Type.Integer(),
  funnel_id: Type.Integer(),
  funnel_name: Text(),
  bot_username: Nullable(Text()),
  stage_title: Nullable(Text()),
  tags: Type.Array(Text()),
  /** The series of letters they are in there now. */
  series: Type.Array(Text()),
  blocked: Type.Boolean(),
  joined_at: Timestamp(),
});
export type OtherFunnel = Static<typeof OtherFunnelSchema>;

/** One contact's history across the owner's bots: each entry names its funnel. */
export const ContactHistoryEntrySchema = Type.Object({ ...HistoryEntrySchema.properties, funnel_id: Type.Integer(), funnel_name: Text(), stage_title: Nullable(Text()) });
export type ContactHistoryEntry = Static<typeof ContactHistoryEntrySchema>;

export const PersonDetailSchema = Type.Object({
  ...personProperties,
  /** Their first source (source_id's), with its code: the history shows "/start src_<code>" as its name. */
  source: Nullable(Type.Object({ id: Type.Integer(), name: Text(), code: Text() })),
  history: Type.Array(HistoryEntrySchema),
  /** Every field of the funnel, with the person's value. */
  fields: Type.Array(PersonFieldValueSchema),
  other_funnels: Type.Array(OtherFunnelSchema),
  /** Their waiting timer (a stage's wait), if any. */
  timers: Type.Array(PersonTimerSchema),
  /** Their payments, newest first. */
  payments: Type.Array(PersonPaymentSchema),
});
export type PersonDetail = Static<typeof PersonDetailSchema>;

/** GET people/ (?stage=&tag=&limit=&offset=): newest first; count is the total matching. */
export const PeopleQuerySchema = Type.Object({
  /** A stage id, or "none" for people whose stage was deleted. */
  stage: Type.Optional(PatternText(`^([0-9]{1,9}|${NO_STAGE})$`, 'A stage id or "none" is required.')),
  tag: Type.Optional(QueryInt(9)),
  /** A source id, or "none" for people who came by no source. */
  source: Type.Optional(PatternText(`^([0-9]{1,9}|${NO_SOURCE})$`, 'A source id or "none" is required.')),
  /** A field of the funnel: people who have a value of it. */
  field: Type.Optional(QueryInt(9)),
  /** With `field`: people whose value equals this, any case. */
  field_value: Type.Optional(Text(FIELD_VALUE_MAX, 1)),
  /** Part of the name or username, any case. */
  search: Type.Optional(Text(PEOPLE_SEARCH_MAX)),
  limit: Type.Optional(QueryInt(9)),
  offset: Type.Optional(QueryInt(9)),
});
export type PeopleQuery = Static<typeof PeopleQuerySchema>;
/** A person of the people list, with their field values (the fields they have, in the funnel's order of fields). */
export const PersonListItemSchema = Type.Object({
  ...personProperties,
  field_values: Type.Array(Type.Object({ field_id: Type.Integer(), value: Text() })),
});
export type PersonListItem = Static<typeof PersonListItemSchema>;

export const PeoplePageSchema = Type.Object({ count: Type.Integer(), results: Type.Array(PersonListItemSchema) });
export type PeoplePage = Static<typeof PeoplePageSchema>;

export const PersonTagBodySchema = Type.Object({ tag_id: Id() });

/** The owner moves a person to a stage by hand. */
export const PersonPatchSchema = Type.Object({ stage_id: Id() });
export type PersonPatch = Static<typeof PersonPatchSchema>;

// --- inbox ---------------------------------------------------------------------------------------
export const InboxQuerySchema = Type.Object({ limit: Type.Optional(QueryInt(9)), offset: Type.Optional(QueryInt(9)) });
export const ConversationSchema = Type.Object({
  person: PersonSchema,
  unread_count: Type.Integer(),
  /** What they wrote last, and when. */
  last_text: Text(),
  last_message_at: Timestamp(),
});
export type Conversation = Static<typeof ConversationSchema>;
export const InboxPageSchema = Type.Object({ count: Type.Integer(), unread_total: Type.Integer(), results: Type.Array(ConversationSchema) });
export type InboxPage = Static<typeof InboxPageSchema>;
/** A reply from the owner, Telegram HTML (the app escapes what is typed). */
export const ReplyBodySchema = Type.Object({ text: Text(MESSAGE_HTML_MAX, 1) });
export type ReplyBody = Static<typeof ReplyBodySchema>;

// --- results -------------------------------------------------------------------------------------
export const StatsQuerySchema = Type.Object({ period: Type.Optional(StringEnum(STATS_PERIODS)), tz: Type.Optional(Text(TIME_ZONE_MAX)) });
export type StatsQuery = Static<typeof StatsQuerySchema>;
/** Per stage: in it now, reached it in the period, and moved on from it in the period. */
export const StageStatsSchema = Type.Object({
  stage_id: Type.Integer(),
  now: Type.Integer(),
  reached: Type.Integer(),
  /**
   * People who left it for another stage in the period, by any button, keyword or move (each
   * counted once): with branches, "went on to the next stage" would not be true. `moves` says where.
   */
  moved_on: Type.Integer(),
  /** Payments of the stage's invoice made in the period and not refunded, and their Stars. */
  paid: Type.Integer(),
  revenue: Type.Integer(),
});
export type StageStats = Static<typeof StageStatsSchema>;
/** Where people went next from a stage in the period: per destination and per button, keyword or next step (stage_moves). */
export const StageMoveStatsSchema = Type.Object({
  from_stage_id: Type.Integer(),
  /** null: the destination stage was deleted since. */
  to_stage_id: Nullable(Type.Integer()),
  via: StringEnum(STAGE_MOVE_VIA),
  /** The button's or keyword's text ('' for moves without one). */
  label: Text(),
  /** People who moved so in the period, each once. */
  count: Type.Integer(),
});
export type StageMoveStats = Static<typeof StageMoveStatsSchema>;
export const FunnelStatsSchema = Type.Object({
  period: StringEnum(STATS_PERIODS),
  /** Where the period began (null: all time). */
  since: Nullable(Timestamp()),
  stages: Type.Array(StageStatsSchema),
  /** People who joined in the period. */
  new_people: Type.Integer(),
  /** Where people who moved on in the period went, per stage and way, most first (people, each once per row). */
  moves: Type.Array(StageMoveStatsSchema),
  /** Payments made in the period and not refunded, and their Stars (revenue). */
  paid: Type.Integer(),
  revenue: Type.Integer(),
});
export type FunnelStats = Static<typeof FunnelStatsSchema>;
export type PersonTagBody = Static<typeof PersonTagBodySchema>;

// --- dashboard -----------------------------------------------------------------------------------
export const DashboardQuerySchema = Type.Object({ tz: Type.Optional(Text(TIME_ZONE_MAX)), period: Type.Optional(StringEnum(STATS_PERIODS)) });
export const DashboardFunnelSchema = Type.Object({
  id: Type.Integer(),
  name: Text(),
  bot_username: Nullable(Text()),
  state: StringEnum(FUNNEL_STATES),
  stop_reason: Nullable(StringEnum(STOP_REASONS)),
  stages: Type.Array(
    Type.Object({
      id: Type.Integer(),
      title: Text(),
      color: Text(),
      icon: StringEnum(STAGE_ICONS),
      people_count: Type.Integer(),
      /** Reached and moved on in the dashboard's period (see StageStats). */
      reached: Type.Integer(),
      moved_on: Type.Integer(),
      /** A payment stage's payments made in the period and not refunded, and their Stars (as the funnel's). */
      paid: Type.Integer(),
      revenue: Type.Integer(),
    }),
  ),
  people_count: Type.Integer(),
  today: Type.Object({ new_people: Type.Integer(), messages_sent: Type.Integer(), stage_moves: Type.Integer() }),
  /** Payments made in the dashboard's period and not refunded, and their Stars (revenue). */
  paid: Type.Integer(),
  revenue: Type.Integer(),
});
export type DashboardFunnel = Static<typeof DashboardFunnelSchema>;

// --- keywords ------------------------------------------------------------------------------------
/** A word or phrase that moves a person who writes it to a stage. */
export const KeywordSchema = Type.Object({
  id: Type.Integer(),
  funnel_id: Type.Integer(),
  phrase: Text(),
  stage_id: Type.Integer(),
  created_at: Timestamp(),
});
export type Keyword = Static<typeof KeywordSchema>;
export const KeywordBodySchema = Type.Object({ phrase: Text(KEYWORD_PHRASE_MAX, 1), stage_id: Id() });
export type KeywordBody = Static<typeof KeywordBodySchema>;
export const KeywordPatchSchema = Type.Partial(KeywordBodySchema);
export type KeywordPatch = Static<typeof KeywordPatchSchema>;
