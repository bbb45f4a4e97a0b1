// A constant SQL text with $n parameters as a Drizzle SQL object, for statements that run inside
// an orm.transaction (db.query runs outside any). Arrays stay one parameter (int[], text[]), where
// Drizzle's template would spread them into a list.
import { sql, type SQL } from 'drizzle-orm';

/** A timestamp column of a raw statement's row (a Date, or a string where the driver left one) as ISO 8601. */
export const isoTime = (value: Date | string): string => (value instanceof Date ? value : new Date(value)).toISOString();

export function rawSql(text: string, params: readonly unknown[]): SQL {
  const parts = text.split(/\$(\d+)/);
  const chunks: SQL[] = [];
  for (let i = 0; i < parts.length; i++) {
    if (i % 2 === 0) chunks.push(sql.raw(parts[i]));
    else chunks.push(sql`${sql.param(params[Number(parts[i]) - 1])}`);
  }
  return sql.join(chunks, sql.raw(''));
}
