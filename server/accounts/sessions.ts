// Who is calling: API keys (one per device, stored hashed) and Telegram init data.
//
// The hot path (every authenticated request) is one joined query, and its answer is kept in
// a small in-process cache for a few seconds. This process drops cache entries itself on
// logout, password change and profile updates; other processes notice within the TTL.
import { createHash } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { INIT_DATA_MAX_AGE_S } from '../../contract/constants';
import type { Db } from '../db';
import { authTokens, users, type UserRow } from '../db/schema';
import { API_KEY_PATTERN, generateApiKey, hashApiKey } from './tokens';
import { validateInitData, type TelegramUser } from './telegram-init-data';

export type AuthResult = { user: UserRow } | { error: 'invalid' | 'inactive' };

export interface Sessions {
  /** A new API key for one device; only its hash is stored. */
  issue(userId: number, userAgent: string | undefined): Promise<string>;
  byApiKey(key: string): Promise<AuthResult>;
  /** Validates init data with the service bot token; the first call creates the account. */
  byInitData(raw: string): Promise<AuthResult>;
  /** Ends one device's session. */
  revoke(key: string): Promise<void>;
  /** Ends every session of a user (password reset or change). */
  revokeAll(userId: number): Promise<void>;
  /** Drops cached copies of a user after their row changed. */
  forgetUser(userId: number): void;
}

export interface SessionOptions {
  botToken: string | null;
  now: () => Date;
  /** How long a looked-up identity is reused without asking the database; 0 disables. */
  cacheTtlMs?: number;
}

interface CacheEntry {
  user: UserRow;
  expiresAtMs: number;
  /** Telegram entries: auth_date (unix s), re-checked for age on every hit. */
  authDate?: number;
}

export const DEFAULT_CACHE_TTL_MS = 5_000;
const MAX_CACHE_ENTRIES = 10_000;
/** last_used_at is a hint for people reviewing their devices; a minute's precision is plenty. */
const LAST_USED_PRECISION_MS = 60_000;
const MAX_USER_AGENT = 512;

export function telegramLanguage(user: TelegramUser): 'en' | 'ru' {
  return user.language_code?.toLowerCase().startsWith('ru') ? 'ru' : 'en';
}

export function createSessions(db: Db, options: SessionOptions): Sessions {
  const { now, botToken } = options;
  const ttlMs = options.cacheTtlMs ?? DEFAULT_CACHE_TTL_MS;
  const cache = new Map<string, CacheEntry>();

  function remember(cacheKey: string, entry: Omit<CacheEntry, 'expiresAtMs'>): void {
    if (ttlMs <= 0) return;
    if (cache.size >= MAX_CACHE_ENTRIES) {
      // Maps iterate in insertion order: drop the oldest tenth.
      let drop = Math.ceil(MAX_CACHE_ENTRIES / 10);
      for (const key of cache.keys()) {
        cache.delete(key);
        if (--drop === 0) break;
      }
    }
    cache.set(cacheKey, { ...entry, expiresAtMs: Date.now() + ttlMs });
  }

  function cached(cacheKey: string): CacheEntry | null {
    const entry = cache.get(cacheKey);
    if (!entry) return null;
    if (entry.expiresAtMs <= Date.now()) {
      cache.delete(cacheKey);
      return null;
    }
    return entry;
  }

  function outcome(user: UserRow): AuthResult {
    return user.isActive ? { user } : { error: 'inactive' };
  }

  const selectByKeyHash = db.orm
    .select({ user: users, tokenId: authTokens.id, lastUsedAt: authTokens.lastUsedAt })
    .from(authTokens)
    .innerJoin(users, eq(users.id, authTokens.userId))
    .where(eq(authTokens.keyHash, sql.placeholder('keyHash')))
    .limit(1)
    .prepare('session_by_key_hash');

  async function upsertTelegramUser(tg: TelegramUser): Promise<UserRow> {
    const username = tg.username ?? null;
    const photoUrl = tg.photo_url ?? null;
    const [existing] = await db.orm.select().from(users).where(eq(users.telegramId, tg.id)).limit(1);
    if (existing) {
      if (existing.telegramUsername === username && existing.telegramPhotoUrl === photoUrl) return existing;
      const [updated] = await db.orm
        .update(users)
        .set({ telegramUsername: username, telegramPhotoUrl: photoUrl })
        .where(eq(users.id, existing.id))
        .returning();
      return updated ?? existing;
    }
    // Two first calls may race; the unique telegram_id makes the second one an update.
    const [created] = await db.orm
      .insert(users)
      .values({
        telegramId: tg.id,
        telegramUsername: username,
        telegramPhotoUrl: photoUrl,
        firstName: tg.first_name,
        lastName: tg.last_name ?? '',
        language: telegramLanguage(tg),
        isActive: true,
        lastLogin: now(),
      })
      .onConflictDoUpdate({
        target: users.telegramId,
        set: { telegramUsername: username, telegramPhotoUrl: photoUrl },
      })
      .returning();
    return created;
  }

  function forgetUser(userId: number): void {
    for (const [key, entry] of cache) if (entry.user.id === userId) cache.delete(key);
  }

  return {
    forgetUser,

    async issue(userId, userAgent) {
      const key = generateApiKey();
      await db.orm.insert(authTokens).values({
        userId,
        keyHash: hashApiKey(key),
        createdAt: now(),
        userAgent: userAgent ? userAgent.slice(0, MAX_USER_AGENT) : null,
      });
      return key;
    },

    async byApiKey(key) {
      // Not the shape of a key this server issues: no need to ask the database.
      if (!API_KEY_PATTERN.test(key)) return { error: 'invalid' };
      const keyHash = hashApiKey(key);
      const hit = cached(keyHash);
      if (hit) return outcome(hit.user);
      const [row] = await selectByKeyHash.execute({ keyHash });
      if (!row) return { error: 'invalid' };
      const at = now();
      if (!row.lastUsedAt || at.getTime() - row.lastUsedAt.getTime() >= LAST_USED_PRECISION_MS) {
        await db.orm.update(authTokens).set({ lastUsedAt: at }).where(eq(authTokens.id, row.tokenId));
      }
      remember(keyHash, { user: row.user });
      return outcome(row.user);
    },

    async byInitData(raw) {
      if (!botToken) return { error: 'invalid' };
      const cacheKey = 'tg:' + createHash('sha256').update(raw).digest('hex');
      const hit = cached(cacheKey);
      if (hit && hit.authDate !== undefined) {
        // The signature was checked when the entry was made; the age keeps growing.
        if (now().getTime() / 1000 - hit.authDate > INIT_DATA_MAX_AGE_S) {
          cache.delete(cacheKey);
          return { error: 'invalid' };
        }
        return outcome(hit.user);
      }
      const valid = validateInitData(raw, botToken, now());
      if (!valid) return { error: 'invalid' };
      const user = await upsertTelegramUser(valid.user);
      remember(cacheKey, { user, authDate: valid.authDate });
      return outcome(user);
    },

    async revoke(key) {
      const keyHash = hashApiKey(key);
      cache.delete(keyHash);
      await db.orm.delete(authTokens).where(eq(authTokens.keyHash, keyHash));
    },

    async revokeAll(userId) {
      forgetUser(userId);
      await db.orm.delete(authTokens).where(eq(authTokens.userId, userId));
    },
  };
}
