// The incoming webhook (issue 24, "Payments made elsewhere"): another system (the owner's course
// platform, card processor) POSTs an action for one person of the funnel to the funnel's signed URL
// (/api/hooks/funnels/<id>/<secret>/, no session). Each event is applied once per (funnel,
// event_id): the event's row is claimed in the same statement as the action's writes, so a repeat
// (or two at once) finds it taken and changes nothing. A wrong secret, an unknown funnel or a
// person of another funnel is "not found".
import { createHash, timingSafeEqual } from 'node:crypto';
import { answerValue, type FieldKind } from '../../contract/fields';
import { TAGS_MAX } from '../../contract/funnels';
import { STARS_CURRENCY } from '../../contract/payments';
import type { InboundEvent, InboundResult } from '../../contract/webhooks';
import type { Db } from '../db';
import { COMMON_ERRORS, invalid, invalidField, notFound, type DomainMessage } from '../domain-error';
import { FUNNEL_ERRORS } from './errors';
import { stageHasReply } from '../outbox/sql';
import { decryptSecret } from './secret-box';

export const INBOUND_ERRORS = {
  noSuchField: (key: string): DomainMessage => ({ code: 'does_not_exist', text: `The funnel has no field with the key “${key}”.`, detail: key }),
} as const;

/** A phone number sent by another system: digits with an optional +, spaces, brackets and dashes (7 to 15 digits), kept as +digits or digits. */
function phoneValue(text: string): string | null {
  const trimmed = text.trim();
  if (!/^\+?[\d\s()-]+$/.test(trimmed)) return null;
  const digits = trimmed.replace(/\D/g, '');
  if (digits.length < 7 || digits.length > 15) return null;
  return (trimmed.startsWith('+') ? '+' : '') + digits;
}

export interface InboundServiceDeps {
  db: Db;
  secretKey: string;
}

/** Equal secrets, compared in constant time (digests: the same length whatever was sent). */
function sameSecret(given: string, expected: string): boolean {
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

/**
 * The event $2 of the funnel $1 for the person $3 claimed as `action`: the CTE `claimed`, one row
 * when the event is new, none when it was applied before (or is being applied right now). Every
 * write of an action goes after it and depends on it.
 */
const claimedAs = (action: InboundEvent['action']) => `
  claimed as (
    insert into funnel_inbound_events (funnel_id, event_id, action, person_id) values ($1, $2, '${action}', $3)
    on conflict do nothing returning id)`;

/**
 * The move of a claimed event's person ($3) to the stage $4 of the funnel $1 (unless in it
 * already, or $4 is null): the move's row (`via`), the reach, the stage's tag, and the stage's
 * reply (when it has one) as a reply row that the bot runtime sends (a waiting reply nobody owns is taken over
 * by the live runtime). CTEs after a `claimed` one.
 */
const moveAfterClaim = (via: 'webhook' | 'payment') => `
  was as (
    select p.id, p.stage_id, p.blocked from people p
     where p.id = $3 and p.funnel_id = $1 and exists (select 1 from claimed)
       and exists (select 1 from stages s where s.id = $4 and s.funnel_id = $1)
     for update of p),
  moved as (
    update people p set stage_id = $4 from was
     where p.id = was.id and p.stage_id is distinct from $4
    returning p.id, was.stage_id as from_stage_id, was.blocked),
  move as (
    insert into stage_moves (funnel_id, person_id, from_stage_id, to_stage_id, via, label)
    select $1, id, from_stage_id, $4, '${via}', '' from moved),
  reach as (
    insert into stage_reaches (person_id, stage_id, funnel_id) select id, $4, $1 from moved on conflict do nothing),
  tag as (
    insert into person_tags (person_id, tag_id, source)
    select m.id, s.tag_id, 'stage' from moved m join stages s on s.id = $4 where s.tag_id is not null
    on conflict do nothing),
  reply as (
    insert into outbox (funnel_id, person_id, stage_id, reply, priority, state)
    select $1, m.id, $4, true, 0, 'waiting' from moved m join stages s on s.id = $4 where not m.blocked and ${stageHasReply('s')})`;

/** go_to_stage: the event claimed, then the person moved via 'webhook'. */
const GO_TO_STAGE = `
  with ${claimedAs('go_to_stage')},
  ${moveAfterClaim('webhook')}
  select (select count(*) from claimed)::int as claimed`;

/** set_field: the event claimed, the person's value of the field $4 kept (the value $5, checked by its kind). */
const SET_FIELD = `
  with ${claimedAs('set_field')},
  kept as (
    insert into person_fields (person_id, field_id, value, updated_at)
    select p.id, f.id, $5, now() from claimed, people p, funnel_fields f
     where p.id = $3 and p.funnel_id = $1 and f.id = $4 and f.funnel_id = $1
    on conflict (person_id, field_id) do update set value = excluded.value, updated_at = now())
  select (select count(*) from claimed)::int as claimed`;

/**
 * mark_paid: the event claimed, a payment made elsewhere recorded once ('external', its charge
 * id the event's id; amount $5 in currency $6), and, when a stage ($4) is named, the payer moved
 * there via 'payment' as a Stars payment moves them to its paid stage.
 */
const MARK_PAID = `
  with ${claimedAs('mark_paid')},
  paid as (
    insert into funnel_payments (funnel_id, person_id, stage_id, amount, currency, provider, charge_id)
    select $1, p.id, null, $5, $6, 'external', $2 from claimed, people p where p.id = $3 and p.funnel_id = $1
    on conflict do nothing returning id),
  ${moveAfterClaim('payment')}
  select (select count(*) from claimed)::int as claimed`;

/** add_tag: the event claimed, the tag found by title (any case) or made, the person tagged. */
const ADD_TAG = `
  with ${claimedAs('add_tag')},
  existing as (select t.id from tags t where t.funnel_id = $1 and lower(t.title) = lower($4)),
  made as (
    insert into tags (funnel_id, title) select $1, $4 from claimed where not exists (select 1 from existing)
    on conflict do nothing returning id),
  tag as (select id from existing union all select id from made),
  added as (
    insert into person_tags (person_id, tag_id, source)
    select p.id, tag.id, 'manual' from tag, claimed, people p where p.id = $3 and p.funnel_id = $1
    on conflict do nothing)
  select (select count(*) from claimed)::int as claimed`;

export function createInboundService({ db, secretKey }: InboundServiceDeps) {
  /** The funnel whose URL this is, else "not found" (a wrong secret says no more than a wrong id). */
  async function requireFunnel(funnelId: number, secret: string): Promise<void> {
    const [funnel] = await db.query<{ inbound_secret: string | null }>('select inbound_secret from funnels where id = $1', [funnelId]);
    let expected: string | null = null;
    try {
      expected = funnel?.inbound_secret ? decryptSecret(funnel.inbound_secret, secretKey) : null;
    } catch {
      expected = null;
    }
    // Compared even when there is nothing to compare with: the answer takes as long either way.
    const matches = sameSecret(secret, expected ?? '\u0000');
    if (!matches || expected === null) throw notFound();
  }

  async function requirePerson(funnelId: number, personId: number): Promise<void> {
    const [person] = await db.query('select 1 from people where id = $1 and funnel_id = $2', [personId, funnelId]);
    if (!person) throw notFound();
  }

  const result = (claimed: number): InboundResult => ({ status: claimed > 0 ? 'applied' : 'duplicate' });

  async function applyGoToStage(funnelId: number, event: InboundEvent): Promise<InboundResult> {
    if (event.stage_id === undefined) throw invalidField('stage_id', COMMON_ERRORS.required);
    const [stage] = await db.query('select 1 from stages where id = $1 and funnel_id = $2', [event.stage_id, funnelId]);
    if (!stage) throw invalidField('stage_id', COMMON_ERRORS.doesNotExist(event.stage_id));
    const [row] = await db.query<{ claimed: number }>(GO_TO_STAGE, [funnelId, event.event_id, event.person_id, event.stage_id]);
    return result(row.claimed);
  }

  async function applyAddTag(funnelId: number, event: InboundEvent): Promise<InboundResult> {
    const title = event.tag?.trim();
    if (event.tag === undefined) throw invalidField('tag', COMMON_ERRORS.required);
    if (!title) throw invalidField('tag', COMMON_ERRORS.blank);
    const [counts] = await db.query<{ exists: boolean; count: number }>(
      'select exists (select 1 from tags where funnel_id = $1 and lower(title) = lower($2)) as exists, (select count(*)::int from tags where funnel_id = $1) as count',
      [funnelId, title],
    );
    if (!counts.exists && Number(counts.count) >= TAGS_MAX) throw invalidField('tag', FUNNEL_ERRORS.tooManyTags);
    const [row] = await db.query<{ claimed: number }>(ADD_TAG, [funnelId, event.event_id, event.person_id, title]);
    return result(row.claimed);
  }

  /** set_field: the field by its key ({key} in messages), the value checked as an answer to it would be. */
  async function applySetField(funnelId: number, event: InboundEvent): Promise<InboundResult> {
    if (event.field === undefined) throw invalidField('field', COMMON_ERRORS.required);
    if (event.value === undefined) throw invalidField('value', COMMON_ERRORS.required);
    const [field] = await db.query<{ id: number; kind: FieldKind; options: string[] }>(
      'select id, kind, options from funnel_fields where funnel_id = $1 and key = $2',
      [funnelId, event.field],
    );
    if (!field) throw invalidField('field', INBOUND_ERRORS.noSuchField(event.field));
    const value = field.kind === 'phone' ? phoneValue(event.value) : answerValue(field.kind, field.options, event.value);
    if (value === null) throw invalidField('value', FUNNEL_ERRORS.fieldValue(field.kind));
    const [row] = await db.query<{ claimed: number }>(SET_FIELD, [funnelId, event.event_id, event.person_id, field.id, value]);
    return result(row.claimed);
  }

  /** mark_paid: a payment made elsewhere (the owner's course platform or card processor), and the stage it leads to if named. */
  async function applyMarkPaid(funnelId: number, event: InboundEvent): Promise<InboundResult> {
    if (event.amount === undefined) throw invalidField('amount', COMMON_ERRORS.required);
    if (event.stage_id !== undefined) {
      const [stage] = await db.query('select 1 from stages where id = $1 and funnel_id = $2', [event.stage_id, funnelId]);
      if (!stage) throw invalidField('stage_id', COMMON_ERRORS.doesNotExist(event.stage_id));
    }
    const [row] = await db.query<{ claimed: number }>(MARK_PAID, [funnelId, event.event_id, event.person_id, event.stage_id ?? null, event.amount, event.currency ?? STARS_CURRENCY]);
    return result(row.claimed);
  }

  async function apply(funnelId: number, secret: string, event: InboundEvent): Promise<InboundResult> {
    await requireFunnel(funnelId, secret);
    await requirePerson(funnelId, event.person_id);
    switch (event.action) {
      case 'go_to_stage':
        return applyGoToStage(funnelId, event);
      case 'add_tag':
        return applyAddTag(funnelId, event);
      case 'set_field':
        return applySetField(funnelId, event);
      case 'mark_paid':
        return applyMarkPaid(funnelId, event);
      default:
        throw invalid(COMMON_ERRORS.incorrectData);
    }
  }

  return { apply };
}

export type InboundService = ReturnType<typeof createInboundService>;
