// The partner's figures: clicks → sign-ups → paying → revenue (and the commission), per link and
// per UTC day, read from the clicks, the attributions and the ledger's lines of referred payments.
import type { Money, PartnerDay, PartnerTotals } from '../../contract/partner';
import type { Db } from '../db';

export interface LinkRef {
  id: number;
  uid: string;
  label: string | null;
  isDefault: boolean;
  createdAt: string;
}

const DAY_MS = 86_400_000;

/** Sums per currency, in a stable order. */
class MoneyBag {
  private readonly sums = new Map<string, number>();
  add(currency: string, amount: number) {
    this.sums.set(currency, (this.sums.get(currency) ?? 0) + amount);
  }
  list(): Money[] {
    return [...this.sums.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([currency, amount]) => ({ currency, amount }));
  }
}

interface Counts {
  clicks: number;
  signups: number;
  paying: number;
  revenue: MoneyBag;
  commission: MoneyBag;
}
const emptyCounts = (): Counts => ({ clicks: 0, signups: 0, paying: 0, revenue: new MoneyBag(), commission: new MoneyBag() });
const totalsOf = (counts: Counts): PartnerTotals => ({
  clicks: counts.clicks,
  signups: counts.signups,
  paying: counts.paying,
  revenue: counts.revenue.list(),
  commission: counts.commission.list(),
});

// Revenue counts a referred payment unless it was refunded; the commission is the sum of the
// commission lines and their voids and clawbacks (so a refunded one nets to nothing).
const CLICKS = `select link_id, to_char(created_at at time zone 'UTC', 'YYYY-MM-DD') as day, count(*)::int as n
                  from partner_clicks where link_id = any($1::int[]) and created_at >= $2 group by 1, 2`;
const SIGNUPS = `select link_id, to_char(created_at at time zone 'UTC', 'YYYY-MM-DD') as day, count(*)::int as n
                   from partner_attributions where link_id = any($1::int[]) and created_at >= $2 group by 1, 2`;
const MONEY = `select l.link_id, to_char(l.created_at at time zone 'UTC', 'YYYY-MM-DD') as day, l.currency,
                      coalesce(sum(l.payment_amount) filter (where l.kind = 'commission' and not exists (
                        select 1 from partner_refunded_payments r where r.payment_key = l.payment_key)), 0)::bigint as revenue,
                      coalesce(sum(l.amount), 0)::bigint as commission,
                      count(distinct l.payer_user_id) filter (where l.kind = 'commission')::int as paying
                 from partner_ledger l
                where l.link_id = any($1::int[]) and l.kind in ('commission', 'void', 'clawback') and l.created_at >= $2
                group by 1, 2, 3`;
/** Paying people over a whole period are counted once, however many times they paid. */
const PAYING_BY_LINK = `select link_id, count(distinct payer_user_id)::int as n from partner_ledger
                         where link_id = any($1::int[]) and kind = 'commission' and created_at >= $2 group by 1`;
const PAYING_ALL = `select count(distinct payer_user_id)::int as n from partner_ledger
                     where link_id = any($1::int[]) and kind = 'commission' and created_at >= $2`;

interface DayRow {
  link_id: number;
  day: string;
  n: number;
}
interface MoneyRow {
  link_id: number;
  day: string;
  currency: string;
  revenue: string | number;
  commission: string | number;
  paying: number;
}

export function createPartnerStats(db: Db, now: () => Date) {
  const EPOCH = new Date(0);

  async function read(linkIds: number[], from: Date | null) {
    const since = from ?? EPOCH;
    const [clicks, signups, money] = await Promise.all([
      db.query<DayRow>(CLICKS, [linkIds, since]),
      db.query<DayRow>(SIGNUPS, [linkIds, since]),
      db.query<MoneyRow>(MONEY, [linkIds, since]),
    ]);
    return { clicks, signups, money, since };
  }

  return {
    /** Each link's totals since `from` (null: all time). */
    async totalsByLink(linkIds: number[], from: Date | null): Promise<Map<number, PartnerTotals>> {
      const { clicks, signups, money, since } = await read(linkIds, from);
      const paying = await db.query<{ link_id: number; n: number }>(PAYING_BY_LINK, [linkIds, since]);
      const byLink = new Map<number, Counts>(linkIds.map((id) => [id, emptyCounts()]));
      const of = (id: number) => byLink.get(Number(id))!;
      for (const row of clicks) of(row.link_id).clicks += Number(row.n);
      for (const row of signups) of(row.link_id).signups += Number(row.n);
      for (const row of paying) of(row.link_id).paying = Number(row.n);
      for (const row of money) {
        of(row.link_id).revenue.add(row.currency, Number(row.revenue));
        of(row.link_id).commission.add(row.currency, Number(row.commission));
      }
      return new Map([...byLink.entries()].map(([id, counts]) => [id, totalsOf(counts)]));
    },

    /** The links together: totals since `from` and every UTC day from `from` to today. */
    async series(linkIds: number[], from: Date): Promise<{ totals: PartnerTotals; days: PartnerDay[] }> {
      const { clicks, signups, money } = await read(linkIds, from);
      const [paying] = await db.query<{ n: number }>(PAYING_ALL, [linkIds, from]);
      const days = new Map<string, Counts>();
      const lastDay = now().toISOString().slice(0, 10);
      for (let at = from.getTime(); ; at += DAY_MS) {
        const day = new Date(at).toISOString().slice(0, 10);
        days.set(day, emptyCounts());
        if (day >= lastDay) break;
      }
      const total = emptyCounts();
      // A line dated after today (a clock moved back in a test) still counts in the totals.
      const dayOf = (day: string) => days.get(day) ?? emptyCounts();
      for (const row of clicks) {
        dayOf(row.day).clicks += Number(row.n);
        total.clicks += Number(row.n);
      }
      for (const row of signups) {
        dayOf(row.day).signups += Number(row.n);
        total.signups += Number(row.n);
      }
      for (const row of money) {
        const counts = dayOf(row.day);
        counts.revenue.add(row.currency, Number(row.revenue));
        counts.commission.add(row.currency, Number(row.commission));
        // Distinct per link and currency within a day; across links a person has one link (attribution is once).
        counts.paying += Number(row.paying);
        total.revenue.add(row.currency, Number(row.revenue));
        total.commission.add(row.currency, Number(row.commission));
      }
      total.paying = Number(paying?.n ?? 0);
      return { totals: totalsOf(total), days: [...days.entries()].map(([date, counts]) => ({ date, ...totalsOf(counts) })) };
    },
  };
}
