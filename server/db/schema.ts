// The database tables. Migrations in ./migrations are generated from this file
// (`npm run db:generate`); never edit a generated migration by hand.
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  varchar,
} from 'drizzle-orm/pg-core';

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
