// The incoming webhook (issue 24, "Payments made elsewhere"): another system (the owner's course
// platform, card processor) POSTs an action for one person of the funnel to the funnel's signed URL
// (/api/hooks/funnels/<id>/<secret>/, no session). Each event is applied once per (funnel,
// event_id): the event's row is claimed in the same statement as the action's writes, so a repeat
// (or two at once) finds it taken and changes nothing. A wrong secret, an unknown funnel or a
// person of another funnel is "not found".
import { createHash, timingSafeEqual } from 'node:crypto';
import { TAGS_MAX } from '../../contract/funnels';
import type { InboundEvent, InboundResult } from '../../contract/webhooks';
import type { Db } from '../db';
import { COMMON_ERRORS, invalid, invalidField, notFound, type DomainMessage } from '../domain-error';
import { FUNNEL_ERRORS } from './errors';
import { decryptSecret } from './secret-box';

export const INBOUND_ERRORS = {
  /** set_field and mark_paid: wired when fields and payments are merged (applySetField, applyMarkPaid). */
  notYet: (action: string): DomainMessage => ({ code: 'invalid', text: `The action "${action}" is not available yet.`, detail: action }),
} as const;

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
 * go_to_stage: the event claimed, then the person moved (unless in that stage already) via
 * 'webhook': the move's row, the reach, the stage's tag, and the stage's message as a reply row
 * that the bot runtime sends (a waiting reply nobody owns is taken over by the live runtime).
 */
const GO_TO_STAGE = `
  with claimed as (
    insert into funnel_inbound_events (funnel_id, event_id, action, person_id) values ($1, $2, 'go_to_stage', $3)
    on conflict do nothing returning id),
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
    select $1, id, from_stage_id, $4, 'webhook', '' from moved),
  reach as (
    insert into stage_reaches (person_id, stage_id, funnel_id) select id, $4, $1 from moved on conflict do nothing),
  tag as (
    insert into person_tags (person_id, tag_id, source)
    select m.id, s.tag_id, 'stage' from moved m join stages s on s.id = $4 where s.tag_id is not null
    on conflict do nothing),
  reply as (
    insert into outbox (funnel_id, person_id, stage_id, reply, priority, state)
    select $1, id, $4, true, 0, 'waiting' from moved where not blocked)
  select (select count(*) from claimed)::int as claimed`;

/** add_tag: the event claimed, the tag found by title (any case) or made, the person tagged. */
const ADD_TAG = `
  with claimed as (
    insert into funnel_inbound_events (funnel_id, event_id, action, person_id) values ($1, $2, 'add_tag', $3)
    on conflict do nothing returning id),
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

  /** Wired by the fields part at merge: a person's field set from another system. */
  async function applySetField(_funnelId: number, event: InboundEvent): Promise<InboundResult> {
    throw invalidField('action', INBOUND_ERRORS.notYet(event.action));
  }

  /** Wired by the payments part at merge: a payment made elsewhere, recorded as 'external'. */
  async function applyMarkPaid(_funnelId: number, event: InboundEvent): Promise<InboundResult> {
    throw invalidField('action', INBOUND_ERRORS.notYet(event.action));
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
