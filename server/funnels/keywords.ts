// A funnel's keywords: a person who writes one (whole words, any case) is moved to its stage by
// the bot runtime (bots/runtime/behaviours/keyword.ts). A phrase is unique per funnel in any case;
// its stage must be one of the funnel's, and deleting that stage deletes the keyword.
import { and, asc, count, eq, inArray } from 'drizzle-orm';
import { KEYWORDS_MAX, type Keyword, type KeywordBody, type KeywordPatch } from '../../contract/funnels';
import type { Database, Db } from '../db';
import { isUniqueViolation } from '../db/errors';
import { funnelKeywords, stages, type FunnelKeywordRow } from '../db/schema';
import { COMMON_ERRORS, invalid, invalidField, notFound } from '../domain-error';
import { ownedFunnel, ownersFunnelIds } from './access';
import { FUNNEL_ERRORS } from './errors';
import { idleFunnelRuntime, type FunnelRuntimePort } from './runtime-port';

export interface KeywordServiceDeps {
  db: Db;
  /** Told of every change, so a running bot reads the keywords again (a no-op when omitted). */
  runtime?: Pick<FunnelRuntimePort, 'stagesChanged'>;
}

const toKeyword = (row: FunnelKeywordRow): Keyword => ({
  id: row.id,
  funnel_id: row.funnelId,
  phrase: row.phrase,
  stage_id: row.stageId,
  created_at: row.createdAt.toISOString(),
});

/** The phrase as kept: trimmed, single spaces between its words. */
function cleanPhrase(phrase: string): string {
  const clean = phrase.trim().replace(/\s+/gu, ' ');
  if (!clean) throw invalidField('phrase', COMMON_ERRORS.blank);
  // The runtime matches whole words: a phrase of punctuation alone would never match.
  if (!/[\p{L}\p{N}]/u.test(clean)) throw invalidField('phrase', FUNNEL_ERRORS.keywordWithoutWord);
  return clean;
}

export function createKeywordService({ db, runtime = idleFunnelRuntime }: KeywordServiceDeps) {
  const orm = db.orm;

  /** A write's WHERE: this keyword of this funnel, only if the funnel is the owner's. */
  const ownersKeyword = (tx: Database, ownerId: number, funnelId: number, keywordId: number) =>
    and(eq(funnelKeywords.id, keywordId), eq(funnelKeywords.funnelId, funnelId), inArray(funnelKeywords.funnelId, ownersFunnelIds(tx, ownerId)));

  async function checkStage(funnelId: number, stageId: number): Promise<void> {
    const [stage] = await orm.select({ id: stages.id }).from(stages).where(and(eq(stages.id, stageId), eq(stages.funnelId, funnelId))).limit(1);
    if (!stage) throw invalidField('stage_id', COMMON_ERRORS.doesNotExist(stageId));
  }

  async function owned(ownerId: number, funnelId: number, keywordId: number): Promise<FunnelKeywordRow> {
    const [row] = await orm.select().from(funnelKeywords).where(ownersKeyword(orm, ownerId, funnelId, keywordId)).limit(1);
    if (!row) throw notFound();
    return row;
  }

  const taken = (error: unknown) => (isUniqueViolation(error) ? invalidField('phrase', FUNNEL_ERRORS.keywordTaken) : error);

  async function list(ownerId: number, funnelId: number): Promise<Keyword[]> {
    await ownedFunnel(orm, ownerId, funnelId);
    const rows = await orm.select().from(funnelKeywords).where(eq(funnelKeywords.funnelId, funnelId)).orderBy(asc(funnelKeywords.id));
    return rows.map(toKeyword);
  }

  async function create(ownerId: number, funnelId: number, body: KeywordBody): Promise<Keyword> {
    await ownedFunnel(orm, ownerId, funnelId);
    const phrase = cleanPhrase(body.phrase);
    await checkStage(funnelId, body.stage_id);
    const [{ total }] = await orm.select({ total: count() }).from(funnelKeywords).where(eq(funnelKeywords.funnelId, funnelId));
    if (Number(total) >= KEYWORDS_MAX) throw invalid(FUNNEL_ERRORS.tooManyKeywords);
    // The owner is in the insert itself: a row is written only for the owner's funnel and its stage.
    const [inserted] = await db
      .query<{ id: number }>(
        `insert into funnel_keywords (funnel_id, phrase, stage_id)
         select s.funnel_id, $3, s.id from stages s join funnels f on f.id = s.funnel_id
          where s.id = $4 and s.funnel_id = $2 and f.owner_id = $1
         returning id`,
        [ownerId, funnelId, phrase, body.stage_id],
      )
      .catch((error: unknown) => {
        throw taken(error);
      });
    if (!inserted) throw notFound();
    const row = await owned(ownerId, funnelId, inserted.id);
    runtime.stagesChanged(funnelId);
    return toKeyword(row);
  }

  async function update(ownerId: number, funnelId: number, keywordId: number, body: KeywordPatch): Promise<Keyword> {
    const current = await owned(ownerId, funnelId, keywordId);
    const changes: Partial<Pick<FunnelKeywordRow, 'phrase' | 'stageId'>> = {};
    if (body.phrase !== undefined) changes.phrase = cleanPhrase(body.phrase);
    if (body.stage_id !== undefined) {
      await checkStage(funnelId, body.stage_id);
      changes.stageId = body.stage_id;
    }
    if (Object.keys(changes).length === 0) return toKeyword(current);
    const [row] = await orm
      .update(funnelKeywords)
      .set(changes)
      .where(ownersKeyword(orm, ownerId, funnelId, keywordId))
      .returning()
      .catch((error: unknown) => {
        throw taken(error);
      });
    if (!row) throw notFound();
    runtime.stagesChanged(funnelId);
    return toKeyword(row);
  }

  async function remove(ownerId: number, funnelId: number, keywordId: number): Promise<void> {
    const deleted = await orm.delete(funnelKeywords).where(ownersKeyword(orm, ownerId, funnelId, keywordId)).returning({ id: funnelKeywords.id });
    if (deleted.length === 0) throw notFound();
    runtime.stagesChanged(funnelId);
  }

  return { list, create, update, remove };
}

export type KeywordService = ReturnType<typeof createKeywordService>;
