// Fixed-window attempt counters kept in the database, so every server process sees the same
// counts. One statement per request: upsert every bucket it touches and read the new counts.
import { lt, sql } from 'drizzle-orm';
import type { Db } from '../db';
import { rateLimits } from '../db/schema';

export interface Bucket {
  /** e.g. "login:ip:127.0.0.1" or "login:email:ann@example.com" */
  key: string;
  limit: number;
}

export type RateLimitResult = { allowed: true } | { allowed: false; retryAfterS: number };

export interface RateLimiter {
  hit(buckets: Bucket[]): Promise<RateLimitResult>;
}

/** Keys are stored whole up to this length; longer ones (odd e-mails) are cut. */
const MAX_KEY_LENGTH = 400;

export function createRateLimiter(db: Db, windowS: number, now: () => Date): RateLimiter {
  const windowMs = windowS * 1000;
  let nextCleanupMs = 0;

  async function cleanup(nowMs: number): Promise<void> {
    if (nowMs < nextCleanupMs) return;
    nextCleanupMs = nowMs + Math.min(windowMs, 60_000);
    await db.orm.delete(rateLimits).where(lt(rateLimits.windowStart, new Date(nowMs - windowMs)));
  }

  return {
    async hit(buckets) {
      const unique = new Map<string, Bucket>();
      for (const bucket of buckets) {
        const key = bucket.key.slice(0, MAX_KEY_LENGTH);
        const seen = unique.get(key);
        if (!seen || bucket.limit < seen.limit) unique.set(key, { key, limit: bucket.limit });
      }
      if (unique.size === 0) return { allowed: true };
      const nowMs = now().getTime();
      const windowStartMs = Math.floor(nowMs / windowMs) * windowMs;
      const windowStart = new Date(windowStartMs);
      const rows = await db.orm
        .insert(rateLimits)
        .values([...unique.keys()].map((key) => ({ key, windowStart, count: 1 })))
        .onConflictDoUpdate({
          target: [rateLimits.key, rateLimits.windowStart],
          set: { count: sql`${rateLimits.count} + 1` },
        })
        .returning({ key: rateLimits.key, count: rateLimits.count });
      await cleanup(nowMs);
      const exceeded = rows.some((row) => row.count > (unique.get(row.key)?.limit ?? Infinity));
      if (!exceeded) return { allowed: true };
      return { allowed: false, retryAfterS: Math.max(1, Math.ceil((windowStartMs + windowMs - nowMs) / 1000)) };
    },
  };
}
