// A person's field values as the person's screen shows them: every field of their funnel, with
// their value or null. The caller has checked the person is the owner's.
import type { FieldKind, PersonFieldValue } from '../../contract/fields';
import type { Db } from '../db';
import { isoTime } from '../db/raw';

export async function personFieldValues(db: Db, personId: number): Promise<PersonFieldValue[]> {
  const rows = await db.query<{ field_id: number; key: string; title: string; kind: FieldKind; options: string[]; value: string | null; updated_at: Date | string | null }>(
    `select ff.id as field_id, ff.key, ff.title, ff.kind, ff.options, pf.value, pf.updated_at
       from people p join funnel_fields ff on ff.funnel_id = p.funnel_id
       left join person_fields pf on pf.person_id = p.id and pf.field_id = ff.id
      where p.id = $1 order by ff.id`,
    [personId],
  );
  return rows.map((r) => ({ ...r, updated_at: r.updated_at === null ? null : isoTime(r.updated_at) }));
}
