// Series of letters of a funnel: the series (how people join and leave it, its time zone and
// downtime cut-off), its letters (content, sending time, on/off), members by hand, and each
// letter's history. The scheduler (server/outbox/letter-scheduler.ts) makes and sends the moments.
import { and, asc, eq, inArray } from 'drizzle-orm';
import { DEFAULT_CATCH_UP_HOURS, LETTERS_MAX, type Letter, type LetterBody, type LetterHistory, type LetterPatch, type Series, type SeriesBody, type SeriesPatch } from '../../contract/letters';
import { validateSendingTime } from '../../contract/recurrence';
import { openGate, type FeatureGate } from '../billing/ports';
import type { Db } from '../db';
import { letters, letterSeries, media, stages, tags, type LetterRow, type LetterSeriesRow, type LetterSendingTime, type MailingMessage } from '../db/schema';
import { ownedFunnel, ownedPerson, ownersFunnelIds } from '../funnels/access';
import { COMMON_ERRORS, invalid, invalidField, invalidFields, notFound, type DomainMessage } from '../domain-error';
import { FUNNEL_ERRORS } from '../funnels/errors';
import { toMessageMedia } from '../funnels/stages';
import { isTimeZone } from '../funnels/time-zone';
import { messageProblems } from '../messages/validate';
import { LETTER_HISTORY, LETTERS_SENT, REMOVE_MEMBER } from '../outbox/sql';
import { LETTER_ERRORS } from './errors';

export interface SeriesServiceDeps {
  db: Db;
  now: () => Date;
  /** Billing's gate: switching a series on needs a plan with letters (402). */
  gate?: FeatureGate;
}

const HISTORY_LIMIT = 200;

export function createSeriesService({ db, now, gate = openGate }: SeriesServiceDeps) {
  const orm = db.orm;

  // Part of every write's own WHERE: a write never touches another user's series or letter.
  const ownersSeries = (ownerId: number, id: number) => and(eq(letterSeries.id, id), inArray(letterSeries.funnelId, ownersFunnelIds(orm, ownerId)));
  const ownersLetter = (ownerId: number, id: number) =>
    and(
      eq(letters.id, id),
      inArray(letters.seriesId, orm.select({ id: letterSeries.id }).from(letterSeries).where(inArray(letterSeries.funnelId, ownersFunnelIds(orm, ownerId)))),
    );

  async function ownedSeries(ownerId: number, id: number): Promise<LetterSeriesRow> {
    const [row] = await orm.select().from(letterSeries).where(eq(letterSeries.id, id)).limit(1);
    if (!row) throw notFound();
    await ownedFunnel(orm, ownerId, row.funnelId);
    return row;
  }

  async function ownedLetter(ownerId: number, id: number): Promise<{ letter: LetterRow; series: LetterSeriesRow }> {
    const [row] = await orm.select().from(letters).where(eq(letters.id, id)).limit(1);
    if (!row) throw notFound();
    return { letter: row, series: await ownedSeries(ownerId, row.seriesId) };
  }

  async function toLetters(rows: LetterRow[]): Promise<Letter[]> {
    if (rows.length === 0) return [];
    const counts = await db.query<{ letter_id: number; n: number }>(
      LETTERS_SENT,
      [rows.map((r) => r.id)],
    );
    const sent = new Map(counts.map((c) => [c.letter_id, Number(c.n)]));
    const mediaIds = rows.map((r) => r.message.media_id).filter((id): id is number => id !== null);
    const mediaRows = mediaIds.length
      ? await orm.select({ id: media.id, kind: media.kind, contentType: media.contentType, size: media.size, filename: media.filename }).from(media).where(inArray(media.id, mediaIds))
      : [];
    const mediaById = new Map(mediaRows.map((m) => [m.id, toMessageMedia(m)]));
    return rows.map((r) => ({
      id: r.id,
      series_id: r.seriesId,
      position: r.position,
      name: r.name,
      message: { text: r.message.text, media: r.message.media_id !== null ? (mediaById.get(r.message.media_id) ?? null) : null, buttons: r.message.buttons, next_button: null },
      sending_time: r.sendingTime,
      enabled: r.enabled,
      sent_count: sent.get(r.id) ?? 0,
    }));
  }

  async function toSeries(rows: LetterSeriesRow[]): Promise<Series[]> {
    if (rows.length === 0) return [];
    const ids = rows.map((r) => r.id);
    const letterRows = await orm.select().from(letters).where(inArray(letters.seriesId, ids)).orderBy(asc(letters.position), asc(letters.id));
    const all = await toLetters(letterRows);
    const members = await db.query<{ series_id: number; n: number }>(
      'select series_id, count(*)::int as n from series_members where series_id = any($1::int[]) and left_at is null group by series_id',
      [ids],
    );
    const memberCount = new Map(members.map((m) => [m.series_id, Number(m.n)]));
    return rows.map((r) => ({
      id: r.id,
      funnel_id: r.funnelId,
      name: r.name,
      join_on: r.joinOn,
      leave_on: r.leaveOn,
      time_zone: r.timeZone,
      catch_up_hours: r.catchUpHours,
      enabled: r.enabledAt !== null,
      members_count: memberCount.get(r.id) ?? 0,
      letters: all.filter((l) => l.series_id === r.id),
      created_at: r.createdAt.toISOString(),
    }));
  }

  /** The stages and tags a series names must be its funnel's; the time zone must exist. */
  async function checkRules(funnelId: number, body: SeriesPatch): Promise<void> {
    const problems: Record<string, DomainMessage[]> = {};
    const stageIds = [body.join_on?.stage_id, body.leave_on?.stage_id].filter((id): id is number => typeof id === 'number');
    const tagIds = [body.join_on?.tag_id, body.leave_on?.tag_id].filter((id): id is number => typeof id === 'number');
    if (stageIds.length) {
      const own = await orm.select({ id: stages.id }).from(stages).where(and(eq(stages.funnelId, funnelId), inArray(stages.id, stageIds)));
      const missing = stageIds.find((id) => !own.some((s) => s.id === id));
      if (missing !== undefined) problems[body.join_on?.stage_id === missing ? 'join_on' : 'leave_on'] = [COMMON_ERRORS.doesNotExist(missing)];
    }
    if (tagIds.length) {
      const own = await orm.select({ id: tags.id }).from(tags).where(and(eq(tags.funnelId, funnelId), inArray(tags.id, tagIds)));
      const missing = tagIds.find((id) => !own.some((s) => s.id === id));
      if (missing !== undefined) problems[body.join_on?.tag_id === missing ? 'join_on' : 'leave_on'] = [COMMON_ERRORS.doesNotExist(missing)];
    }
    const join = body.join_on;
    if (join && ((join.on === 'stage' && join.stage_id === null) || (join.on === 'tag' && join.tag_id === null))) problems.join_on = [COMMON_ERRORS.required];
    if (body.time_zone !== undefined && !isTimeZone(body.time_zone)) problems.time_zone = [COMMON_ERRORS.incorrectData];
    if (Object.keys(problems).length) throw invalidFields(problems);
  }

  async function list(ownerId: number, funnelId: number): Promise<Series[]> {
    await ownedFunnel(orm, ownerId, funnelId);
    return toSeries(await orm.select().from(letterSeries).where(eq(letterSeries.funnelId, funnelId)).orderBy(asc(letterSeries.id)));
  }

  async function get(ownerId: number, id: number): Promise<Series> {
    return (await toSeries([await ownedSeries(ownerId, id)]))[0];
  }

  async function create(ownerId: number, funnelId: number, body: SeriesBody): Promise<Series> {
    await ownedFunnel(orm, ownerId, funnelId);
    await checkRules(funnelId, body);
    const [row] = await orm
      .insert(letterSeries)
      .values({
        funnelId,
        name: body.name.trim(),
        joinOn: body.join_on ?? { on: 'start', stage_id: null, tag_id: null },
        leaveOn: body.leave_on ?? { stage_id: null, tag_id: null },
        timeZone: body.time_zone ?? 'UTC',
        catchUpHours: body.catch_up_hours ?? DEFAULT_CATCH_UP_HOURS,
      })
      .returning();
    return (await toSeries([row]))[0];
  }

  async function update(ownerId: number, id: number, body: SeriesPatch): Promise<Series> {
    const series = await ownedSeries(ownerId, id);
    await checkRules(series.funnelId, body);
    const [row] = await orm
      .update(letterSeries)
      .set({
        ...(body.name !== undefined ? { name: body.name.trim() } : {}),
        ...(body.join_on ? { joinOn: body.join_on } : {}),
        ...(body.leave_on ? { leaveOn: body.leave_on } : {}),
        ...(body.time_zone ? { timeZone: body.time_zone } : {}),
        ...(body.catch_up_hours ? { catchUpHours: body.catch_up_hours } : {}),
      })
      .where(ownersSeries(ownerId, id))
      .returning();
    return (await toSeries([row]))[0];
  }

  async function remove(ownerId: number, id: number): Promise<void> {
    await ownedSeries(ownerId, id);
    await orm.delete(letterSeries).where(ownersSeries(ownerId, id));
  }

  /** On: people who meet its joining rule from now on become members. Off: nothing more is sent. */
  async function setEnabled(ownerId: number, id: number, enabled: boolean): Promise<Series> {
    const series = await ownedSeries(ownerId, id);
    if (enabled && series.enabledAt === null) {
      const ready = await orm.select({ id: letters.id }).from(letters).where(and(eq(letters.seriesId, id), eq(letters.enabled, true))).limit(1);
      if (ready.length === 0) throw invalidField('enabled', LETTER_ERRORS.noSendingTime);
      await gate.requireFeature(ownerId, 'letters');
    }
    // The owner's word replaces billing's: a series they switch off stays off after a payment.
    await orm
      .update(letterSeries)
      .set({ enabledAt: enabled ? (series.enabledAt ?? series.billingPausedEnabledAt ?? now()) : null, billingPausedEnabledAt: null })
      .where(ownersSeries(ownerId, id));
    return get(ownerId, id);
  }

  async function cleanLetter(funnelId: number, body: LetterPatch, current: LetterRow | null) {
    const problems: Record<string, DomainMessage[]> = {};
    let message: MailingMessage | undefined;
    if (body.message) {
      const candidate = { text: body.message.text, media_id: body.message.media_id ?? null, buttons: (body.message.buttons ?? []) as Array<{ text: string; url: string }>, next_button: null };
      const found = await messageProblems(candidate, async (mediaId) => {
        const [item] = await orm.select({ id: media.id }).from(media).where(and(eq(media.id, mediaId), eq(media.funnelId, funnelId))).limit(1);
        return Boolean(item);
      });
      if (found) Object.assign(problems, found);
      message = { ...candidate, buttons: candidate.buttons.map((b) => ({ text: (b.text ?? '').trim(), url: (b.url ?? '').trim() })) };
    }
    let sendingTime: LetterSendingTime | null | undefined;
    if (body.sending_time !== undefined) {
      if (body.sending_time === null) sendingTime = null;
      else {
        const checked = validateSendingTime(body.sending_time);
        if (checked.ok) sendingTime = checked.value;
        else problems.sending_time = [COMMON_ERRORS.incorrectData];
      }
    }
    const enabled = body.enabled ?? current?.enabled ?? false;
    const time = sendingTime !== undefined ? sendingTime : (current?.sendingTime ?? null);
    if (enabled && time === null && !problems.sending_time) problems.enabled = [LETTER_ERRORS.noSendingTime];
    if (Object.keys(problems).length) throw invalidFields(problems);
    return { message, sendingTime, enabled };
  }

  async function addLetter(ownerId: number, seriesId: number, body: LetterBody): Promise<Letter> {
    const series = await ownedSeries(ownerId, seriesId);
    const clean = await cleanLetter(series.funnelId, body, null);
    const [{ n }] = await db.query<{ n: number }>('select count(*)::int as n from letters where series_id = $1', [seriesId]);
    if (Number(n) >= LETTERS_MAX) throw invalid(LETTER_ERRORS.tooManyLetters);
    const [row] = await orm
      .insert(letters)
      .values({
        seriesId,
        position: Number(n),
        name: body.name.trim(),
        message: clean.message!,
        sendingTime: clean.sendingTime ?? null,
        enabled: clean.enabled,
      })
      .returning();
    return (await toLetters([row]))[0];
  }

  async function getLetter(ownerId: number, id: number): Promise<Letter> {
    return (await toLetters([(await ownedLetter(ownerId, id)).letter]))[0];
  }

  async function updateLetter(ownerId: number, id: number, body: LetterPatch): Promise<Letter> {
    const { letter, series } = await ownedLetter(ownerId, id);
    const clean = await cleanLetter(series.funnelId, body, letter);
    const [row] = await orm
      .update(letters)
      .set({
        ...(body.name !== undefined ? { name: body.name.trim() } : {}),
        ...(clean.message ? { message: clean.message } : {}),
        ...(clean.sendingTime !== undefined ? { sendingTime: clean.sendingTime } : {}),
        enabled: clean.enabled,
      })
      .where(ownersLetter(ownerId, id))
      .returning();
    return (await toLetters([row]))[0];
  }

  async function removeLetter(ownerId: number, id: number): Promise<void> {
    await ownedLetter(ownerId, id);
    await orm.delete(letters).where(ownersLetter(ownerId, id));
  }

  /** Who got the letter (or will, or was skipped), newest moments first. */
  async function history(ownerId: number, id: number): Promise<LetterHistory> {
    await ownedLetter(ownerId, id);
    const rows = await db.query<{ person_id: number; first_name: string; last_name: string; username: string | null; state: string; moment: Date; sent_at: Date | null; total: number }>(
      LETTER_HISTORY,
      [id, HISTORY_LIMIT],
    );
    return {
      count: Number(rows[0]?.total ?? 0),
      results: rows.map((r) => ({
        person_id: r.person_id,
        first_name: r.first_name,
        last_name: r.last_name,
        username: r.username,
        state: (r.state === 'deleted' ? 'sent' : r.state === 'unsend' || r.state === 'deleting' ? 'sent' : r.state) as LetterHistory['results'][number]['state'],
        moment: new Date(r.moment).toISOString(),
        sent_at: r.sent_at ? new Date(r.sent_at).toISOString() : null,
      })),
    };
  }

  /** By hand from the person's screen: joins now (the scheduler makes the moments in the same statement). */
  async function addMember(ownerId: number, seriesId: number, personId: number, schedule: (c: { series_id: number; person_id: number; funnel_id: number; joined_at: Date; how: string; time_zone: string }) => Promise<void>): Promise<void> {
    const series = await ownedSeries(ownerId, seriesId);
    const person = await ownedPerson(orm, ownerId, personId);
    if (person.funnelId !== series.funnelId) throw notFound();
    if (person.blocked) throw invalid(FUNNEL_ERRORS.personBlocked);
    // A member who left may join again: their old membership goes, its history stays.
    await db.query(
      `delete from series_members m using letter_series s, funnels f
        where m.series_id = $1 and m.person_id = $2 and m.left_at is not null and s.id = m.series_id and f.id = s.funnel_id and f.owner_id = $3`,
      [seriesId, personId, ownerId],
    );
    await schedule({ series_id: seriesId, person_id: personId, funnel_id: series.funnelId, joined_at: now(), how: 'manual', time_zone: series.timeZone });
  }

  /** By hand: leaves now; the letters not sent yet are cancelled. */
  async function removeMember(ownerId: number, seriesId: number, personId: number): Promise<void> {
    await ownedSeries(ownerId, seriesId);
    const [gone] = await db.query<{ person_id: number }>(
      REMOVE_MEMBER,
      [seriesId, personId, ownerId],
    );
    void gone;
  }

  /** The series a person is in now (for their screen). */
  async function ofPerson(ownerId: number, personId: number): Promise<Array<{ id: number; name: string; member: boolean }>> {
    const person = await ownedPerson(orm, ownerId, personId);
    const rows = await db.query<{ id: number; name: string; member: boolean }>(
      `select s.id, s.name, exists (select 1 from series_members m where m.series_id = s.id and m.person_id = $2 and m.left_at is null) as member
         from letter_series s where s.funnel_id = $1 order by s.id`,
      [person.funnelId, personId],
    );
    return rows;
  }

  return { list, get, create, update, remove, setEnabled, addLetter, getLetter, updateLetter, removeLetter, history, addMember, removeMember, ofPerson };
}

export type SeriesService = ReturnType<typeof createSeriesService>;
