// Everything the bot runtime reads and writes in the database, as few round trips per update as
// possible: a /start or a next-step press is one statement (person, history, stage tag together).
import { and, eq, isNull } from 'drizzle-orm';
import type { Db } from '../../db';
import { funnels, type FunnelRow } from '../../db/schema';

/** A stage as the runtime needs it (contract MessageContentBody in `message`). */
export interface RuntimeStage {
  id: number;
  position: number;
  tagId: number | null;
  message: { text: string; media_id: number | null; buttons: Array<{ text: string; url: string }>; next_button: { text: string } | null };
}

export interface TelegramProfile {
  id: number;
  first_name: string;
  last_name?: string;
  username?: string;
  language_code?: string;
}

export interface MediaForSending {
  kind: 'photo' | 'video';
  filename: string;
  contentType: string;
  data: Buffer | null;
  telegramFileId: string | null;
}

/** handled_updates rows older than this are deleted (Telegram keeps an update 24 hours at most). */
export const HANDLED_UPDATES_KEEP_HOURS = 48;

const clip = (value: string | undefined, max: number) => (value ?? '').slice(0, max);
const nullableClip = (value: string | undefined, max: number) => (value ? value.slice(0, max) : null);

export interface RuntimeStore {
  /** Running, not archived funnels. */
  runningFunnels(): Promise<FunnelRow[]>;
  funnel(id: number): Promise<FunnelRow | undefined>;
  /** True the first time (funnel, update) is seen; false for a repeat (webhook retry, second poller). */
  claimUpdate(funnelId: number, updateId: number): Promise<boolean>;
  saveOffset(funnelId: number, updateId: number): Promise<void>;
  stages(funnelId: number): Promise<RuntimeStage[]>;
  /** /start: creates or refreshes the person, puts them in `stage`, records the command, tags them. */
  startPerson(funnelId: number, from: TelegramProfile, stage: RuntimeStage | null, text: string): Promise<number>;
  /**
   * Next-step press: moves the person from `fromStageId` to `to` only if they are still there
   * (a press on an old message moves nobody); records the press and tags them. null = no move.
   */
  movePerson(funnelId: number, telegramId: number, fromStageId: number, to: RuntimeStage, buttonText: string): Promise<number | null>;
  /** The person's id and current stage, and marks them seen and not blocked (they wrote). */
  touchPerson(funnelId: number, telegramId: number): Promise<{ id: number; stageId: number | null } | null>;
  recordIncoming(funnelId: number, personId: number, kind: 'text' | 'command' | 'button', text: string): Promise<void>;
  recordStageMessage(funnelId: number, personId: number, stageId: number, text: string, telegramMessageId: number): Promise<void>;
  setBlocked(funnelId: number, telegramId: number, blocked: boolean): Promise<void>;
  media(funnelId: number, mediaId: number, withData: boolean): Promise<MediaForSending | undefined>;
  saveFileId(mediaId: number, fileId: string): Promise<void>;
  /** The token was revoked: the funnel stops and its owner sees why. */
  stopRevoked(funnelId: number): Promise<void>;
  pruneHandledUpdates(): Promise<void>;
}

/** Stages (and their messages) are re-read at most this often per funnel: an edit shows within a second. */
export const STAGE_CACHE_MS = 1_000;

/**
 * Calls made in one turn of the event loop are run together by `run` (one result per item, in
 * order). If the batch fails, each item is run alone, so one bad item fails only its own call.
 */
export function microBatch<Item, Result>(run: (items: Item[]) => Promise<Result[]>): (item: Item) => Promise<Result> {
  let waiting: Array<{ item: Item; resolve(result: Result): void; reject(error: unknown): void }> = [];
  const flush = async () => {
    const batch = waiting;
    waiting = [];
    try {
      const results = await run(batch.map((w) => w.item));
      batch.forEach((w, i) => w.resolve(results[i]));
    } catch (error) {
      if (batch.length === 1) return batch[0].reject(error);
      for (const w of batch) run([w.item]).then(([result]) => w.resolve(result), w.reject);
    }
  };
  return (item) =>
    new Promise<Result>((resolve, reject) => {
      if (waiting.length === 0) setImmediate(() => void flush());
      waiting.push({ item, resolve, reject });
    });
}

export function createRuntimeStore(db: Db): RuntimeStore {
  const q = db.query.bind(db);
  const stageCache = new Map<number, { at: number; stages: Promise<RuntimeStage[]> }>();
  async function readStages(funnelId: number): Promise<RuntimeStage[]> {
    const rows = await q<{ id: number; position: number; tag_id: number | null; message: RuntimeStage['message'] }>(
      'select id, position, tag_id, message from stages where funnel_id = $1 order by position, id',
      [funnelId],
    );
    return rows.map((r) => ({ id: r.id, position: r.position, tagId: r.tag_id, message: r.message }));
  }

  // Claims and sent-message history rows made in the same turn of the event loop (by any bot)
  // go to the database as one statement each: under load that is most of an update's round trips.
  const claim = microBatch<{ funnelId: number; updateId: number }, boolean>(async (items) => {
    const rows = await q<{ funnel_id: number; update_id: string | number }>(
      `insert into handled_updates (funnel_id, update_id) select * from unnest($1::int[], $2::bigint[])
       on conflict do nothing returning funnel_id, update_id`,
      [items.map((i) => i.funnelId), items.map((i) => i.updateId)],
    );
    const fresh = new Set(rows.map((r) => `${r.funnel_id}:${Number(r.update_id)}`));
    // The same update twice in one batch (a webhook retry): only the first one is new.
    return items.map((i) => fresh.delete(`${i.funnelId}:${i.updateId}`));
  });
  const recordStageMessage = microBatch<
    { funnelId: number; personId: number; stageId: number; text: string; telegramMessageId: number },
    void
  >(async (items) => {
    await q(
      `insert into person_events (person_id, funnel_id, direction, kind, text, stage_id, telegram_message_id)
       select person_id, funnel_id, 'out', 'stage_message', text, stage_id, telegram_message_id
       from unnest($1::int[], $2::int[], $3::text[], $4::int[], $5::bigint[]) as t(person_id, funnel_id, text, stage_id, telegram_message_id)`,
      [items.map((i) => i.personId), items.map((i) => i.funnelId), items.map((i) => i.text), items.map((i) => i.stageId), items.map((i) => i.telegramMessageId)],
    );
    return items.map(() => undefined);
  });

  return {
    async runningFunnels() {
      return db.orm.select().from(funnels).where(and(eq(funnels.state, 'running'), isNull(funnels.archivedAt)));
    },
    async funnel(id) {
      const [row] = await db.orm.select().from(funnels).where(eq(funnels.id, id)).limit(1);
      return row;
    },
    claimUpdate(funnelId, updateId) {
      return claim({ funnelId, updateId });
    },
    async saveOffset(funnelId, updateId) {
      await q('update funnels set update_offset = greatest(update_offset, $2) where id = $1', [funnelId, updateId]);
    },
    stages(funnelId) {
      const cached = stageCache.get(funnelId);
      if (cached && Date.now() - cached.at < STAGE_CACHE_MS) return cached.stages;
      const stages = readStages(funnelId);
      if (stageCache.size > 10_000) stageCache.clear();
      stageCache.set(funnelId, { at: Date.now(), stages });
      stages.catch(() => stageCache.delete(funnelId));
      return stages;
    },
    async startPerson(funnelId, from, stage, text) {
      const rows = await q<{ id: number }>(
        `with person as (
           insert into people (funnel_id, telegram_id, first_name, last_name, username, language_code, stage_id, blocked, last_seen_at)
           values ($1, $2, $3, $4, $5, $6, $7, false, now())
           on conflict (funnel_id, telegram_id) do update set
             first_name = excluded.first_name, last_name = excluded.last_name, username = excluded.username,
             language_code = excluded.language_code, stage_id = coalesce(excluded.stage_id, people.stage_id),
             blocked = false, last_seen_at = now()
           returning id),
         event as (
           insert into person_events (person_id, funnel_id, direction, kind, text)
           select id, $1, 'in', 'command', $8 from person),
         tag as (
           insert into person_tags (person_id, tag_id, source)
           select id, $9::int, 'stage' from person where $9::int is not null
           on conflict do nothing)
         select id from person`,
        [
          funnelId,
          from.id,
          clip(from.first_name, 128),
          clip(from.last_name, 128),
          nullableClip(from.username, 64),
          nullableClip(from.language_code, 16),
          stage?.id ?? null,
          text,
          stage?.tagId ?? null,
        ],
      );
      return rows[0].id;
    },
    async movePerson(funnelId, telegramId, fromStageId, to, buttonText) {
      const rows = await q<{ id: number }>(
        `with person as (
           update people set stage_id = $4, blocked = false, last_seen_at = now()
           where funnel_id = $1 and telegram_id = $2 and stage_id = $3
           returning id),
         event as (
           insert into person_events (person_id, funnel_id, direction, kind, text)
           select id, $1, 'in', 'button', $5 from person),
         tag as (
           insert into person_tags (person_id, tag_id, source)
           select id, $6::int, 'stage' from person where $6::int is not null
           on conflict do nothing)
         select id from person`,
        [funnelId, telegramId, fromStageId, to.id, buttonText, to.tagId],
      );
      return rows[0]?.id ?? null;
    },
    async touchPerson(funnelId, telegramId) {
      const rows = await q<{ id: number; stage_id: number | null }>(
        'update people set last_seen_at = now(), blocked = false where funnel_id = $1 and telegram_id = $2 returning id, stage_id',
        [funnelId, telegramId],
      );
      return rows[0] ? { id: rows[0].id, stageId: rows[0].stage_id } : null;
    },
    async recordIncoming(funnelId, personId, kind, text) {
      await q(`insert into person_events (person_id, funnel_id, direction, kind, text) values ($1, $2, 'in', $3, $4)`, [
        personId,
        funnelId,
        kind,
        text,
      ]);
    },
    recordStageMessage(funnelId, personId, stageId, text, telegramMessageId) {
      return recordStageMessage({ funnelId, personId, stageId, text, telegramMessageId });
    },
    async setBlocked(funnelId, telegramId, blocked) {
      await q('update people set blocked = $3 where funnel_id = $1 and telegram_id = $2', [funnelId, telegramId, blocked]);
    },
    async media(funnelId, mediaId, withData) {
      const rows = await q<{ kind: 'photo' | 'video'; filename: string; content_type: string; data: Buffer | Uint8Array | null; telegram_file_id: string | null }>(
        `select kind, filename, content_type, ${withData ? 'data' : 'null::bytea as data'}, telegram_file_id
         from media where id = $1 and funnel_id = $2`,
        [mediaId, funnelId],
      );
      const row = rows[0];
      if (!row) return undefined;
      return {
        kind: row.kind,
        filename: row.filename,
        contentType: row.content_type,
        data: row.data ? Buffer.from(row.data) : null,
        telegramFileId: row.telegram_file_id,
      };
    },
    async saveFileId(mediaId, fileId) {
      await q('update media set telegram_file_id = $2 where id = $1', [mediaId, fileId]);
    },
    async stopRevoked(funnelId) {
      await q(
        `update funnels set state = 'stopped', stop_reason = 'token_revoked', updated_at = now() where id = $1 and state = 'running'`,
        [funnelId],
      );
    },
    async pruneHandledUpdates() {
      await q(`delete from handled_updates where handled_at < now() - make_interval(hours => $1)`, [HANDLED_UPDATES_KEEP_HOURS]);
    },
  };
}
