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
import { DUE_REPEATS, FOLLOW, JOIN, LEAVE_SINCE, LEAVE_WHOLE, LETTER_BATCH, SKIP_LATE, SKIP_PILED } from './sql';

/** People who joined (or left) a series are looked for this often. */
export const MEMBERSHIP_INTERVAL_MS = 1_000;
/** A look at what happened since the previous one starts this much earlier (late commits, other servers' clocks). */
const SINCE_MARGIN_MS = 60_000;
/** This often the look reaches further back… */
export const WIDE_LOOK_MS = 60_000;
/** …this far (the safety net for what committed later than the margin). */
export const WIDE_MARGIN_MS = 3_600_000;
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
   limit ${LETTER_BATCH}`;







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
    if (joined >= LETTER_BATCH) return;
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
