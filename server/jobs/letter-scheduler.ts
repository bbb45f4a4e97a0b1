// Series of letters on their schedule: who joins and leaves each series, and each member's next
// moments as outbox rows. It runs on the delivery engine's tick, in any number of processes: every
// write is one statement whose conflicts (a member already there, a moment already made) make a
// second process's same write do nothing.
//
// A member's letters form a chain: the first counts from the moment they joined, each next one
// from the previous letter's (first) moment. A "through" letter has one moment; an "every" letter
// repeats from its anchor (occurrence k = anchor + k·N, so month ends never drift), and its next
// occurrence is made when the current one falls due. After downtime: a moment later than the
// series' cut-off is skipped; of several due at once for one person and series only the newest
// goes (the others are skipped); both show in the history of the series as skipped.
//
// Joins and leaves are looked for every second, but only among what happened since the previous
// look (less a minute's margin for transactions that committed late): a look costs what there is
// to do, not the number of people stored. Once a minute the look reaches an hour back (the safety
// net). A series this process has not seen yet, or whose rules changed, is looked at whole, and so
// is everything when the process starts. Blocking the bot leaves every series at once (a trigger
// on people, migration 0015).
import type { Db } from '../db';
import type { LetterSendingTime } from '../db/schema';
import { momentAfter } from '../../contract/recurrence';

/** People who joined (or left) a series are looked for this often. */
export const MEMBERSHIP_INTERVAL_MS = 1_000;
/** A look at what happened since the previous one starts this much earlier (late commits, other servers' clocks). */
const SINCE_MARGIN_MS = 60_000;
/** This often the look reaches further back… */
export const WIDE_LOOK_MS = 60_000;
/** …this far (the safety net for what committed later than the margin). */
export const WIDE_MARGIN_MS = 3_600_000;
/** At most this many joins, sweeps and follow-ups per statement. */
const BATCH = 1_000;
/** Letters go before mailings, after replies. */
export const LETTER_PRIORITY = 5;
/** An occurrence is looked at this long before its moment (so it is there before it is claimed). */
const LOOKAHEAD_MS = 5_000;

interface SeriesLetter {
  id: number;
  series_id: number;
  position: number;
  sending_time: LetterSendingTime | null;
  enabled: boolean;
}

interface Candidate {
  series_id: number;
  person_id: number;
  funnel_id: number;
  joined_at: Date;
  how: string;
  time_zone: string;
}

/** The first moment of each enabled letter of a series, for a member who joined at `joinedAt`. */
export function firstMoments(list: SeriesLetter[], joinedAt: Date, timeZone: string): Array<{ letterId: number; anchor: Date; moment: Date; repeats: boolean }> {
  const result: Array<{ letterId: number; anchor: Date; moment: Date; repeats: boolean }> = [];
  let anchor = joinedAt;
  for (const letter of [...list].sort((a, b) => a.position - b.position || a.id - b.id)) {
    if (!letter.enabled || !letter.sending_time) continue;
    const moment = momentAfter(letter.sending_time, anchor, timeZone, 1);
    result.push({ letterId: letter.id, anchor, moment, repeats: letter.sending_time.kind === 'every' });
    anchor = moment;
  }
  return result;
}

/**
 * Where a series' look starts: the whole series ($1 holds the series looked at whole; $2 null
 * means all of them), else what happened since $2.
 */
const SINCE = `case when $2::timestamptz is null or s.id = any($1::int[]) then s.enabled_at else greatest(s.enabled_at, $2::timestamptz) end`;

const JOIN_CANDIDATES = `
  select s.id as series_id, p.id as person_id, s.funnel_id, x.joined_at, x.how, s.time_zone
    from letter_series s
    cross join lateral (select ${SINCE} as since) b
    cross join lateral (
      select p.id as person_id, p.joined_at, 'start' as how from people p
       where s.join_on->>'on' = 'start' and p.funnel_id = s.funnel_id and p.joined_at >= b.since
      union all
      select r.person_id, r.reached_at, 'stage' from stage_reaches r
       where s.join_on->>'on' = 'stage' and r.funnel_id = s.funnel_id and r.stage_id = (s.join_on->>'stage_id')::int and r.reached_at >= b.since
      union all
      select pt.person_id, pt.added_at, 'tag' from person_tags pt
       where s.join_on->>'on' = 'tag' and pt.tag_id = (s.join_on->>'tag_id')::int and pt.added_at >= b.since
    ) x
    join people p on p.id = x.person_id and not p.blocked
   where s.enabled_at is not null
     and not exists (select 1 from series_members m where m.series_id = s.id and m.person_id = x.person_id)
   limit ${BATCH}`;

/** Members and their first moments, in one statement: a member already made elsewhere gets nothing twice. */
const JOIN = `
  with m as (
    insert into series_members (series_id, person_id, joined_at, how)
    select * from unnest($1::int[], $2::int[], $3::timestamptz[], $4::text[])
    on conflict do nothing
    returning series_id, person_id
  )
  insert into outbox (funnel_id, person_id, letter_id, series_id, moment, anchor, occurrence, not_before, priority, followed)
  select r.funnel_id, r.person_id, r.letter_id, r.series_id, r.moment, r.anchor, 1, r.moment, ${LETTER_PRIORITY}, not r.repeats
    from unnest($5::int[], $6::int[], $7::int[], $8::int[], $9::timestamptz[], $10::timestamptz[], $11::bool[])
      as r(funnel_id, person_id, letter_id, series_id, moment, anchor, repeats)
    join m on m.series_id = r.series_id and m.person_id = r.person_id
  on conflict do nothing`;

/**
 * Members who reached the series' leaving stage or got its leaving tag after joining leave; their
 * waiting letters are cancelled. Found from the leaving side, each by its index: `since` looks at
 * what happened from $1 on, in every series; `whole` at everything in the series $1 (null: all
 * series, and the members who blocked the bot too). `offset 0` keeps each series' look apart.
 */
function leaveSql(look: 'since' | 'whole'): string {
  const from = (time: string) => (look === 'since' ? `and ${time} >= $1::timestamptz` : '');
  const series = look === 'since' ? '' : 'and ($1::int[] is null or s.id = any($1::int[]))';
  const blocked =
    look === 'since'
      ? ''
      : `select sm.series_id, sm.person_id
           from people p join series_members sm on sm.person_id = p.id
          where $1::int[] is null and p.blocked and sm.left_at is null
         union`;
  return `
  with leaving as (
    ${blocked}
    select sm.series_id, sm.person_id
      from letter_series s
      cross join lateral (
        select r.person_id, r.reached_at as at from stage_reaches r
         where r.funnel_id = s.funnel_id and r.stage_id = (s.leave_on->>'stage_id')::int ${from('r.reached_at')}
        offset 0
      ) x
      join series_members sm on sm.series_id = s.id and sm.person_id = x.person_id
     where s.leave_on->>'stage_id' is not null ${series} and sm.left_at is null and x.at >= sm.joined_at
    union
    select sm.series_id, sm.person_id
      from letter_series s
      cross join lateral (
        select pt.person_id, pt.added_at as at from person_tags pt
         where pt.tag_id = (s.leave_on->>'tag_id')::int ${from('pt.added_at')}
        offset 0
      ) x
      join series_members sm on sm.series_id = s.id and sm.person_id = x.person_id
     where s.leave_on->>'tag_id' is not null ${series} and sm.left_at is null and x.at >= sm.joined_at
  ), gone as (
    update series_members m set left_at = now()
      from leaving l
     where m.series_id = l.series_id and m.person_id = l.person_id and m.left_at is null
    returning m.series_id, m.person_id
  )
  update outbox o set state = 'cancelled', updated_at = now()
    from gone where o.series_id = gone.series_id and o.person_id = gone.person_id and o.state = 'waiting'`;
}
const LEAVE_SINCE = leaveSql('since');
const LEAVE_WHOLE = leaveSql('whole');

/**
 * Too late to be welcome (after downtime): skipped, and shown so. Only due rows are looked at, by
 * their index (`offset 0` keeps the planner from guessing a third of the outbox is due).
 */
const SKIP_LATE = `
  update outbox o set state = 'skipped', error = 'late', updated_at = now()
    from (select d.id, d.series_id, d.moment from outbox d
           where d.letter_id is not null and d.state = 'waiting' and d.not_before <= now() offset 0) due
    join letter_series s on s.id = due.series_id
   where o.id = due.id and o.state = 'waiting' and due.moment < now() - make_interval(hours => s.catch_up_hours)`;

/** Of several due at once for one person and series, only the newest goes. */
const SKIP_PILED = `
  update outbox o set state = 'skipped', error = 'piled', updated_at = now()
   where o.id in (
     select id from (
       select id, row_number() over (partition by series_id, person_id order by moment desc) as n
         from outbox where letter_id is not null and state = 'waiting' and not_before <= now()
     ) due where due.n > 1)`;

const DUE_REPEATS = `
  select o.id, o.funnel_id, o.person_id, o.letter_id, o.series_id, o.anchor, o.occurrence, s.time_zone, l.sending_time, l.enabled,
         (m.left_at is null) as member
    from outbox o
    join letters l on l.id = o.letter_id
    join letter_series s on s.id = o.series_id
    left join series_members m on m.series_id = o.series_id and m.person_id = o.person_id
   where o.letter_id is not null and not o.followed and o.moment <= now() + make_interval(secs => $1 / 1000.0)
   limit ${BATCH}`;

/** A repeating letter's next occurrence, made in the statement that marks the current one followed. */
const FOLLOW = `
  with f as (update outbox set followed = true where id = any($1::bigint[]) and not followed returning id)
  insert into outbox (funnel_id, person_id, letter_id, series_id, moment, anchor, occurrence, not_before, priority, followed)
  select r.funnel_id, r.person_id, r.letter_id, r.series_id, r.moment, r.anchor, r.occurrence, r.moment, ${LETTER_PRIORITY}, false
    from unnest($1::bigint[], $2::int[], $3::int[], $4::int[], $5::int[], $6::timestamptz[], $7::timestamptz[], $8::int[])
      as r(prev_id, funnel_id, person_id, letter_id, series_id, moment, anchor, occurrence)
   where r.prev_id in (select id from f) and r.moment is not null
  on conflict do nothing`;

/** What a look at joins and leaves covers: these series whole, the rest since `since` (null: everything whole). */
interface LookScope {
  whole: number[];
  since: Date | null;
}

export class LetterScheduler {
  private lastMembership = 0;
  /** The database's time when the last complete look began (null: none yet). */
  private lookedAt: Date | null = null;
  /** When the look last reached WIDE_MARGIN_MS back (this.clock()). */
  private wideAt = 0;
  /** Each series' rules at the last look: one whose rules changed is looked at whole. */
  private seen = new Map<number, string>();

  constructor(
    private readonly db: Db,
    private readonly clock: () => number = () => Date.now(),
  ) {}

  /** One pass: joins, leaves, follow-ups, and the downtime rules. */
  async tick(): Promise<void> {
    if (this.clock() - this.lastMembership >= MEMBERSHIP_INTERVAL_MS) {
      this.lastMembership = this.clock();
      await this.memberships();
    }
    await this.follow();
    await this.db.query(SKIP_LATE);
    await this.db.query(SKIP_PILED);
  }

  /**
   * Who joins and who leaves, now (tick() does it once a second): what happened since the previous
   * look (an hour back once a minute), the series not seen before (or changed) whole, and
   * everything whole at the first look.
   */
  async memberships(): Promise<void> {
    const [{ now }] = await this.db.query<{ now: Date }>('select now() as now');
    const series = await this.db.query<{ id: number; rules: string }>(`select id, concat_ws('|', enabled_at, join_on, leave_on) as rules from letter_series`);
    const wide = this.clock() - this.wideAt >= WIDE_LOOK_MS;
    const scope: LookScope = {
      whole: series.filter((x) => this.seen.get(x.id) !== x.rules).map((x) => x.id),
      since: this.lookedAt === null ? null : new Date(this.lookedAt.getTime() - (wide ? WIDE_MARGIN_MS : SINCE_MARGIN_MS)),
    };
    const joined = await this.joins(scope);
    if (scope.since === null) await this.db.query(LEAVE_WHOLE, [null]);
    else {
      if (scope.whole.length > 0) await this.db.query(LEAVE_WHOLE, [scope.whole]);
      await this.db.query(LEAVE_SINCE, [scope.since]);
    }
    // A look cut short by its batch is made again from the same point.
    if (joined >= BATCH) return;
    this.lookedAt = new Date(now);
    this.seen = new Map(series.map((x) => [x.id, x.rules]));
    if (wide) this.wideAt = this.clock();
  }

  /** People who met a series' joining rule since it was turned on (or in the scope) become members, with their first moments. */
  async joins(scope: LookScope = { whole: [], since: null }): Promise<number> {
    const candidates = await this.db.query<Candidate>(JOIN_CANDIDATES, [scope.whole, scope.since]);
    if (candidates.length === 0) return 0;
    return this.addMembers(candidates);
  }

  /** Makes members (by hand, or found by joins()) with their first moments. */
  async addMembers(candidates: Candidate[]): Promise<number> {
    const seriesIds = [...new Set(candidates.map((c) => c.series_id))];
    const list = await this.db.query<SeriesLetter>('select id, series_id, position, sending_time, enabled from letters where series_id = any($1::int[])', [seriesIds]);
    const rows: Array<[number, number, number, number, Date, Date, boolean]> = [];
    for (const c of candidates) {
      const joinedAt = new Date(c.joined_at);
      for (const m of firstMoments(list.filter((l) => l.series_id === c.series_id), joinedAt, c.time_zone)) {
        rows.push([c.funnel_id, c.person_id, m.letterId, c.series_id, m.moment, m.anchor, m.repeats]);
      }
    }
    const col = <T>(i: number) => rows.map((r) => r[i] as T);
    await this.db.query(JOIN, [
      candidates.map((c) => c.series_id),
      candidates.map((c) => c.person_id),
      candidates.map((c) => new Date(c.joined_at)),
      candidates.map((c) => c.how),
      col<number>(0),
      col<number>(1),
      col<number>(2),
      col<number>(3),
      col<Date>(4),
      col<Date>(5),
      col<boolean>(6),
    ]);
    return candidates.length;
  }

  /** For each repeating letter's occurrence falling due: the next one after now (missed ones are not made). */
  async follow(): Promise<void> {
    const due = await this.db.query<{
      id: number;
      funnel_id: number;
      person_id: number;
      letter_id: number;
      series_id: number;
      anchor: Date;
      occurrence: number;
      time_zone: string;
      sending_time: LetterSendingTime | null;
      enabled: boolean;
      member: boolean;
    }>(DUE_REPEATS, [LOOKAHEAD_MS]);
    if (due.length === 0) return;
    const now = this.clock();
    const next = due.map((row) => {
      if (!row.member || !row.enabled || !row.sending_time || row.sending_time.kind !== 'every') return { row, moment: null, occurrence: row.occurrence };
      const anchor = new Date(row.anchor);
      let k = row.occurrence + 1;
      let moment = momentAfter(row.sending_time, anchor, row.time_zone, k);
      // After downtime, the occurrences missed meanwhile are not made: the next is in the future.
      for (let guard = 0; moment.getTime() <= now && guard < 100_000; guard++) moment = momentAfter(row.sending_time, anchor, row.time_zone, ++k);
      return { row, moment, occurrence: k };
    });
    await this.db.query(FOLLOW, [
      next.map((n) => n.row.id),
      next.map((n) => n.row.funnel_id),
      next.map((n) => n.row.person_id),
      next.map((n) => n.row.letter_id),
      next.map((n) => n.row.series_id),
      next.map((n) => n.moment),
      next.map((n) => new Date(n.row.anchor)),
      next.map((n) => n.occurrence),
    ]);
  }
}
