// Who is calling: API keys (one per device, stored hashed) and Telegram init data.
//
// The hot path (every authenticated request) is one joined query, and its answer is kept in
// a small in-process cache for a few seconds. What ends a session or changes a user (logout,
// password change or reset, profile update, activation, Telegram profile refresh) runs in a
// transaction through this module, which drops this process's copies once it has committed.
//
// Several processes on one PostgreSQL: that transaction also sends NOTIFY on SESSIONS_CHANNEL
// (delivered at commit) with the key hashes and user ids concerned, and every process LISTENs
// on it over a dedicated connection and drops those entries. While that connection is not
// known to be listening (starting, dropped, reconnecting, silent for too long) the cache is
// neither read nor filled: every request asks the database. A lookup that was in flight when an
// invalidation arrived is answered but not cached (it may have read the row as it was before).
// On PGlite there is one process: local invalidation is all there is to do.
import { createHash } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { INIT_DATA_MAX_AGE_S } from '../../contract/constants';
import type { Database, Db } from '../db';
import type { Listener, ListenerTimings } from '../db/listener';
import { authTokens, users, type UserRow } from '../db/schema';
import { API_KEY_PATTERN, generateApiKey, hashApiKey } from './tokens';
import { validateInitData, type TelegramUser, type ValidInitData } from './telegram-init-data';

/** 'unknown': genuine init data of a Telegram identity no account knows yet (none is made here). */
export type AuthResult = { user: UserRow } | { error: 'invalid' | 'inactive' | 'unknown' };

/** A transaction, as Drizzle hands it to db.orm.transaction's callback. */
export type Tx = Parameters<Parameters<Database['transaction']>[0]>[0];

/**
 * Whether cached identities are used: 'local' (PGlite, one process), 'listening' (PostgreSQL,
 * other processes' changes arrive by NOTIFY), 'down' (PostgreSQL, not listening: every request
 * asks the database), 'off' (TTL 0).
 */
export type CacheState = 'local' | 'listening' | 'down' | 'off';

export interface Sessions {
  /** A new API key for one device; only its hash is stored. */
  issue(userId: number, userAgent: string | undefined): Promise<string>;
  byApiKey(key: string): Promise<AuthResult>;
  /**
   * Validates init data with the service bot token and finds the account of that identity. An
   * identity no account knows is 'unknown': the person chooses first ("Start here" or "I already
   * have an account", server/accounts/accounts.ts), so no account is made here.
   */
  byInitData(raw: string): Promise<AuthResult>;
  /** The Telegram user genuine, fresh init data vouches for (service bot token, now), or null. */
  verifyInitData(raw: string): ValidInitData | null;
  /** Ends one device's session, in every process. */
  revoke(key: string): Promise<void>;
  /**
   * Ends every session of a user (password reset or change): `change` (the new password), the
   * deletion of their keys and the notice to other processes commit together.
   */
  revokeAll(userId: number, change?: (tx: Tx) => Promise<unknown>): Promise<void>;
  /**
   * Runs `change`, a write to one user's row, in a transaction that also tells every process to
   * drop its cached copies of that user; returns what `change` returns.
   */
  updateUser<T>(userId: number, change: (tx: Tx) => Promise<T>): Promise<T>;
  /** Drops this process's cached copies of a user (after a change made by hand, in tests). */
  forgetUser(userId: number): void;
  cacheState(): CacheState;
  /** PostgreSQL: starts listening and waits (a few seconds at most) until it does. */
  start(): Promise<void>;
  close(): Promise<void>;
}

export interface SessionLog {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
}

export interface SessionOptions {
  botToken: string | null;
  now: () => Date;
  /** How long a looked-up identity is reused without asking the database; 0 disables. */
  cacheTtlMs?: number;
  log?: SessionLog;
  /** Tests shorten the listener's heartbeat and reconnect delays. */
  listenerTimings?: Partial<ListenerTimings>;
}

interface CacheEntry {
  user: UserRow;
  expiresAtMs: number;
  /** Telegram entries: auth_date (unix s), re-checked for age on every hit. */
  authDate?: number;
}

/** What a change makes stale: cache entries by API key hash, and every entry of a user. */
interface Stale {
  keyHashes?: string[];
  userIds?: number[];
}

export const DEFAULT_CACHE_TTL_MS = 5_000;
/** The NOTIFY channel; payload: space-separated `k:<key hash>` and `u:<user id>`. */
export const SESSIONS_CHANNEL = 'funnels_sessions';
/** How long start() waits for LISTEN before the app serves uncached and keeps retrying. */
const START_WAIT_MS = 5_000;
const MAX_CACHE_ENTRIES = 10_000;
/** last_used_at is a hint for people reviewing their devices; a minute's precision is plenty. */
const LAST_USED_PRECISION_MS = 60_000;
const MAX_USER_AGENT = 512;

function encodeStale(stale: Stale): string {
  return [...(stale.keyHashes ?? []).map((hash) => `k:${hash}`), ...(stale.userIds ?? []).map((id) => `u:${id}`)].join(' ');
}

export function telegramLanguage(user: TelegramUser): 'en' | 'ru' {
  return user.language_code?.toLowerCase().startsWith('ru') ? 'ru' : 'en';
}

export function createSessions(db: Db, options: SessionOptions): Sessions {
  const { now, botToken, log } = options;
  const ttlMs = options.cacheTtlMs ?? DEFAULT_CACHE_TTL_MS;
  /** PostgreSQL: other processes share the database; their changes come by NOTIFY. */
  const shared = db.driver === 'postgres';
  const cache = new Map<string, CacheEntry>();
  /** Cache keys by user id, so a user's entries go without a scan of the whole cache. */
  const keysOfUser = new Map<number, Set<string>>();
  /** Bumped by every invalidation: a lookup that saw it change while in flight is not cached. */
  let generation = 0;
  let listener: Listener | null = null;
  let wasDown = false;

  /** Whether the cache may be read and filled right now (hot path: a flag, a clock read). */
  function trusted(): boolean {
    if (ttlMs <= 0) return false;
    return !shared || (listener !== null && listener.isLive());
  }

  function drop(cacheKey: string): void {
    const entry = cache.get(cacheKey);
    if (!entry) return;
    cache.delete(cacheKey);
    const keys = keysOfUser.get(entry.user.id);
    keys?.delete(cacheKey);
    if (keys?.size === 0) keysOfUser.delete(entry.user.id);
  }

  function forgetUser(userId: number): void {
    generation += 1;
    const keys = keysOfUser.get(userId);
    if (!keys) return;
    keysOfUser.delete(userId);
    for (const key of keys) cache.delete(key);
  }

  function forgetAll(): void {
    generation += 1;
    cache.clear();
    keysOfUser.clear();
  }

  function forget(stale: Stale): void {
    generation += 1;
    for (const hash of stale.keyHashes ?? []) drop(hash);
    for (const id of stale.userIds ?? []) forgetUser(id);
  }

  /** A NOTIFY payload from any process (this one included). */
  function received(payload: string): void {
    generation += 1;
    for (const item of payload.split(' ')) {
      if (item.startsWith('k:')) drop(item.slice(2));
      else if (item.startsWith('u:') && /^\d+$/.test(item.slice(2))) forgetUser(Number(item.slice(2)));
      else if (item !== '') return forgetAll(); // not understood: the safe reading
    }
  }

  function remember(cacheKey: string, entry: Omit<CacheEntry, 'expiresAtMs'>): void {
    if (cache.size >= MAX_CACHE_ENTRIES) {
      // Maps iterate in insertion order: drop the oldest tenth.
      let count = Math.ceil(MAX_CACHE_ENTRIES / 10);
      for (const key of cache.keys()) {
        drop(key);
        if (--count === 0) break;
      }
    }
    drop(cacheKey);
    cache.set(cacheKey, { ...entry, expiresAtMs: Date.now() + ttlMs });
    let keys = keysOfUser.get(entry.user.id);
    if (!keys) keysOfUser.set(entry.user.id, (keys = new Set()));
    keys.add(cacheKey);
  }

  function cached(cacheKey: string): CacheEntry | null {
    const entry = cache.get(cacheKey);
    if (!entry) return null;
    if (entry.expiresAtMs <= Date.now()) {
      drop(cacheKey);
      return null;
    }
    return entry;
  }

  /**
   * Runs `work` in a transaction; what it reports stale is announced to the other processes by
   * NOTIFY inside that transaction (PostgreSQL delivers it at commit, not before, and not at all
   * on rollback), and dropped from this process's cache once committed.
   */
  async function committing<T>(work: (tx: Tx, stale: (what: Stale) => Promise<void>) => Promise<T>): Promise<T> {
    const dropped: Stale[] = [];
    const result = await db.orm.transaction(async (tx) => {
      return work(tx, async (what) => {
        dropped.push(what);
        if (shared) await tx.execute(sql`select pg_notify(${SESSIONS_CHANNEL}, ${encodeStale(what)})`);
      });
    });
    for (const what of dropped) forget(what);
    return result;
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

  /** The account of this Telegram identity (username and photo refreshed), or null when no account knows it. */
  async function knownTelegramUser(tg: TelegramUser): Promise<UserRow | null> {
    const username = tg.username ?? null;
    const photoUrl = tg.photo_url ?? null;
    const [existing] = await db.orm.select().from(users).where(eq(users.telegramId, tg.id)).limit(1);
    if (!existing) return null;
    if (existing.telegramUsername === username && existing.telegramPhotoUrl === photoUrl) return existing;
    return committing(async (tx, stale) => {
      const [updated] = await tx
        .update(users)
        .set({ telegramUsername: username, telegramPhotoUrl: photoUrl })
        .where(eq(users.id, existing.id))
        .returning();
      await stale({ userIds: [existing.id] });
      return updated ?? existing;
    });
  }

  return {
    forgetUser,

    cacheState() {
      if (ttlMs <= 0) return 'off';
      if (!shared) return 'local';
      return trusted() ? 'listening' : 'down';
    },

    async start() {
      if (!shared || ttlMs <= 0 || listener) return;
      listener = db.listen(
        SESSIONS_CHANNEL,
        {
          onNotify: received,
          onListening() {
            // Whatever was sent while not listening is lost: start from an empty cache.
            forgetAll();
            if (wasDown) log?.info({ channel: SESSIONS_CHANNEL }, 'session cache: listening again');
            wasDown = false;
          },
          onDown(error, retryInMs) {
            forgetAll();
            if (!wasDown) {
              log?.warn(
                { channel: SESSIONS_CHANNEL, error: error?.message, retryInMs },
                'session cache: LISTEN connection lost; every request asks the database until it is back',
              );
            }
            wasDown = true;
          },
        },
        options.listenerTimings,
      );
      if (!listener) return;
      if (!(await listener.whenListening(START_WAIT_MS))) {
        wasDown = true;
        log?.warn({ channel: SESSIONS_CHANNEL }, 'session cache: not listening yet; every request asks the database until it is');
      }
    },

    async close() {
      const current = listener;
      listener = null;
      forgetAll();
      await current?.close();
    },

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
      if (trusted()) {
        const hit = cached(keyHash);
        if (hit) return outcome(hit.user);
      }
      const seen = generation;
      const [row] = await selectByKeyHash.execute({ keyHash });
      if (!row) return { error: 'invalid' };
      const at = now();
      if (!row.lastUsedAt || at.getTime() - row.lastUsedAt.getTime() >= LAST_USED_PRECISION_MS) {
        await db.orm.update(authTokens).set({ lastUsedAt: at }).where(eq(authTokens.id, row.tokenId));
      }
      if (seen === generation && trusted()) remember(keyHash, { user: row.user });
      return outcome(row.user);
    },

    async byInitData(raw) {
      if (!botToken) return { error: 'invalid' };
      const cacheKey = 'tg:' + createHash('sha256').update(raw).digest('hex');
      const hit = trusted() ? cached(cacheKey) : null;
      if (hit && hit.authDate !== undefined) {
        // The signature was checked when the entry was made; the age keeps growing.
        if (now().getTime() / 1000 - hit.authDate > INIT_DATA_MAX_AGE_S) {
          drop(cacheKey);
          return { error: 'invalid' };
        }
        return outcome(hit.user);
      }
      const valid = validateInitData(raw, botToken, now());
      if (!valid) return { error: 'invalid' };
      const seen = generation;
      const user = await knownTelegramUser(valid.user);
      if (!user) return { error: 'unknown' };
      if (seen === generation && trusted()) remember(cacheKey, { user, authDate: valid.authDate });
      return outcome(user);
    },

    verifyInitData(raw) {
      return botToken ? validateInitData(raw, botToken, now()) : null;
    },

    async revoke(key) {
      const keyHash = hashApiKey(key);
      await committing(async (tx, stale) => {
        await tx.delete(authTokens).where(eq(authTokens.keyHash, keyHash));
        await stale({ keyHashes: [keyHash] });
      });
    },

    async revokeAll(userId, change) {
      await committing(async (tx, stale) => {
        if (change) await change(tx);
        await tx.delete(authTokens).where(eq(authTokens.userId, userId));
        await stale({ userIds: [userId] });
      });
    },

    updateUser(userId, change) {
      return committing(async (tx, stale) => {
        const result = await change(tx);
        await stale({ userIds: [userId] });
        return result;
      });
    },
  };
}
