// Ownership: every lookup names the owner, so another user's funnel, stage, tag, person or
// media is simply "not found" (never "forbidden": existence is not revealed).
import { and, eq, inArray } from 'drizzle-orm';
import { MAX_ID } from '../../contract/schemas/common';
import type { Database } from '../db';
import { funnels, media, people, stages, tags, type FunnelRow, type MediaRow, type PersonRow, type StageRow, type TagRow } from '../db/schema';
import { notFound } from '../domain-error';

export { MAX_ID };

/** A path id: a positive whole number that fits an integer column, else "not found". */
export function parseId(raw: string): number {
  if (!/^[0-9]{1,10}$/.test(raw)) throw notFound();
  const id = Number(raw);
  if (id < 1 || id > MAX_ID) throw notFound();
  return id;
}

/**
 * The owner's funnels as a subquery, for a write's own WHERE (`inArray(table.funnelId,
 * ownersFunnelIds(db, ownerId))`): the write then cannot touch another user's row, whatever was
 * checked before it.
 */
export function ownersFunnelIds(db: Database, ownerId: number) {
  return db.select({ id: funnels.id }).from(funnels).where(eq(funnels.ownerId, ownerId));
}

/** `WHERE` for a write to one row of a funnel's table (stages, tags, people, media), only if it is the owner's. */
export function ownersRow(db: Database, ownerId: number, table: typeof stages | typeof tags | typeof people | typeof media, id: number) {
  return and(eq(table.id, id), inArray(table.funnelId, ownersFunnelIds(db, ownerId)));
}

export async function ownedFunnel(db: Database, ownerId: number, funnelId: number): Promise<FunnelRow> {
  const [row] = await db.select().from(funnels).where(and(eq(funnels.id, funnelId), eq(funnels.ownerId, ownerId))).limit(1);
  if (!row) throw notFound();
  return row;
}

async function ownedChild<Row>(
  db: Database,
  ownerId: number,
  table: typeof stages | typeof tags | typeof people | typeof media,
  id: number,
): Promise<Row> {
  const [row] = await db
    .select({ row: table })
    .from(table)
    .innerJoin(funnels, eq(funnels.id, table.funnelId))
    .where(and(eq(table.id, id), eq(funnels.ownerId, ownerId)))
    .limit(1);
  if (!row) throw notFound();
  return row.row as Row;
}

export const ownedStage = (db: Database, ownerId: number, id: number) => ownedChild<StageRow>(db, ownerId, stages, id);
export const ownedTag = (db: Database, ownerId: number, id: number) => ownedChild<TagRow>(db, ownerId, tags, id);
export const ownedPerson = (db: Database, ownerId: number, id: number) => ownedChild<PersonRow>(db, ownerId, people, id);
export const ownedMedia = (db: Database, ownerId: number, id: number) => ownedChild<MediaRow>(db, ownerId, media, id);
