// Shared by the runtime tests and the bench: funnels, stages, tags and media inserted straight
// into the database (no HTTP API), and a runtime pointed at a fake Bot API.
import { randomBytes } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import type { FakeTelegram } from '../../scripts/telegram/fake-bot-api/fake-telegram';
import type { Db } from '../db';
import { funnels, media, stages, tags, users, type FunnelRow } from '../db/schema';
import type { RuntimeLog } from '../bots/runtime/funnel-context';
import { FunnelRuntime, type FunnelRuntimeOptions } from '../bots/runtime/runtime';

export interface StageSpec {
  title?: string;
  text: string;
  buttons?: Array<{ text: string; url: string }>;
  next?: string | null;
  tag?: string;
  photo?: Buffer;
  /** Choice buttons, each leading to the stage at index `to` of the same spec list. */
  choices?: Array<{ text: string; to: number }>;
  /** A wait that leads to the stage at index `to` of the same spec list. */
  wait?: { amount: number; unit: 'minutes' | 'hours' | 'days'; to: number; onlyIfSilent?: boolean };
}

/** A 1×1 PNG. */
export const TINY_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

export async function createOwner(db: Db): Promise<number> {
  const [row] = await db.orm
    .insert(users)
    .values({ email: `owner.${randomBytes(4).toString('hex')}@example.com`, isActive: true })
    .returning({ id: users.id });
  return row.id;
}

/**
 * A funnel whose "encrypted" token is the token itself (tests give the runtime tokenOf =
 * row => row.botTokenEncrypted), with its stages in order.
 */
export async function createFunnel(
  db: Db,
  { ownerId, token, username, state = 'running', stageSpecs }: { ownerId: number; token: string; username: string; state?: FunnelRow['state']; stageSpecs: StageSpec[] },
): Promise<{ funnel: FunnelRow; stageIds: number[]; tagIds: Array<number | null>; mediaIds: Array<number | null> }> {
  const [funnel] = await db.orm
    .insert(funnels)
    .values({
      ownerId,
      name: username,
      botTokenEncrypted: token,
      botTokenHash: randomBytes(32).toString('hex'),
      botTokenHint: token.slice(0, 12),
      botId: Number(token.split(':')[0]),
      botUsername: username,
      state,
      firstRunAt: state === 'draft' ? null : new Date(),
    })
    .returning();
  const stageIds: number[] = [];
  const tagIds: Array<number | null> = [];
  const mediaIds: Array<number | null> = [];
  for (const [position, spec] of stageSpecs.entries()) {
    let tagId: number | null = null;
    if (spec.tag) {
      const [tag] = await db.orm.insert(tags).values({ funnelId: funnel.id, title: spec.tag }).returning({ id: tags.id });
      tagId = tag.id;
    }
    let mediaId: number | null = null;
    if (spec.photo) {
      const [row] = await db.orm
        .insert(media)
        .values({ funnelId: funnel.id, kind: 'photo', filename: 'picture.png', contentType: 'image/png', size: spec.photo.length, data: spec.photo })
        .returning({ id: media.id });
      mediaId = row.id;
    }
    const [stage] = await db.orm
      .insert(stages)
      .values({
        funnelId: funnel.id,
        title: spec.title ?? `Stage ${position + 1}`,
        position,
        tagId,
        message: {
          text: spec.text,
          media_id: mediaId,
          buttons: spec.buttons ?? [],
          next_button: spec.next === null ? null : { text: spec.next ?? 'Next' },
        },
      })
      .returning({ id: stages.id });
    stageIds.push(stage.id);
    tagIds.push(tagId);
    mediaIds.push(mediaId);
  }
  for (const [index, spec] of stageSpecs.entries()) {
    if (!spec.wait) continue;
    const { amount, unit, to, onlyIfSilent = false } = spec.wait;
    await db.orm
      .update(stages)
      .set({ wait: { amount, unit, to_stage_id: stageIds[to], only_if_silent: onlyIfSilent } })
      .where(eq(stages.id, stageIds[index]));
  }
  for (const [index, spec] of stageSpecs.entries()) {
    if (!spec.choices) continue;
    const choices = spec.choices.map((c) => ({ text: c.text, stage_id: stageIds[c.to] }));
    await db.orm
      .update(stages)
      .set({ message: sql`${stages.message} || jsonb_build_object('choices', ${JSON.stringify(choices)}::jsonb)` })
      .where(eq(stages.id, stageIds[index]));
  }
  return { funnel, stageIds, tagIds, mediaIds };
}

export async function setFunnelState(db: Db, funnelId: number, state: FunnelRow['state'], archived = false): Promise<void> {
  await db.orm
    .update(funnels)
    .set({ state, archivedAt: archived ? sql`now()` : null })
    .where(eq(funnels.id, funnelId));
}

export const silentLog: RuntimeLog = {
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
  debug: () => undefined,
};

/** A log that keeps its error lines, so tests can say "nothing went wrong". */
export function recordingLog(): RuntimeLog & { errors: string[] } {
  const errors: string[] = [];
  const keep = (...args: unknown[]) => {
    errors.push(args.map((a) => (typeof a === 'string' ? a : JSON.stringify(a))).join(' '));
  };
  return { info: () => undefined, warn: () => undefined, debug: () => undefined, error: keep as RuntimeLog['error'], errors };
}

export function testRuntime(
  db: Db,
  apiRoot: string,
  overrides: Partial<FunnelRuntimeOptions> = {},
): FunnelRuntime {
  return new FunnelRuntime({
    db,
    config: { telegramApiRoot: apiRoot, publicUrl: 'http://127.0.0.1:9', secretKey: 'runtime-test-secret' },
    tokenOf: (funnel) => funnel.botTokenEncrypted!,
    log: silentLog,
    transport: 'polling',
    reconcileIntervalMs: 0,
    pollRetryMinMs: 50,
    ...overrides,
  });
}

/**
 * Resolves once a polling bot waits in a long poll with nothing queued: the poll's offset
 * confirmed every update Telegram had, and the runtime polls only after a batch is handled, so
 * every update sent before this call has been handled.
 */
export async function pollingPastEverything(fake: FakeTelegram, token: string): Promise<void> {
  await fake.waitForBotState(token, (state) => state.polling && state.pending_update_count === 0);
}
