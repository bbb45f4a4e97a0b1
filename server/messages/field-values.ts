// A person's field values for personalisation (`{email}`, `{city|somewhere}`): read only when a
// message has a placeholder that is not a built-in one, so messages without them cost nothing.
import { PERSON_FIELDS } from '../../contract/personalise';
import type { Db } from '../db';

const PLACEHOLDER_KEY = /\{([a-z][a-z0-9_]{0,31})(?:\|[^{}|<>]{0,64})?\}/g;

/** Does the HTML hold a placeholder that may be a field's (not first_name, last_name, username)? */
export function mayNeedFieldValues(html: string): boolean {
  for (const match of html.matchAll(PLACEHOLDER_KEY)) if (!(PERSON_FIELDS as readonly string[]).includes(match[1])) return true;
  return false;
}

/** Every field key of the person's funnel with their value (null: none). */
export async function personFieldMap(db: Db, personId: number): Promise<Map<string, string | null>> {
  const rows = await db.query<{ key: string; value: string | null }>(
    `select ff.key, pf.value from people p join funnel_fields ff on ff.funnel_id = p.funnel_id
       left join person_fields pf on pf.field_id = ff.id and pf.person_id = p.id where p.id = $1`,
    [personId],
  );
  return new Map(rows.map((r) => [r.key, r.value]));
}
