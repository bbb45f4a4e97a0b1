// The database tables. Migrations in ./migrations are generated from this file
// (`npm run db:generate`); never edit a generated migration by hand.
import { sql } from 'drizzle-orm';
import type { ContactsFilter } from '../../contract/contacts';
import type { Audience } from '../../contract/mailings';
import type { StageMoveVia } from '../../contract/funnels';
import type { StageWait } from '../../contract/timers';
import type { StagePayment } from '../../contract/payments';
import {
  type AnyPgColumn,
  bigint,
  bigserial,
  boolean,
  customType,
  check,
  index,
  integer,
  pgTable,
  primaryKey,
  serial,
  text,
  jsonb,
  timestamp,
  uniqueIndex,
  varchar,
} from 'drizzle-orm/pg-core';

/** Binary data (PGlite and node-postgres both hand back a Buffer/Uint8Array). */
const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => 'bytea' });

const timestamptz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    /** Always stored lowercased, so the unique index is case-insensitive in effect. Null for Telegram-only accounts. */
    email: varchar('email', { length: 254 }).unique(),
    /** scrypt string from accounts/passwords.ts; null = no usable password (Telegram-only accounts). */
    passwordHash: text('password_hash'),
    firstName: varchar('first_name', { length: 150 }).notNull().default(''),
    lastName: varchar('last_name', { length: 150 }).notNull().default(''),
    language: varchar('language', { length: 2 }).notNull().default('en').$type<'en' | 'ru'>(),
    role: varchar('role', { length: 10 }).notNull().default('user').$type<'user' | 'admin'>(),
    isActive: boolean('is_active').notNull().default(false),
    telegramId: bigint('telegram_id', { mode: 'number' }).unique(),
    telegramUsername: varchar('telegram_username', { length: 64 }),
    telegramPhotoUrl: text('telegram_photo_url'),
    dateJoined: timestamptz('date_joined').notNull().defaultNow(),
    lastLogin: timestamptz('last_login'),
    passwordChangedAt: timestamptz('password_changed_at'),
  },
  (t) => [
    check('users_language_check', sql`${t.language} in ('en', 'ru')`),
    check('users_role_check', sql`${t.role} in ('user', 'admin')`),
    check('users_email_lowercase_check', sql`${t.email} = lower(${t.email})`),
  ],
);

/** API tokens, one per signed-in device. Only the sha256 of the key is kept. */
export const authTokens = pgTable(
  'auth_tokens',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    keyHash: varchar('key_hash', { length: 64 }).notNull().unique(),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    lastUsedAt: timestamptz('last_used_at'),
    userAgent: varchar('user_agent', { length: 512 }),
  },
  (t) => [index('auth_tokens_user_id_idx').on(t.userId)],
);

/** Fixed-window attempt counters shared by every server process. */
export const rateLimits = pgTable(
  'rate_limits',
  {
    key: varchar('key', { length: 400 }).notNull(),
    windowStart: timestamptz('window_start').notNull(),
    count: integer('count').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.key, t.windowStart] }), index('rate_limits_window_start_idx').on(t.windowStart)],
);

export type UserRow = typeof users.$inferSelect;
export type NewUserRow = typeof users.$inferInsert;
export type AuthTokenRow = typeof authTokens.$inferSelect;

// ---------------------------------------------------------------------------------------------
// Funnels (issue 3). A funnel is one connected bot; its stages are an ordered list with a message
// each; people are the Telegram users who pressed /start on that bot.

export const funnels = pgTable(
  'funnels',
  {
    id: serial('id').primaryKey(),
    ownerId: integer('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: varchar('name', { length: 128 }).notNull(),
    // The bot: all five null for a funnel added from a template whose owner has not connected one yet.
    /** AES-256-GCM ciphertext of the BotFather token (key derived from SECRET_KEY). */
    botTokenEncrypted: text('bot_token_encrypted'),
    /** sha256 of the token: finds "already connected" without decrypting. */
    botTokenHash: varchar('bot_token_hash', { length: 64 }).unique(),
    /** "123456:AA…xyz", for display. */
    botTokenHint: varchar('bot_token_hint', { length: 32 }),
    botId: bigint('bot_id', { mode: 'number' }),
    botUsername: varchar('bot_username', { length: 64 }),
    /** The template version this funnel was made from (or last updated to); null: made by hand. */
    templateVersionId: integer('template_version_id').references((): AnyPgColumn => templateVersions.id, { onDelete: 'set null' }),
    /** The CRM folder it is grouped in (at most one). */
    folderId: integer('folder_id').references((): AnyPgColumn => crmFolders.id, { onDelete: 'set null' }),
    state: varchar('state', { length: 10 }).notNull().default('draft').$type<'draft' | 'running' | 'stopped'>(),
    /** Why it stopped by itself: Telegram refused the token, or billing stopped it when a subscription ended (a payment runs it again). */
    stopReason: varchar('stop_reason', { length: 32 }).$type<'token_revoked' | 'billing' | null>(),
    archivedAt: timestamptz('archived_at'),
    /** Set the first time the bot is run; from then on the stage order is locked. */
    firstRunAt: timestamptz('first_run_at'),
    /** The owner is told through the service bot when someone writes to the bot. */
    inboxAlerts: boolean('inbox_alerts').notNull().default(true),
    /** The incoming webhook's secret (its URL is /api/hooks/funnels/<id>/<secret>/); made when first shown, rotated by the owner. */
    inboundSecret: text('inbound_secret'),
    /** Highest update_id handled, so polling resumes after a restart without repeats. */
    updateOffset: bigint('update_offset', { mode: 'number' }).notNull().default(0),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    updatedAt: timestamptz('updated_at').notNull().defaultNow(),
  },
  (t) => [
    index('funnels_owner_id_idx').on(t.ownerId),
    index('funnels_state_idx').on(t.state),
    check('funnels_state_check', sql`${t.state} in ('draft', 'running', 'stopped')`),
    check('funnels_bot_check', sql`${t.state} = 'draft' or ${t.botTokenEncrypted} is not null`),
    index('funnels_template_version_idx').on(t.templateVersionId),
    index('funnels_folder_idx').on(t.folderId),
  ],
);

export const tags = pgTable(
  'tags',
  {
    id: serial('id').primaryKey(),
    funnelId: integer('funnel_id')
      .notNull()
      .references(() => funnels.id, { onDelete: 'cascade' }),
    title: varchar('title', { length: 64 }).notNull(),
    color: varchar('color', { length: 7 }).notNull().default('#2481cc'),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
  },
  // Unique per funnel without regard to case: "VIP" and "vip" are the same tag to a person.
  (t) => [uniqueIndex('tags_funnel_title_lower_idx').on(t.funnelId, sql`lower(${t.title})`)],
);

/** Uploaded images and videos; Telegram's file_id is kept after the first send to reuse it. */
export const media = pgTable(
  'media',
  {
    id: serial('id').primaryKey(),
    funnelId: integer('funnel_id')
      .notNull()
      .references(() => funnels.id, { onDelete: 'cascade' }),
    kind: varchar('kind', { length: 5 }).notNull().$type<'photo' | 'video'>(),
    filename: varchar('filename', { length: 255 }).notNull(),
    contentType: varchar('content_type', { length: 100 }).notNull(),
    size: integer('size').notNull(),
    data: bytea('data').notNull(),
    telegramFileId: text('telegram_file_id'),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
  },
  (t) => [index('media_funnel_id_idx').on(t.funnelId), check('media_kind_check', sql`${t.kind} in ('photo', 'video')`)],
);

export const stages = pgTable(
  'stages',
  {
    id: serial('id').primaryKey(),
    funnelId: integer('funnel_id')
      .notNull()
      .references(() => funnels.id, { onDelete: 'cascade' }),
    title: varchar('title', { length: 128 }).notNull(),
    icon: varchar('icon', { length: 16 }).notNull().default('flag'),
    color: varchar('color', { length: 7 }).notNull().default('#2481cc'),
    position: integer('position').notNull(),
    /** Everyone who reaches the stage gets this tag. */
    tagId: integer('tag_id').references(() => tags.id, { onDelete: 'set null' }),
    /** The stage's message: { text, media_id, buttons, next_button, choices? } (contract MessageContentBody). */
    message: jsonb('message')
      .$type<{
        text: string;
        media_id: number | null;
        buttons: Array<{ text: string; url: string }>;
        next_button: { text: string } | null;
        /** Absent in messages saved before choice buttons existed. stage_id null: its stage was deleted. */
        choices?: Array<{ text: string; stage_id: number | null }>;
      }>()
      .notNull()
      .default({ text: '', media_id: null, buttons: [], next_button: null }),
    /** After a while in the stage the person moves on (contract StageWait); to_stage_id null: its stage was deleted. */
    wait: jsonb('wait').$type<StageWait>(),
    /** A payment stage: the Stars invoice sent after its message, and where payers and refunds go (contract StagePayment). */
    payment: jsonb('payment').$type<StagePayment>(),
    /** Its question (contract StageAsk): the person's next message is kept in the field and moves them on. */
    ask: jsonb('ask').$type<{ field_id: number | null; reask_text: string }>(),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
  },
  (t) => [index('stages_funnel_position_idx').on(t.funnelId, t.position)],
);

/**
 * A funnel's traffic sources: each is a start link (`t.me/<bot>?start=src_<code>`); a person's
 * first source is kept on people.source_id. Archived ones keep their people but record no one new.
 */
export const funnelSources = pgTable(
  'funnel_sources',
  {
    id: serial('id').primaryKey(),
    funnelId: integer('funnel_id')
      .notNull()
      .references(() => funnels.id, { onDelete: 'cascade' }),
    name: varchar('name', { length: 64 }).notNull(),
    /** Random and url-safe: the start link's payload after "src_". */
    code: varchar('code', { length: 32 }).notNull(),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    archivedAt: timestamptz('archived_at'),
  },
  (t) => [
    uniqueIndex('funnel_sources_funnel_code_idx').on(t.funnelId, t.code),
    check('funnel_sources_code_check', sql`${t.code} ~ '^[A-Za-z0-9_-]{1,32}$'`),
  ],
);

export const people = pgTable(
  'people',
  {
    id: serial('id').primaryKey(),
    funnelId: integer('funnel_id')
      .notNull()
      .references(() => funnels.id, { onDelete: 'cascade' }),
    telegramId: bigint('telegram_id', { mode: 'number' }).notNull(),
    firstName: varchar('first_name', { length: 128 }).notNull().default(''),
    lastName: varchar('last_name', { length: 128 }).notNull().default(''),
    username: varchar('username', { length: 64 }),
    languageCode: varchar('language_code', { length: 16 }),
    stageId: integer('stage_id').references(() => stages.id, { onDelete: 'set null' }),
    /** The first source they came by (set once by /start src_<code>, never overwritten). */
    sourceId: integer('source_id').references((): AnyPgColumn => funnelSources.id, { onDelete: 'set null' }),
    /** The person blocked the bot (403): nothing is sent to them until they write again. */
    blocked: boolean('blocked').notNull().default(false),
    /** Messages they wrote that the owner has not read yet (the inbox), and when they last wrote. */
    unreadCount: integer('unread_count').notNull().default(0),
    lastMessageAt: timestamptz('last_message_at'),
    joinedAt: timestamptz('joined_at').notNull().defaultNow(),
    lastSeenAt: timestamptz('last_seen_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('people_funnel_telegram_idx').on(t.funnelId, t.telegramId),
    index('people_stage_id_idx').on(t.stageId),
    index('people_funnel_last_message_idx').on(t.funnelId, t.lastMessageAt),
    // Contacts (all of a user's bots, newest first) and a funnel's people, newest first.
    index('people_joined_idx').on(t.joinedAt, t.id),
    index('people_funnel_joined_idx').on(t.funnelId, t.joinedAt, t.id),
    // Results by source, and the source filter.
    index('people_funnel_source_joined_idx').on(t.funnelId, t.sourceId, t.joinedAt),
    // The contacts filter 'blocked': few rows, a small partial index.
    index('people_blocked_idx').on(t.funnelId).where(sql`${t.blocked}`),
    // The contacts search (part of a name or username, any case): trigram indexes (pg_trgm).
    index('people_name_trgm_idx').using('gin', sql`lower(${t.firstName} || ' ' || ${t.lastName}) gin_trgm_ops`),
    index('people_username_trgm_idx').using('gin', sql`lower(coalesce(${t.username}, '')) gin_trgm_ops`),
    // One contact across the owner's bots: the same Telegram user in each funnel.
    index('people_telegram_idx').on(t.telegramId),
  ],
);

export const personTags = pgTable(
  'person_tags',
  {
    personId: integer('person_id')
      .notNull()
      .references(() => people.id, { onDelete: 'cascade' }),
    tagId: integer('tag_id')
      .notNull()
      .references(() => tags.id, { onDelete: 'cascade' }),
    source: varchar('source', { length: 8 }).notNull().default('manual').$type<'manual' | 'stage' | 'button'>(),
    addedAt: timestamptz('added_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.personId, t.tagId] }),
    // A tag's holders, and those who got it since a moment (series joining and leaving on a tag).
    index('person_tags_tag_added_idx').on(t.tagId, t.addedAt),
  ],
);

/**
 * Who reached which stage, and when first: kept when they move on, send /start again or the
 * owner moves them, so a stage's "reached" and the conversion between stages stay true.
 */
export const stageReaches = pgTable(
  'stage_reaches',
  {
    personId: integer('person_id')
      .notNull()
      .references(() => people.id, { onDelete: 'cascade' }),
    stageId: integer('stage_id')
      .notNull()
      .references(() => stages.id, { onDelete: 'cascade' }),
    funnelId: integer('funnel_id')
      .notNull()
      .references(() => funnels.id, { onDelete: 'cascade' }),
    reachedAt: timestamptz('reached_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.personId, t.stageId] }), index('stage_reaches_funnel_stage_idx').on(t.funnelId, t.stageId, t.reachedAt)],
);

/**
 * One row per move of a person from one stage to another, written in the statement (or
 * transaction) of the move itself: a stage's results say where people went next, and by what.
 * No foreign key to the funnel: the person's is enough (as person_events).
 */
export const stageMoves = pgTable(
  'stage_moves',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    funnelId: integer('funnel_id').notNull(),
    personId: integer('person_id')
      .notNull()
      .references(() => people.id, { onDelete: 'cascade' }),
    fromStageId: integer('from_stage_id').references(() => stages.id, { onDelete: 'set null' }),
    toStageId: integer('to_stage_id').references(() => stages.id, { onDelete: 'set null' }),
    via: varchar('via', { length: 16 }).notNull().$type<StageMoveVia>(),
    /** The pressed button's or the matched keyword's text. */
    label: text('label').notNull().default(''),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
  },
  (t) => [
    index('stage_moves_funnel_from_created_idx').on(t.funnelId, t.fromStageId, t.createdAt),
    index('stage_moves_person_idx').on(t.personId),
    check('stage_moves_via_check', sql`${t.via} in ('start', 'next', 'choice', 'keyword', 'manual', 'timer', 'payment', 'refund', 'webhook', 'answer')`),
  ],
);

/** A funnel's keywords: a person who writes one (a whole word, any case) is moved to its stage. */
export const funnelKeywords = pgTable(
  'funnel_keywords',
  {
    id: serial('id').primaryKey(),
    funnelId: integer('funnel_id')
      .notNull()
      .references(() => funnels.id, { onDelete: 'cascade' }),
    phrase: varchar('phrase', { length: 64 }).notNull(),
    stageId: integer('stage_id')
      .notNull()
      .references(() => stages.id, { onDelete: 'cascade' }),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('funnel_keywords_funnel_phrase_idx').on(t.funnelId, sql`lower(${t.phrase})`), index('funnel_keywords_stage_idx').on(t.stageId)],
);
export type FunnelKeywordRow = typeof funnelKeywords.$inferSelect;

/** Everything sent to and received from a person (contract HistoryEntry). */
export const personEvents = pgTable(
  'person_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    personId: integer('person_id')
      .notNull()
      .references(() => people.id, { onDelete: 'cascade' }),
    /**
     * The person's funnel, copied for the indexes. No foreign key of its own: the person's is
     * enough (deleting a funnel deletes its people, and with them this row), and a second check
     * locked the funnel's row for every event written (a runtime writes several a reply).
     */
    funnelId: integer('funnel_id').notNull(),
    direction: varchar('direction', { length: 3 }).notNull().$type<'in' | 'out'>(),
    kind: varchar('kind', { length: 16 }).notNull().$type<'text' | 'command' | 'button' | 'stage_message' | 'reply' | 'mailing' | 'letter'>(),
    text: text('text').notNull().default(''),
    stageId: integer('stage_id').references(() => stages.id, { onDelete: 'set null' }),
    telegramMessageId: bigint('telegram_message_id', { mode: 'number' }),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
  },
  (t) => [index('person_events_person_idx').on(t.personId, t.id), index('person_events_funnel_created_idx').on(t.funnelId, t.createdAt)],
);

/** Updates already handled, per funnel: a webhook retry or a second process never handles one twice. */
export const handledUpdates = pgTable(
  'handled_updates',
  {
    funnelId: integer('funnel_id')
      .notNull()
      .references(() => funnels.id, { onDelete: 'cascade' }),
    updateId: bigint('update_id', { mode: 'number' }).notNull(),
    handledAt: timestamptz('handled_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.funnelId, t.updateId] }), index('handled_updates_handled_at_idx').on(t.handledAt)],
);

// Mailings and the outbox (issue 9). A mailing's recipients are rows of the outbox, one per
// (mailing, person), made in the transaction that starts it: never a cursor. Each row goes
// waiting → sending (claimed, in small batches, by the process that holds the bot's lease) → sent |
// failed | blocked (or waiting again after a 429 or a 5xx); a row found sending after its process
// died is unknown and is never sent again. "Delete from the chats": sent → unsend → deleting → deleted.

export type MailingMessage = { text: string; media_id: number | null; buttons: Array<{ text: string; url: string }>; next_button: null };
export type MailingAudience = Audience;

export const mailings = pgTable(
  'mailings',
  {
    id: serial('id').primaryKey(),
    funnelId: integer('funnel_id')
      .notNull()
      .references(() => funnels.id, { onDelete: 'cascade' }),
    title: varchar('title', { length: 128 }).notNull(),
    message: jsonb('message').$type<MailingMessage>().notNull(),
    audience: jsonb('audience').$type<MailingAudience>().notNull(),
    state: varchar('state', { length: 10 })
      .notNull()
      .default('draft')
      .$type<'draft' | 'scheduled' | 'sending' | 'paused' | 'cancelled' | 'finished'>(),
    pauseReason: varchar('pause_reason', { length: 32 }).$type<'token_revoked' | 'too_many_errors' | 'paid_broadcast_unavailable' | 'billing' | null>(),
    paidBroadcast: boolean('paid_broadcast').notNull().default(false),
    scheduledAt: timestamptz('scheduled_at'),
    startedAt: timestamptz('started_at'),
    finishedAt: timestamptz('finished_at'),
    unsentAt: timestamptz('unsent_at'),
    /** Recipients made when it started (0 before). */
    recipientCount: integer('recipient_count').notNull().default(0),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    updatedAt: timestamptz('updated_at').notNull().defaultNow(),
  },
  (t) => [
    index('mailings_funnel_idx').on(t.funnelId, t.id),
    index('mailings_scheduled_idx').on(t.scheduledAt).where(sql`${t.state} = 'scheduled'`),
    check('mailings_state_check', sql`${t.state} in ('draft', 'scheduled', 'sending', 'paused', 'cancelled', 'finished')`),
  ],
);

export const outbox = pgTable(
  'outbox',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** The person's funnel. No foreign key of its own, as in person_events: the person's is enough. */
    funnelId: integer('funnel_id').notNull(),
    personId: integer('person_id')
      .notNull()
      .references(() => people.id, { onDelete: 'cascade' }),
    mailingId: integer('mailing_id').references(() => mailings.id, { onDelete: 'cascade' }),
    /** A letter's moment: the letter, the moment, and what the moment counts from (k-th occurrence). */
    letterId: integer('letter_id').references((): AnyPgColumn => letters.id, { onDelete: 'cascade' }),
    seriesId: integer('series_id').references((): AnyPgColumn => letterSeries.id, { onDelete: 'cascade' }),
    moment: timestamptz('moment'),
    anchor: timestamptz('anchor'),
    occurrence: integer('occurrence'),
    /** A repeating letter's next moment has been made (or is not wanted): the sweep passes it by. */
    followed: boolean('followed').notNull().default(true),
    /**
     * A funnel bot's reply (issue 11): the message of `stageId`, written in the statement that
     * claims the update which causes it, and sent by the bot runtime of the process `owner` (not
     * by the outbox sender); deleted once sent (the person's history has it). A dead owner's
     * waiting replies are taken over by a live runtime, its sending ones become unknown.
     */
    reply: boolean('reply').notNull().default(false),
    /** A reply that is the stage's re-ask text (its answer did not fit the field), not its message. */
    askAgain: boolean('ask_again').notNull().default(false),
    /** No foreign key (one lookup less per reply): a deleted stage's reply is skipped when its turn comes. */
    stageId: integer('stage_id'),
    /**
     * The process that has this message: a reply's runtime; for a mailing or a letter, the outbox
     * sender that put it on the wire (named right before its request, under the bot's lease; a
     * claimed row without an owner never reached Telegram and goes back to waiting).
     */
    owner: varchar('owner', { length: 64 }),
    /** Lower goes first (replies 0, letters 5, mailings 10). */
    priority: integer('priority').notNull().default(10),
    state: varchar('state', { length: 10 })
      .notNull()
      .default('waiting')
      .$type<'waiting' | 'sending' | 'sent' | 'failed' | 'blocked' | 'unknown' | 'cancelled' | 'skipped' | 'unsend' | 'deleting' | 'deleted'>(),
    notBefore: timestamptz('not_before').notNull().defaultNow(),
    attempts: integer('attempts').notNull().default(0),
    telegramMessageId: bigint('telegram_message_id', { mode: 'number' }),
    error: text('error'),
    sentAt: timestamptz('sent_at'),
    updatedAt: timestamptz('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('outbox_mailing_person_idx').on(t.mailingId, t.personId).where(sql`${t.mailingId} is not null`),
    uniqueIndex('outbox_letter_moment_idx').on(t.letterId, t.personId, t.moment).where(sql`${t.letterId} is not null`),
    index('outbox_series_person_idx').on(t.seriesId, t.personId).where(sql`${t.seriesId} is not null`),
    index('outbox_letters_due_idx').on(t.notBefore).where(sql`${t.state} = 'waiting' and ${t.letterId} is not null`),
    index('outbox_unfollowed_idx').on(t.moment).where(sql`${t.letterId} is not null and not ${t.followed}`),
    // Partial: a bot's replies (most rows of a busy bot) do not touch it.
    index('outbox_mailing_state_idx').on(t.mailingId, t.state).where(sql`${t.mailingId} is not null`),
    index('outbox_due_idx').on(t.funnelId, t.priority, t.id).where(sql`${t.state} = 'waiting'`),
    // The outbox sender's open rows; a bot's replies (sent by the runtime) stay out of it.
    index('outbox_open_idx').on(t.funnelId).where(sql`${t.state} in ('sending', 'unsend', 'deleting') and not ${t.reply}`),
    index('outbox_person_idx').on(t.personId),
    index('outbox_replies_open_idx').on(t.funnelId, t.personId, t.id).where(sql`${t.reply} and ${t.state} in ('waiting', 'sending')`),
  ],
);

/**
 * The bot runtimes alive now (one per server process), each renewing its row every few seconds:
 * the replies of a runtime whose row ran out are taken over (waiting) or counted unknown (sending).
 */
export const runtimeProcesses = pgTable('runtime_processes', {
  owner: varchar('owner', { length: 64 }).primaryKey(),
  aliveUntil: timestamptz('alive_until').notNull(),
});

/**
 * Which process sends a bot's outbox now: one at a time per bot, so the bot's rate holds across
 * processes. The lease runs out when its process dies; the next holder turns that process's
 * unsent claims back to waiting and its on-the-wire rows to unknown.
 */
export const botSenders = pgTable('bot_senders', {
  funnelId: integer('funnel_id')
    .primaryKey()
    .references(() => funnels.id, { onDelete: 'cascade' }),
  owner: varchar('owner', { length: 64 }).notNull(),
  leaseUntil: timestamptz('lease_until').notNull(),
  /** A 429 asked the bot to wait: nobody sends for it before this. */
  pausedUntil: timestamptz('paused_until'),
});

// Series of letters (drip sequences). A person joins a series (on /start, a stage, a tag, or by
// hand) and gets its letters at their moments; each moment is an outbox row (letter, person,
// moment), made in the transaction that makes the person a member or that settles the letter's
// previous moment, so a moment is sent once however many processes look at it.

export type LetterSendingTime = { kind: 'through' | 'every'; every: number; unit: 'years' | 'months' | 'days' | 'hours'; time_of_day: string | null };

/** A message in a template snapshot (templates/snapshot.ts takes and applies them). */
export interface SnapshotMessage {
  text: string;
  /** A template_media id, or null. */
  media: number | null;
  buttons: Array<{ text: string; url: string }>;
  next_button: { text: string } | null;
  /** Choice buttons; `stage` is an index into the snapshot's stages (null: broken). Absent in older versions. */
  choices?: Array<{ text: string; stage: number | null }>;
}

/** A payment stage's invoice in a template snapshot: its stages by index. */
export interface SnapshotPayment {
  title: string;
  description: string;
  amount: number;
  paid_stage: number | null;
  refund_stage: number | null;
}

/** A template version's snapshot, stored as template_versions.snapshot (see templates/snapshot.ts). */
export interface TemplateSnapshot {
  /** The template's name when this version was published (absent in versions made before it was kept). */
  name?: string;
  tags: Array<{ title: string; color: string }>;
  stages: Array<{
    title: string;
    icon: string;
    color: string;
    tag: number | null;
    message: SnapshotMessage;
    /** The stage's wait; `to_stage` is an index into `stages` (null: broken). Absent when it has none, and in older versions. */
    wait?: { amount: number; unit: StageWait['unit']; to_stage: number | null; only_if_silent: boolean };
    /** A payment stage's `payment` names its paid and refund stages by index in `stages` (null: broken). Absent in older versions. */
    payment?: SnapshotPayment;
    /** The stage's question: `field` is an index into `fields` (null: broken). Absent when it asks nothing, and in older versions. */
    ask?: { field: number | null; reask_text: string };
  }>;
  /** The funnel's fields (values are people's, so not kept). Absent when it has none, and in older versions. */
  fields?: Array<{ key: string; title: string; kind: FunnelFieldRow['kind']; options: string[] }>;
  /** Keywords, each leading to a stage by its index in `stages` (absent in older versions). */
  keywords?: Array<{ phrase: string; stage: number }>;
  series: Array<{
    name: string;
    join_on: { on: 'start' | 'stage' | 'tag' | 'manual'; stage: number | null; tag: number | null };
    leave_on: { stage: number | null; tag: number | null };
    time_zone: string;
    catch_up_hours: number;
    enabled: boolean;
    letters: Array<{ name: string; message: SnapshotMessage; sending_time: LetterSendingTime | null; enabled: boolean }>;
  }>;
}

export type SeriesTrigger = { on: 'start' | 'stage' | 'tag' | 'manual'; stage_id: number | null; tag_id: number | null };
export type SeriesLeave = { stage_id: number | null; tag_id: number | null };

export const letterSeries = pgTable(
  'letter_series',
  {
    id: serial('id').primaryKey(),
    funnelId: integer('funnel_id')
      .notNull()
      .references(() => funnels.id, { onDelete: 'cascade' }),
    name: varchar('name', { length: 128 }).notNull(),
    joinOn: jsonb('join_on').$type<SeriesTrigger>().notNull(),
    leaveOn: jsonb('leave_on').$type<SeriesLeave>().notNull(),
    /** The owner's IANA time zone: sending times are in it. */
    timeZone: varchar('time_zone', { length: 64 }).notNull().default('UTC'),
    /** A moment more than this late (after downtime) is skipped, not sent. */
    catchUpHours: integer('catch_up_hours').notNull().default(24),
    /** Joins count from this moment (null: the series is off). */
    enabledAt: timestamptz('enabled_at'),
    /** Billing switched it off when the subscription ended: its enabled_at, put back on payment. */
    billingPausedEnabledAt: timestamptz('billing_paused_enabled_at'),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
  },
  (t) => [index('letter_series_funnel_idx').on(t.funnelId)],
);

export const letters = pgTable(
  'letters',
  {
    id: serial('id').primaryKey(),
    seriesId: integer('series_id')
      .notNull()
      .references(() => letterSeries.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    name: varchar('name', { length: 128 }).notNull(),
    message: jsonb('message').$type<MailingMessage>().notNull(),
    sendingTime: jsonb('sending_time').$type<LetterSendingTime | null>(),
    enabled: boolean('enabled').notNull().default(false),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
  },
  (t) => [index('letters_series_idx').on(t.seriesId, t.position)],
);

export const seriesMembers = pgTable(
  'series_members',
  {
    seriesId: integer('series_id')
      .notNull()
      .references(() => letterSeries.id, { onDelete: 'cascade' }),
    personId: integer('person_id')
      .notNull()
      .references(() => people.id, { onDelete: 'cascade' }),
    joinedAt: timestamptz('joined_at').notNull(),
    leftAt: timestamptz('left_at'),
    how: varchar('how', { length: 8 }).notNull().$type<'start' | 'stage' | 'tag' | 'manual'>(),
  },
  (t) => [primaryKey({ columns: [t.seriesId, t.personId] }), index('series_members_person_idx').on(t.personId)],
);

export type MailingRow = typeof mailings.$inferSelect;
export type OutboxRow = typeof outbox.$inferSelect;
export type LetterSeriesRow = typeof letterSeries.$inferSelect;
export type LetterRow = typeof letters.$inferSelect;

export type FunnelRow = typeof funnels.$inferSelect;
export type StageRow = typeof stages.$inferSelect;
export type TagRow = typeof tags.$inferSelect;
export type PersonRow = typeof people.$inferSelect;
export type MediaRow = typeof media.$inferSelect;
export type FunnelSourceRow = typeof funnelSources.$inferSelect;

// Templates (issue 10): an admin publishes one of their funnels 'for affiliates'. Each publishing
// is a version: a snapshot of the stages, messages, tags and series of letters (TemplateSnapshot),
// with copies of its media, so later edits of the source funnel never leak into it and funnels
// made from an older version never change.

export const templates = pgTable(
  'templates',
  {
    id: serial('id').primaryKey(),
    publisherId: integer('publisher_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The funnel it is published from (null once that funnel is deleted; the versions stay). */
    sourceFunnelId: integer('source_funnel_id').references(() => funnels.id, { onDelete: 'set null' }),
    name: varchar('name', { length: 128 }).notNull(),
    description: text('description').notNull().default(''),
    coverType: varchar('cover_type', { length: 100 }),
    cover: bytea('cover'),
    /** Unpublished templates are hidden from the list; funnels made from them stay as they are. */
    published: boolean('published').notNull().default(true),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    updatedAt: timestamptz('updated_at').notNull().defaultNow(),
  },
  (t) => [index('templates_source_funnel_idx').on(t.sourceFunnelId)],
);

export const templateVersions = pgTable(
  'template_versions',
  {
    id: serial('id').primaryKey(),
    templateId: integer('template_id')
      .notNull()
      .references(() => templates.id, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
    snapshot: jsonb('snapshot').$type<TemplateSnapshot>().notNull(),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('template_versions_template_version_idx').on(t.templateId, t.version)],
);

/** A version's media: copied when published, copied again into each funnel made from it. */
export const templateMedia = pgTable(
  'template_media',
  {
    id: serial('id').primaryKey(),
    versionId: integer('version_id')
      .notNull()
      .references(() => templateVersions.id, { onDelete: 'cascade' }),
    kind: varchar('kind', { length: 5 }).notNull().$type<'photo' | 'video'>(),
    filename: varchar('filename', { length: 255 }).notNull(),
    contentType: varchar('content_type', { length: 100 }).notNull(),
    size: integer('size').notNull(),
    data: bytea('data').notNull(),
  },
  (t) => [index('template_media_version_idx').on(t.versionId)],
);

// CRM folders and lists (issue 10). A folder is a user's workspace: a name, a picture and a
// background, grouping funnels (funnels.folder_id: at most one folder each), chosen templates and
// lists; its contacts are the people of its funnels. A list is static (people picked by hand) or
// a saved segment (a contacts filter that stays live).

export const crmFolders = pgTable(
  'crm_folders',
  {
    id: serial('id').primaryKey(),
    ownerId: integer('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: varchar('name', { length: 128 }).notNull(),
    pictureType: varchar('picture_type', { length: 100 }),
    picture: bytea('picture'),
    backgroundType: varchar('background_type', { length: 100 }),
    background: bytea('background'),
    archivedAt: timestamptz('archived_at'),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    updatedAt: timestamptz('updated_at').notNull().defaultNow(),
  },
  (t) => [index('crm_folders_owner_idx').on(t.ownerId)],
);

export const folderTemplates = pgTable(
  'folder_templates',
  {
    folderId: integer('folder_id')
      .notNull()
      .references(() => crmFolders.id, { onDelete: 'cascade' }),
    templateId: integer('template_id')
      .notNull()
      .references(() => templates.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.folderId, t.templateId] }), index('folder_templates_template_idx').on(t.templateId)],
);

export const contactLists = pgTable(
  'contact_lists',
  {
    id: serial('id').primaryKey(),
    ownerId: integer('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    folderId: integer('folder_id').references(() => crmFolders.id, { onDelete: 'set null' }),
    name: varchar('name', { length: 128 }).notNull(),
    kind: varchar('kind', { length: 8 }).notNull().$type<'static' | 'segment'>(),
    /** The segment's filter; null for a static list. */
    filter: jsonb('filter').$type<ContactsFilter>(),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    updatedAt: timestamptz('updated_at').notNull().defaultNow(),
  },
  (t) => [
    index('contact_lists_owner_idx').on(t.ownerId),
    index('contact_lists_folder_idx').on(t.folderId),
    check('contact_lists_kind_check', sql`${t.kind} in ('static', 'segment')`),
  ],
);

export const contactListMembers = pgTable(
  'contact_list_members',
  {
    listId: integer('list_id')
      .notNull()
      .references(() => contactLists.id, { onDelete: 'cascade' }),
    personId: integer('person_id')
      .notNull()
      .references(() => people.id, { onDelete: 'cascade' }),
    addedAt: timestamptz('added_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.listId, t.personId] }), index('contact_list_members_person_idx').on(t.personId)],
);

// The partner programme (issue 23). Links with a public uid each; clicks on them; who signed up
// through which link (once, for good); a referral seen by the service bot before its Telegram
// user signed up; the partner ledger (append-only: a trigger refuses UPDATE and DELETE, and the
// balance is always its sum per currency); withdrawal requests, whose state changes live here.

export const partnerLinks = pgTable(
  'partner_links',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    uid: varchar('uid', { length: 32 }).notNull().unique(),
    label: varchar('label', { length: 64 }),
    isDefault: boolean('is_default').notNull().default(false),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
  },
  (t) => [
    index('partner_links_user_idx').on(t.userId),
    // One default link per user, made lazily: two first visits at once make one.
    uniqueIndex('partner_links_default_idx').on(t.userId).where(sql`${t.isDefault}`),
  ],
);

export const partnerClicks = pgTable(
  'partner_clicks',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    linkId: integer('link_id')
      .notNull()
      .references(() => partnerLinks.id, { onDelete: 'cascade' }),
    kind: varchar('kind', { length: 3 }).notNull().$type<'web' | 'bot' | 'app'>(),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
  },
  (t) => [index('partner_clicks_link_idx').on(t.linkId, t.createdAt), check('partner_clicks_kind_check', sql`${t.kind} in ('web', 'bot', 'app')`)],
);

/** Who signed up through a partner's link: one row per referred user, written once at sign-up. */
export const partnerAttributions = pgTable(
  'partner_attributions',
  {
    userId: integer('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    linkId: integer('link_id')
      .notNull()
      .references(() => partnerLinks.id, { onDelete: 'cascade' }),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
  },
  (t) => [index('partner_attributions_link_idx').on(t.linkId, t.createdAt)],
);

/** /start ref_<uid> in the service bot from a Telegram user with no account yet: the first one is kept. */
export const partnerPendingReferrals = pgTable('partner_pending_referrals', {
  telegramId: bigint('telegram_id', { mode: 'number' }).primaryKey(),
  linkId: integer('link_id')
    .notNull()
    .references(() => partnerLinks.id, { onDelete: 'cascade' }),
  createdAt: timestamptz('created_at').notNull().defaultNow(),
});

export const partnerWithdrawals = pgTable(
  'partner_withdrawals',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    amount: integer('amount').notNull(),
    currency: varchar('currency', { length: 3 }).notNull(),
    method: varchar('method', { length: 200 }).notNull(),
    state: varchar('state', { length: 9 }).notNull().default('requested').$type<'requested' | 'approved' | 'rejected' | 'paid'>(),
    requestedAt: timestamptz('requested_at').notNull().defaultNow(),
    approvedAt: timestamptz('approved_at'),
    rejectedAt: timestamptz('rejected_at'),
    paidAt: timestamptz('paid_at'),
  },
  (t) => [
    index('partner_withdrawals_user_idx').on(t.userId, t.requestedAt),
    index('partner_withdrawals_state_idx').on(t.state, t.requestedAt),
    check('partner_withdrawals_state_check', sql`${t.state} in ('requested', 'approved', 'rejected', 'paid')`),
    check('partner_withdrawals_amount_check', sql`${t.amount} > 0`),
  ],
);

/**
 * The partner ledger. `key` makes each line happen once: commission:<payment key>,
 * reversal:<payment key> (the void or the clawback of that payment's commission),
 * withdrawal:<id>, withdrawal_returned:<id>. A line counts as available from available_at on
 * (a commission: payment + hold; its void: the same moment, so the two net to zero in either
 * bucket; the others: when written).
 */
export const partnerLedger = pgTable(
  'partner_ledger',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    key: text('key').notNull().unique(),
    kind: varchar('kind', { length: 19 }).notNull().$type<'commission' | 'void' | 'clawback' | 'withdrawal' | 'withdrawal_returned'>(),
    amount: integer('amount').notNull(),
    currency: varchar('currency', { length: 3 }).notNull(),
    availableAt: timestamptz('available_at').notNull(),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    /** The referred payment (commission, void, clawback): the billing ledger's key, who paid, how much, through which link. */
    paymentKey: text('payment_key'),
    payerUserId: integer('payer_user_id'),
    paymentAmount: integer('payment_amount'),
    linkId: integer('link_id'),
    withdrawalId: integer('withdrawal_id').references(() => partnerWithdrawals.id),
  },
  (t) => [
    index('partner_ledger_user_idx').on(t.userId, t.currency, t.availableAt),
    index('partner_ledger_payment_idx').on(t.paymentKey),
    index('partner_ledger_link_idx').on(t.linkId, t.createdAt),
    check('partner_ledger_kind_check', sql`${t.kind} in ('commission', 'void', 'clawback', 'withdrawal', 'withdrawal_returned')`),
  ],
);

/** Payments refunded (billing keys), so a commission that arrives after its refund is never written. */
export const partnerRefundedPayments = pgTable('partner_refunded_payments', {
  paymentKey: text('payment_key').primaryKey(),
  createdAt: timestamptz('created_at').notNull().defaultNow(),
});

export type PartnerLinkRow = typeof partnerLinks.$inferSelect;
export type PartnerLedgerRow = typeof partnerLedger.$inferSelect;
export type PartnerWithdrawalRow = typeof partnerWithdrawals.$inferSelect;

// ---------------------------------------------------------------------------------------------
// Billing (issue 23): plans, one subscription per user, and the append-only ledger of payments,
// renewals, refunds and cancellations (a trigger refuses UPDATE, DELETE and TRUNCATE on it).

export const plans = pgTable(
  'plans',
  {
    id: serial('id').primaryKey(),
    title: varchar('title', { length: 64 }).notNull(),
    description: text('description').notNull().default(''),
    isFree: boolean('is_free').notNull().default(false),
    /** null: no limit. */
    maxRunningFunnels: integer('max_running_funnels'),
    maxPeople: integer('max_people'),
    mailings: boolean('mailings').notNull().default(false),
    letters: boolean('letters').notNull().default(false),
    priceStars: integer('price_stars'),
    /** Minor units of card_currency. */
    priceCard: integer('price_card'),
    cardCurrency: varchar('card_currency', { length: 3 }),
    archived: boolean('archived').notNull().default(false),
    position: integer('position').notNull().default(0),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
  },
  () => [
    check('plans_card_price_check', sql`(price_card is null) = (card_currency is null)`),
    check('plans_free_unpriced_check', sql`not is_free or (price_stars is null and price_card is null)`),
  ],
);

export const subscriptions = pgTable(
  'subscriptions',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .unique()
      .references(() => users.id, { onDelete: 'cascade' }),
    planId: integer('plan_id').references(() => plans.id, { onDelete: 'set null' }),
    method: varchar('method', { length: 8 }).notNull().$type<'stars' | 'card'>(),
    paidUntil: timestamptz('paid_until').notNull(),
    /** Bots keep answering to here (paid_until + 3 days; a refund ends it at once). */
    graceUntil: timestamptz('grace_until').notNull(),
    /** false once cancelled (or refunded): access lasts to paid_until, then ends. */
    renews: boolean('renews').notNull().default(true),
    /** Stars: the first telegram_payment_charge_id; card: the provider's subscription id. */
    externalId: text('external_id'),
    /** Up by one with each new subscription: a cancel link signed for an older one stops working. */
    cancelGeneration: integer('cancel_generation').notNull().default(0),
    /** The paid_until whose grace notice went out (once per ending). */
    graceNotifiedFor: timestamptz('grace_notified_for'),
    /** The paid_until whose ending (stopping what is over the free plan) was applied. */
    endedFor: timestamptz('ended_for'),
    updatedAt: timestamptz('updated_at').notNull().defaultNow(),
  },
  (t) => [index('subscriptions_paid_until_idx').on(t.paidUntil), index('subscriptions_grace_until_idx').on(t.graceUntil), check('subscriptions_method_check', sql`${t.method} in ('stars', 'card')`)],
);

export const billingEvents = pgTable(
  'billing_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** No foreign key: the ledger outlives a deleted account. */
    userId: integer('user_id').notNull(),
    /** Idempotency: stars:charge:<charge id>, stars:refund:<charge id>, card:event:<event id>, cancel:<user>:<generation>. */
    key: text('key').notNull().unique(),
    kind: varchar('kind', { length: 16 }).notNull().$type<'payment' | 'renewal' | 'refund' | 'partial_refund' | 'cancel' | 'resume' | 'payment_failed'>(),
    method: varchar('method', { length: 8 }).notNull().$type<'stars' | 'card'>(),
    planId: integer('plan_id'),
    amount: integer('amount').notNull(),
    currency: varchar('currency', { length: 8 }).notNull(),
    paidUntil: timestamptz('paid_until'),
    externalId: text('external_id'),
    chargeId: text('charge_id'),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
  },
  (t) => [
    index('billing_events_user_idx').on(t.userId, t.id),
    index('billing_events_charge_idx').on(t.chargeId).where(sql`${t.chargeId} is not null`),
    check('billing_events_kind_check', sql`${t.kind} in ('payment', 'renewal', 'refund', 'partial_refund', 'cancel', 'resume', 'payment_failed')`),
    check('billing_events_method_check', sql`${t.method} in ('stars', 'card')`),
  ],
);

export type PlanRow = typeof plans.$inferSelect;
export type SubscriptionRow = typeof subscriptions.$inferSelect;
export type BillingEventRow = typeof billingEvents.$inferSelect;

/**
 * A person's timed move (a stage's wait): made and cancelled by the database itself (a trigger on
 * stage_moves, migration 0023), fired by the delivery engine (outbox/timer-scheduler.ts). At most
 * one waits per person.
 */
export const personTimers = pgTable(
  'person_timers',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    funnelId: integer('funnel_id').notNull(),
    personId: integer('person_id')
      .notNull()
      .references(() => people.id, { onDelete: 'cascade' }),
    stageId: integer('stage_id')
      .notNull()
      .references(() => stages.id, { onDelete: 'cascade' }),
    toStageId: integer('to_stage_id').references(() => stages.id, { onDelete: 'set null' }),
    dueAt: timestamptz('due_at').notNull(),
    onlyIfSilent: boolean('only_if_silent').notNull(),
    state: varchar('state', { length: 16 }).notNull().default('waiting').$type<'waiting' | 'fired' | 'cancelled' | 'skipped'>(),
    firedAt: timestamptz('fired_at'),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
  },
  (t) => [
    index('person_timers_due_idx').on(t.dueAt).where(sql`${t.state} = 'waiting'`),
    uniqueIndex('person_timers_waiting_person_idx').on(t.personId).where(sql`${t.state} = 'waiting'`),
    index('person_timers_person_idx').on(t.personId, t.id),
    index('person_timers_stage_idx').on(t.stageId),
    index('person_timers_to_stage_idx').on(t.toStageId),
    check('person_timers_state_check', sql`${t.state} in ('waiting', 'fired', 'cancelled', 'skipped')`),
  ],
);
export type PersonTimerRow = typeof personTimers.$inferSelect;

/** Outgoing webhooks (issue 24): a funnel POSTs its events, signed, to the owner's URLs. */
export const funnelWebhooks = pgTable(
  'funnel_webhooks',
  {
    id: serial('id').primaryKey(),
    funnelId: integer('funnel_id')
      .notNull()
      .references(() => funnels.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    /** The HMAC-SHA256 key of X-Funnel-Signature (shown to the owner once, at creation or rotation). */
    secret: text('secret').notNull(),
    events: jsonb('events').notNull().default([]).$type<string[]>(),
    enabled: boolean('enabled').notNull().default(true),
    /** Why it was switched off by itself ('failing': its deliveries failed for a day). */
    disabledReason: varchar('disabled_reason', { length: 32 }),
    /** The first failure since the last success (null: not failing). */
    failingSince: timestamptz('failing_since'),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
  },
  (t) => [index('funnel_webhooks_funnel_idx').on(t.funnelId)],
);

/**
 * One POST to make per webhook and event, made by enqueue_funnel_webhooks() (migration 0025) in
 * the transaction of the event itself; sent by server/outbox/webhook-sender.ts.
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    webhookId: integer('webhook_id')
      .notNull()
      .references(() => funnelWebhooks.id, { onDelete: 'cascade' }),
    funnelId: integer('funnel_id').notNull(),
    /** The same for every webhook told of one event: the receiver's dedup key. */
    eventId: text('event_id').notNull(),
    event: varchar('event', { length: 32 }).notNull(),
    body: jsonb('body').notNull(),
    state: varchar('state', { length: 16 }).notNull().default('waiting').$type<'waiting' | 'sending' | 'sent' | 'failed'>(),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamptz('next_attempt_at').notNull().defaultNow(),
    leaseOwner: text('lease_owner'),
    leaseUntil: timestamptz('lease_until'),
    lastStatus: integer('last_status'),
    lastError: text('last_error'),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    sentAt: timestamptz('sent_at'),
  },
  (t) => [
    uniqueIndex('webhook_deliveries_webhook_event_idx').on(t.webhookId, t.eventId),
    index('webhook_deliveries_due_idx').on(t.nextAttemptAt).where(sql`${t.state} in ('waiting', 'sending')`),
    index('webhook_deliveries_log_idx').on(t.webhookId, t.createdAt),
    check('webhook_deliveries_state_check', sql`${t.state} in ('waiting', 'sending', 'sent', 'failed')`),
  ],
);

/** Incoming webhook events applied, once per (funnel, event id). */
export const funnelInboundEvents = pgTable(
  'funnel_inbound_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    funnelId: integer('funnel_id')
      .notNull()
      .references(() => funnels.id, { onDelete: 'cascade' }),
    eventId: text('event_id').notNull(),
    action: varchar('action', { length: 16 }).notNull(),
    personId: integer('person_id'),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('funnel_inbound_events_funnel_event_idx').on(t.funnelId, t.eventId)],
);

/**
 * Payments of a funnel's people: Stars paid through the funnel's own bot (charge_id: Telegram's
 * telegram_payment_charge_id), or marked paid from elsewhere. Recorded once per charge (unique);
 * revenue is the sum of the paid ones (a refunded one is not revenue).
 */
export const funnelPayments = pgTable(
  'funnel_payments',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    funnelId: integer('funnel_id')
      .notNull()
      .references(() => funnels.id, { onDelete: 'cascade' }),
    personId: integer('person_id')
      .notNull()
      .references(() => people.id, { onDelete: 'cascade' }),
    /** The payment stage whose invoice was paid (null: deleted since, or paid elsewhere). */
    stageId: integer('stage_id').references(() => stages.id, { onDelete: 'set null' }),
    amount: integer('amount').notNull(),
    currency: varchar('currency', { length: 8 }).notNull().default('XTR'),
    provider: varchar('provider', { length: 16 }).notNull().$type<'stars' | 'external'>(),
    chargeId: text('charge_id').notNull(),
    state: varchar('state', { length: 16 }).notNull().default('paid').$type<'paid' | 'refunded'>(),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    refundedAt: timestamptz('refunded_at'),
  },
  (t) => [
    uniqueIndex('funnel_payments_charge_idx').on(t.funnelId, t.provider, t.chargeId),
    index('funnel_payments_person_idx').on(t.personId),
    index('funnel_payments_funnel_created_idx').on(t.funnelId, t.createdAt),
    check('funnel_payments_provider_check', sql`${t.provider} in ('stars', 'external')`),
    check('funnel_payments_state_check', sql`${t.state} in ('paid', 'refunded')`),
  ],
);

export type FunnelPaymentRow = typeof funnelPayments.$inferSelect;

/** A funnel's fields (issue 24): values kept per person, asked by a stage, used as `{key}` in messages. */
export const funnelFields = pgTable(
  'funnel_fields',
  {
    id: serial('id').primaryKey(),
    funnelId: integer('funnel_id')
      .notNull()
      .references(() => funnels.id, { onDelete: 'cascade' }),
    key: varchar('key', { length: 32 }).notNull(),
    title: varchar('title', { length: 64 }).notNull(),
    kind: varchar('kind', { length: 16 }).notNull().$type<'text' | 'number' | 'email' | 'phone' | 'date' | 'choice'>(),
    /** A choice's options (2..8); empty for the other kinds. */
    options: jsonb('options').$type<string[]>().notNull().default([]),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('funnel_fields_funnel_key_idx').on(t.funnelId, t.key),
    check('funnel_fields_kind_check', sql`${t.kind} in ('text', 'number', 'email', 'phone', 'date', 'choice')`),
    check('funnel_fields_key_check', sql`${t.key} ~ '^[a-z][a-z0-9_]{0,31}$'`),
  ],
);

/** A person's value of a field (a date as YYYY-MM-DD, an e-mail in small letters). */
export const personFields = pgTable(
  'person_fields',
  {
    personId: integer('person_id')
      .notNull()
      .references(() => people.id, { onDelete: 'cascade' }),
    fieldId: integer('field_id')
      .notNull()
      .references(() => funnelFields.id, { onDelete: 'cascade' }),
    value: text('value').notNull(),
    updatedAt: timestamptz('updated_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.personId, t.fieldId] }), index('person_fields_field_value_idx').on(t.fieldId, t.value)],
);

export type FunnelFieldRow = typeof funnelFields.$inferSelect;
