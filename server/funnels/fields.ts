// A funnel's fields (issue 24, "ask and remember"): the owner defines them (text, number, e-mail,
// phone, date, choice), a stage asks for one (stages.ask), and the bot runtime keeps a person's
// answer in person_fields (bots/runtime/behaviours/ask.ts). Every write names the owner in its own
// WHERE: another user's funnel, field, stage or person is "not found" and no statement touches it.
import {
  FIELDS_MAX,
  FIELD_OPTIONS_MAX,
  FIELD_OPTIONS_MIN,
  RESERVED_FIELD_KEYS,
  answerValue,
  suggestFieldKey,
  type FieldBody,
  type FieldKind,
  type FieldPatch,
  type FunnelField,
  type PersonFieldValue,
  type StageAsk,
} from '../../contract/fields';
import type { Stage } from '../../contract/funnels';
import type { Db } from '../db';
import { isUniqueViolation } from '../db/errors';
import { isoTime } from '../db/raw';
import { COMMON_ERRORS, invalid, invalidField, notFound } from '../domain-error';
import { FUNNEL_ERRORS } from './errors';
import { personFieldValues } from './field-values';
import { idleFunnelRuntime, type FunnelRuntimePort } from './runtime-port';
import type { StageService } from './stages';

export interface FieldServiceDeps {
  db: Db;
  stages: Pick<StageService, 'get'>;
  /** Told of every change of an ask, so a running bot reads its stages again. */
  runtime?: Pick<FunnelRuntimePort, 'stagesChanged'>;
}

interface FieldRow {
  id: number;
  funnel_id: number;
  key: string;
  title: string;
  kind: FieldKind;
  options: string[];
  created_at: Date | string;
  people_count: number | string;
  asked_by: Array<{ id: number; title: string }> | null;
}

const toField = (r: FieldRow): FunnelField => ({
  id: r.id,
  funnel_id: r.funnel_id,
  key: r.key,
  title: r.title,
  kind: r.kind,
  options: r.options,
  people_count: Number(r.people_count),
  asked_by: r.asked_by ?? [],
  created_at: isoTime(r.created_at),
});

/** Fields with their counts and the stages asking for them, of the owner ($1) only. */
const SELECT_FIELDS = `select ff.id, ff.funnel_id, ff.key, ff.title, ff.kind, ff.options, ff.created_at,
       (select count(*)::int from person_fields pf where pf.field_id = ff.id) as people_count,
       (select jsonb_agg(jsonb_build_object('id', s.id, 'title', s.title) order by s.position, s.id) from stages s
         where s.funnel_id = ff.funnel_id and s.ask->>'field_id' = ff.id::text) as asked_by
  from funnel_fields ff join funnels f on f.id = ff.funnel_id
 where f.owner_id = $1`;

/** A choice's options: trimmed, 2..8, no two the same in any case. Other kinds have none. */
function cleanOptions(kind: FieldKind, options: readonly string[] | undefined): string[] {
  if (kind !== 'choice') return [];
  const clean = (options ?? []).map((o) => o.trim()).filter((o) => o !== '');
  const distinct = new Set(clean.map((o) => o.toLocaleLowerCase()));
  if (clean.length < FIELD_OPTIONS_MIN || clean.length > FIELD_OPTIONS_MAX || distinct.size !== clean.length) {
    throw invalidField('options', FUNNEL_ERRORS.fieldOptions);
  }
  return clean;
}

function cleanKey(key: string): string {
  if (RESERVED_FIELD_KEYS.includes(key)) throw invalidField('key', FUNNEL_ERRORS.fieldKeyReserved(key));
  return key;
}

function cleanTitle(title: string): string {
  const clean = title.trim();
  if (!clean) throw invalidField('title', COMMON_ERRORS.blank);
  return clean;
}

const keyTaken = (error: unknown) => (isUniqueViolation(error) ? invalidField('key', FUNNEL_ERRORS.fieldKeyTaken) : error);

export function createFieldService({ db, stages, runtime = idleFunnelRuntime }: FieldServiceDeps) {
  async function requireFunnel(ownerId: number, funnelId: number): Promise<void> {
    const [funnel] = await db.query<{ id: number }>('select id from funnels where id = $1 and owner_id = $2', [funnelId, ownerId]);
    if (!funnel) throw notFound();
  }

  async function list(ownerId: number, funnelId: number): Promise<FunnelField[]> {
    await requireFunnel(ownerId, funnelId);
    const rows = await db.query<FieldRow>(`${SELECT_FIELDS} and ff.funnel_id = $2 order by ff.id`, [ownerId, funnelId]);
    return rows.map(toField);
  }

  async function get(ownerId: number, funnelId: number, fieldId: number): Promise<FunnelField> {
    const [row] = await db.query<FieldRow>(`${SELECT_FIELDS} and ff.funnel_id = $2 and ff.id = $3`, [ownerId, funnelId, fieldId]);
    if (!row) throw notFound();
    return toField(row);
  }

  async function create(ownerId: number, funnelId: number, body: FieldBody): Promise<FunnelField> {
    await requireFunnel(ownerId, funnelId);
    const title = cleanTitle(body.title);
    const key = cleanKey(body.key ?? suggestFieldKey(title));
    if (!key) throw invalidField('key', FUNNEL_ERRORS.fieldKeyMissing);
    const options = cleanOptions(body.kind, body.options);
    const [{ count }] = await db.query<{ count: number }>('select count(*)::int as count from funnel_fields where funnel_id = $1', [funnelId]);
    if (Number(count) >= FIELDS_MAX) throw invalid(FUNNEL_ERRORS.tooManyFields);
    const [row] = await db
      .query<{ id: number }>(
        `insert into funnel_fields (funnel_id, key, title, kind, options)
         select f.id, $3, $4, $5, $6::jsonb from funnels f where f.id = $2 and f.owner_id = $1 returning id`,
        [ownerId, funnelId, key, title, body.kind, JSON.stringify(options)],
      )
      .catch((error: unknown) => {
        throw keyTaken(error);
      });
    if (!row) throw notFound();
    return get(ownerId, funnelId, row.id);
  }

  async function update(ownerId: number, funnelId: number, fieldId: number, patch: FieldPatch): Promise<FunnelField> {
    const current = await get(ownerId, funnelId, fieldId);
    const title = patch.title === undefined ? null : cleanTitle(patch.title);
    const key = patch.key === undefined ? null : cleanKey(patch.key);
    const options = patch.options === undefined || current.kind !== 'choice' ? null : cleanOptions(current.kind, patch.options);
    const updated = await db
      .query<{ id: number }>(
        `update funnel_fields ff set title = coalesce($4, ff.title), key = coalesce($5, ff.key), options = coalesce($6::jsonb, ff.options)
          where ff.id = $3 and ff.funnel_id = $2 and ff.funnel_id in (select f.id from funnels f where f.owner_id = $1)
         returning ff.id`,
        [ownerId, funnelId, fieldId, title, key, options === null ? null : JSON.stringify(options)],
      )
      .catch((error: unknown) => {
        throw keyTaken(error);
      });
    if (updated.length === 0) throw notFound();
    if (options !== null) runtime.stagesChanged(funnelId);
    return get(ownerId, funnelId, fieldId);
  }

  /**
   * Deletes the field and every person's value of it. A stage that asked for it keeps its ask,
   * broken (field_id null) until the owner picks another field: the funnel cannot run meanwhile.
   */
  async function remove(ownerId: number, funnelId: number, fieldId: number): Promise<void> {
    // One statement: the field goes, and the asks for it break, only if the funnel is the owner's.
    const deleted = await db.query<{ id: number }>(
      `with gone as (
         delete from funnel_fields ff where ff.id = $3 and ff.funnel_id = $2 and ff.funnel_id in (select f.id from funnels f where f.owner_id = $1)
         returning ff.id, ff.funnel_id),
       broken as (
         update stages s set ask = jsonb_set(s.ask, '{field_id}', 'null'::jsonb) from gone
          where s.funnel_id = gone.funnel_id and s.ask->>'field_id' = gone.id::text)
       select id from gone`,
      [ownerId, funnelId, fieldId],
    );
    if (deleted.length === 0) throw notFound();
    runtime.stagesChanged(funnelId);
  }

  /** The stage of this funnel, the owner's; answers its message's buttons (a phone or choice ask refuses them). */
  async function ownedStage(ownerId: number, funnelId: number, stageId: number): Promise<{ hasButtons: boolean }> {
    const [stage] = await db.query<{ buttons: number; choices: number }>(
      `select jsonb_array_length(coalesce(s.message->'buttons', '[]'::jsonb)) as buttons,
              jsonb_array_length(coalesce(s.message->'choices', '[]'::jsonb)) as choices
         from stages s join funnels f on f.id = s.funnel_id where s.id = $3 and s.funnel_id = $2 and f.owner_id = $1`,
      [ownerId, funnelId, stageId],
    );
    if (!stage) throw notFound();
    return { hasButtons: Number(stage.buttons) + Number(stage.choices) > 0 };
  }

  /** The stage asks for the field: the person's next message is its answer. */
  async function setAsk(ownerId: number, funnelId: number, stageId: number, body: StageAsk): Promise<Stage> {
    const stage = await ownedStage(ownerId, funnelId, stageId);
    if (body.field_id === null) throw invalidField('field_id', COMMON_ERRORS.required);
    const [field] = await db.query<{ kind: FieldKind }>('select kind from funnel_fields where id = $1 and funnel_id = $2', [body.field_id, funnelId]);
    if (!field) throw invalidField('field_id', COMMON_ERRORS.doesNotExist(body.field_id));
    // Telegram takes one keyboard per message: a reply keyboard (phone, choice) leaves no room for inline buttons.
    if ((field.kind === 'phone' || field.kind === 'choice') && stage.hasButtons) throw invalidField('field_id', FUNNEL_ERRORS.askWithButtons);
    const ask = { field_id: body.field_id, reask_text: body.reask_text.trim() };
    const updated = await db.query<{ id: number }>(
      `update stages s set ask = $4::jsonb where s.id = $3 and s.funnel_id = $2 and s.funnel_id in (select f.id from funnels f where f.owner_id = $1) returning s.id`,
      [ownerId, funnelId, stageId, JSON.stringify(ask)],
    );
    if (updated.length === 0) throw notFound();
    runtime.stagesChanged(funnelId);
    return stages.get(ownerId, stageId);
  }

  async function clearAsk(ownerId: number, funnelId: number, stageId: number): Promise<Stage> {
    const updated = await db.query<{ id: number }>(
      `update stages s set ask = null where s.id = $3 and s.funnel_id = $2 and s.funnel_id in (select f.id from funnels f where f.owner_id = $1) returning s.id`,
      [ownerId, funnelId, stageId],
    );
    if (updated.length === 0) throw notFound();
    runtime.stagesChanged(funnelId);
    return stages.get(ownerId, stageId);
  }

  /** Every field of the person's funnel with their value (the person must be the owner's). */
  async function personValues(ownerId: number, personId: number): Promise<PersonFieldValue[]> {
    const [person] = await db.query<{ id: number }>('select p.id from people p join funnels f on f.id = p.funnel_id where p.id = $2 and f.owner_id = $1', [ownerId, personId]);
    if (!person) throw notFound();
    return personFieldValues(db, personId);
  }

  /** The owner sets (or, with an empty value, clears) a person's value; checked as an answer would be. */
  async function setPersonValue(ownerId: number, personId: number, fieldId: number, raw: string): Promise<PersonFieldValue[]> {
    const [field] = await db.query<{ kind: FieldKind; options: string[] }>(
      `select ff.kind, ff.options from funnel_fields ff join people p on p.funnel_id = ff.funnel_id join funnels f on f.id = p.funnel_id
        where ff.id = $3 and p.id = $2 and f.owner_id = $1`,
      [ownerId, personId, fieldId],
    );
    if (!field) throw notFound();
    const text = raw.trim();
    if (text === '') {
      await db.query(
        `delete from person_fields pf using people p, funnels f where pf.person_id = $2 and pf.field_id = $3 and p.id = pf.person_id and f.id = p.funnel_id and f.owner_id = $1`,
        [ownerId, personId, fieldId],
      );
      return personValues(ownerId, personId);
    }
    // A phone typed by the owner: digits, spaces, +, -, ( and ) only.
    const value = field.kind === 'phone' ? (/^\+?[0-9 ()-]{5,32}$/.test(text) ? text : null) : answerValue(field.kind, field.options, text);
    if (value === null) throw invalidField('value', FUNNEL_ERRORS.fieldValue(field.kind));
    await db.query(
      `insert into person_fields (person_id, field_id, value)
       select p.id, ff.id, $4 from people p join funnels f on f.id = p.funnel_id join funnel_fields ff on ff.funnel_id = p.funnel_id
        where p.id = $2 and ff.id = $3 and f.owner_id = $1
       on conflict (person_id, field_id) do update set value = excluded.value, updated_at = now()`,
      [ownerId, personId, fieldId, value],
    );
    return personValues(ownerId, personId);
  }

  return { list, get, create, update, remove, setAsk, clearAsk, personValues, setPersonValue };
}

export type FieldService = ReturnType<typeof createFieldService>;
