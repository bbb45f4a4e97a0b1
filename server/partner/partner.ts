// The partner programme (issue 23): links, clicks, attribution at sign-up, the commission on each
// referred payment (told by billing through PartnerHooks), the balance as sums of the ledger,
// withdrawals and the admin's decisions on them. Every query of a partner's data names the
// partner in its WHERE: another partner's link or line is simply not found (404).
import { randomBytes } from 'node:crypto';
import type {
  AdminWithdrawal,
  CreateWithdrawalBody,
  PartnerBalances,
  PartnerLink,
  PartnerLinkStats,
  PartnerPeriod,
  PartnerStatistics,
  PartnerTransactionsPage,
  Withdrawal,
  WithdrawalAction,
  WithdrawalState,
} from '../../contract/partner';
import { PARTNER_LINKS_MAX, PARTNER_START_PREFIX, PARTNER_TRANSACTIONS_PAGE_SIZE, REF_COOKIE_DAYS, REF_QUERY_PARAM } from '../../contract/partner';
import type { PartnerConfig } from '../config';
import type { Db } from '../db';
import { isoTime, rawSql } from '../db/raw';
import { conflict, invalidField, notFound } from '../domain-error';
import { PARTNER_ERRORS } from './errors';
import { balanceOf, canonicalEmail, commissionOf, LEDGER_KEYS, lineState, reversalKind } from './ledger';
import { createPartnerStats, type LinkRef } from './stats';

/** What billing tells the partner programme (the PartnerHooks port of server/billing). */
export interface PartnerPaymentEvent {
  payerUserId: number;
  /** The billing ledger's key of the payment: a commission is written once per key. */
  paymentKey: string;
  amount: number;
  currency: string;
  at: Date;
}
export interface PartnerRefundEvent {
  payerUserId: number;
  /** The key of the payment refunded. */
  paymentKey: string | null;
  at: Date;
}

/** A new account as attribution needs it. */
export interface NewAccount {
  id: number;
  email: string | null;
  telegramId: number | null;
}

export interface PartnerDeps {
  db: Db;
  config: { publicUrl: string; partner: PartnerConfig };
  now: () => Date;
}

const UID_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const UID_LENGTH = 10;
/** Letters and digits only, so `tpl_5_ref_<uid>` parses without doubt. */
function newUid(): string {
  const bytes = randomBytes(UID_LENGTH * 2);
  let uid = '';
  // 248 = the largest multiple of 62 below 256: no bias.
  for (const byte of bytes) if (byte < 248 && uid.length < UID_LENGTH) uid += UID_ALPHABET[byte % 62];
  return uid.length === UID_LENGTH ? uid : newUid();
}

/** `ref_<uid>` at the end of a start parameter (`ref_<uid>`, or a template's `tpl_5_ref_<uid>`). */
const START_REF = new RegExp(`(?:^|_)${PARTNER_START_PREFIX}([A-Za-z0-9]{4,32})$`);
export function refFromStartParam(startParam: string | null | undefined): string | null {
  return startParam ? (START_REF.exec(startParam)?.[1] ?? null) : null;
}

/** One advisory-lock space per kind of work, so the partner's locks never meet another area's. */
const WITHDRAWAL_LOCK_SPACE = 0x7061_7274; // 'part'
const PAYMENT_LOCK_SPACE = 0x7061_7279; // 'pary'

const rowsOf = <Row>(result: unknown) => (result as { rows: Row[] }).rows;

interface WithdrawalRow {
  id: number;
  amount: number;
  currency: string;
  method: string;
  state: WithdrawalState;
  requested_at: Date | string;
  approved_at: Date | string | null;
  rejected_at: Date | string | null;
  paid_at: Date | string | null;
}

const withdrawalOf = (row: WithdrawalRow): Withdrawal => ({
  id: Number(row.id),
  amount: Number(row.amount),
  currency: row.currency,
  method: row.method,
  state: row.state,
  requested_at: isoTime(row.requested_at),
  approved_at: row.approved_at === null ? null : isoTime(row.approved_at),
  rejected_at: row.rejected_at === null ? null : isoTime(row.rejected_at),
  paid_at: row.paid_at === null ? null : isoTime(row.paid_at),
});

const WITHDRAWAL_COLUMNS = 'w.id, w.amount, w.currency, w.method, w.state, w.requested_at, w.approved_at, w.rejected_at, w.paid_at';

/** The states an admin's action moves a request from, and to. */
const WITHDRAWAL_TRANSITIONS: Record<WithdrawalAction, { from: WithdrawalState[]; to: WithdrawalState; stamp: string }> = {
  approve: { from: ['requested'], to: 'approved', stamp: 'approved_at' },
  reject: { from: ['requested', 'approved'], to: 'rejected', stamp: 'rejected_at' },
  paid: { from: ['requested', 'approved'], to: 'paid', stamp: 'paid_at' },
};

export function createPartnerService(deps: PartnerDeps) {
  const { db, config, now } = deps;
  const terms = config.partner;
  const stats = createPartnerStats(db, now);
  /** The service bot's @username, learned from getMe when it starts (null: no bot links yet). */
  let serviceBotUsername: string | null = null;

  const minimumOf = (currency: string) => terms.minimumWithdrawal[currency] ?? 1;

  /** The partner's default link, made on first need (two first needs at once make one). */
  async function ensureDefaultLink(userId: number): Promise<void> {
    for (;;) {
      const made = await db.query<{ id: number }>(
        `insert into partner_links (user_id, uid, is_default, created_at) values ($1, $2, true, $3) on conflict do nothing returning id`,
        [userId, newUid(), now()],
      );
      if (made.length > 0) return;
      const existing = await db.query('select 1 from partner_links where user_id = $1 and is_default', [userId]);
      if (existing.length > 0) return;
      // The random uid was taken: try another.
    }
  }

  async function linkRows(userId: number): Promise<LinkRef[]> {
    await ensureDefaultLink(userId);
    const rows = await db.query<{ id: number; uid: string; label: string | null; is_default: boolean; created_at: Date | string }>(
      'select id, uid, label, is_default, created_at from partner_links where user_id = $1 order by is_default desc, created_at, id',
      [userId],
    );
    return rows.map((row) => ({ id: Number(row.id), uid: row.uid, label: row.label, isDefault: row.is_default, createdAt: isoTime(row.created_at) }));
  }

  function linkForms(uid: string) {
    return {
      web_url: `${config.publicUrl}/?${REF_QUERY_PARAM}=${uid}`,
      bot_url: serviceBotUsername ? `https://t.me/${serviceBotUsername}?start=${PARTNER_START_PREFIX}${uid}` : null,
      app_url: serviceBotUsername ? `https://t.me/${serviceBotUsername}?startapp=${PARTNER_START_PREFIX}${uid}` : null,
    };
  }

  async function linksOf(userId: number): Promise<PartnerLink[]> {
    const links = await linkRows(userId);
    const totals = await stats.totalsByLink(links.map((link) => link.id), null);
    return links.map((link) => ({
      uid: link.uid,
      label: link.label,
      is_default: link.isDefault,
      created_at: link.createdAt,
      ...linkForms(link.uid),
      totals: totals.get(link.id)!,
    }));
  }

  /** The link behind a uid, with its partner's identities (for the self-referral rules). */
  async function linkByUid(uid: string) {
    const [row] = await db.query<{ id: number; user_id: number; telegram_id: number | string | null; email: string | null }>(
      `select l.id, l.user_id, u.telegram_id, u.email from partner_links l join users u on u.id = l.user_id where l.uid = $1`,
      [uid],
    );
    return row ? { id: Number(row.id), userId: Number(row.user_id), telegramId: row.telegram_id === null ? null : Number(row.telegram_id), email: row.email } : null;
  }

  async function recordClick(linkId: number, kind: 'web' | 'bot' | 'app'): Promise<void> {
    await db.query('insert into partner_clicks (link_id, kind, created_at) values ($1, $2, $3)', [linkId, kind, now()]);
  }

  const periodStart = (period: PartnerPeriod, firstLinkAt: string): Date => {
    const today = new Date(now().toISOString().slice(0, 10) + 'T00:00:00Z');
    if (period === 'all') return new Date(Math.min(today.getTime(), new Date(firstLinkAt.slice(0, 10) + 'T00:00:00Z').getTime()));
    const days = { '7d': 7, '30d': 30, '90d': 90 }[period];
    return new Date(today.getTime() - (days - 1) * 86_400_000);
  };

  async function withdrawalFor(id: number): Promise<AdminWithdrawal> {
    const [row] = await db.query<WithdrawalRow & { user_id: number; email: string | null; first_name: string; last_name: string; telegram_username: string | null }>(
      `select ${WITHDRAWAL_COLUMNS}, u.id as user_id, u.email, u.first_name, u.last_name, u.telegram_username
         from partner_withdrawals w join users u on u.id = w.user_id where w.id = $1`,
      [id],
    );
    if (!row) throw notFound();
    return adminWithdrawalOf(row);
  }

  const adminWithdrawalOf = (row: WithdrawalRow & { user_id: number; email: string | null; first_name: string; last_name: string; telegram_username: string | null }): AdminWithdrawal => ({
    ...withdrawalOf(row),
    user: {
      id: Number(row.user_id),
      email: row.email,
      name: `${row.first_name} ${row.last_name}`.trim(),
      telegram_username: row.telegram_username,
    },
  });

  return {
    /** Told by the service bot once getMe answers: the bot and Mini App forms need its @username. */
    setServiceBotUsername(username: string | null) {
      serviceBotUsername = username;
    },

    links: linksOf,

    async createLink(userId: number, label: string): Promise<PartnerLink> {
      await ensureDefaultLink(userId);
      for (;;) {
        // The count and the insert in one statement: two requests at once cannot pass the limit together by much.
        const made = await db.query<{ uid: string }>(
          `insert into partner_links (user_id, uid, label, is_default, created_at)
           select $1, $2, $3, false, $4 where (select count(*) from partner_links where user_id = $1) < $5
           on conflict do nothing returning uid`,
          [userId, newUid(), label.trim(), now(), PARTNER_LINKS_MAX],
        );
        if (made.length > 0) return (await linksOf(userId)).find((link) => link.uid === made[0].uid)!;
        const [{ count }] = await db.query<{ count: number }>('select count(*)::int as count from partner_links where user_id = $1', [userId]);
        if (Number(count) >= PARTNER_LINKS_MAX) throw invalidField('label', PARTNER_ERRORS.tooManyLinks);
      }
    },

    /** The uid of the user's default link (a template's shared link carries its publisher's). */
    async defaultUid(userId: number): Promise<string> {
      const links = await linkRows(userId);
      return links.find((link) => link.isDefault)!.uid;
    },

    async linkStats(userId: number, uid: string, period: PartnerPeriod): Promise<PartnerLinkStats> {
      const links = await linkRows(userId);
      const link = links.find((candidate) => candidate.uid === uid);
      if (!link) throw notFound();
      const from = periodStart(period, link.createdAt);
      const { totals, days } = await stats.series([link.id], from);
      return { uid: link.uid, label: link.label, is_default: link.isDefault, period, totals, days };
    },

    async statistics(userId: number, period: PartnerPeriod): Promise<PartnerStatistics> {
      const links = await linkRows(userId);
      const from = periodStart(period, links[0].createdAt);
      const ids = links.map((link) => link.id);
      const { totals, days } = await stats.series(ids, from);
      const byLink = await stats.totalsByLink(ids, from);
      return {
        period,
        totals,
        days,
        links: links.map((link) => ({ uid: link.uid, label: link.label, is_default: link.isDefault, totals: byLink.get(link.id)! })),
      };
    },

    async balance(userId: number): Promise<PartnerBalances> {
      const rows = await db.query<{ currency: string; available: string | number; pending: string | number }>(
        `select currency,
                coalesce(sum(amount) filter (where available_at <= $2), 0)::bigint as available,
                coalesce(sum(amount) filter (where available_at > $2), 0)::bigint as pending
           from partner_ledger where user_id = $1 group by currency order by currency`,
        [userId, now()],
      );
      return {
        balances: rows.map((row) => ({
          currency: row.currency,
          ...balanceOf(Number(row.available), Number(row.pending)),
          minimum_withdrawal: minimumOf(row.currency),
        })),
        commission_percent: terms.commissionPercent,
        hold_days: Math.round(terms.holdSeconds / 86_400),
        hold_seconds: terms.holdSeconds,
        minimum_withdrawal: Object.entries(terms.minimumWithdrawal).map(([currency, amount]) => ({ currency, amount })),
      };
    },

    async transactions(userId: number, page: number): Promise<PartnerTransactionsPage> {
      const rows = await db.query<{
        id: number;
        created_at: Date | string;
        kind: PartnerLedgerRowKind;
        amount: number;
        currency: string;
        available_at: Date | string;
        withdrawal_id: number | null;
        voided: boolean;
        total: number;
      }>(
        `select l.id, l.created_at, l.kind, l.amount, l.currency, l.available_at, l.withdrawal_id,
                (l.kind = 'commission' and exists (select 1 from partner_ledger v where v.key = 'reversal:' || l.payment_key and v.kind = 'void')) as voided,
                count(*) over ()::int as total
           from partner_ledger l where l.user_id = $1
          order by l.created_at desc, l.id desc limit $2 offset $3`,
        [userId, PARTNER_TRANSACTIONS_PAGE_SIZE, (Math.max(page, 1) - 1) * PARTNER_TRANSACTIONS_PAGE_SIZE],
      );
      let count = rows.length > 0 ? Number(rows[0].total) : 0;
      if (rows.length === 0 && page > 1) {
        const [row] = await db.query<{ total: number }>('select count(*)::int as total from partner_ledger where user_id = $1', [userId]);
        count = Number(row.total);
      }
      const at = now();
      return {
        count,
        results: rows.map((row) => ({
          id: Number(row.id),
          date: isoTime(row.created_at),
          kind: row.kind,
          amount: Number(row.amount),
          currency: row.currency,
          available_at: isoTime(row.available_at),
          state: lineState({ kind: row.kind, availableAt: new Date(row.available_at), voided: row.voided }, at),
          withdrawal_id: row.withdrawal_id === null ? null : Number(row.withdrawal_id),
        })),
      };
    },

    async withdrawals(userId: number): Promise<Withdrawal[]> {
      const rows = await db.query<WithdrawalRow>(`select ${WITHDRAWAL_COLUMNS} from partner_withdrawals w where w.user_id = $1 order by w.requested_at desc, w.id desc`, [userId]);
      return rows.map(withdrawalOf);
    },

    /**
     * A withdrawal holds its amount at once (a negative line). The available sum is read and the
     * line written under a lock per partner, so two requests at once cannot both spend it.
     */
    async requestWithdrawal(userId: number, body: CreateWithdrawalBody): Promise<Withdrawal> {
      const currency = body.currency;
      const minimum = minimumOf(currency);
      if (body.amount < minimum) throw invalidField('amount', PARTNER_ERRORS.belowMinimum(minimum, currency));
      const at = now();
      return db.orm.transaction(async (tx) => {
        await tx.execute(rawSql('select pg_advisory_xact_lock($1, $2)', [WITHDRAWAL_LOCK_SPACE, userId]));
        const [sum] = rowsOf<{ available: string | number }>(
          await tx.execute(
            rawSql('select coalesce(sum(amount), 0)::bigint as available from partner_ledger where user_id = $1 and currency = $2 and available_at <= $3', [userId, currency, at]),
          ),
        );
        const available = Number(sum.available);
        if (body.amount > available) throw invalidField('amount', PARTNER_ERRORS.aboveAvailable(Math.max(0, available)));
        const [row] = rowsOf<WithdrawalRow>(
          await tx.execute(
            rawSql(
              `insert into partner_withdrawals as w (user_id, amount, currency, method, state, requested_at) values ($1, $2, $3, $4, 'requested', $5)
               returning ${WITHDRAWAL_COLUMNS}`,
              [userId, body.amount, currency, body.method.trim(), at],
            ),
          ),
        );
        await tx.execute(
          rawSql(
            `insert into partner_ledger (user_id, key, kind, amount, currency, available_at, created_at, withdrawal_id) values ($1, $2, 'withdrawal', $3, $4, $5, $5, $6)`,
            [userId, LEDGER_KEYS.withdrawal(Number(row.id)), -body.amount, currency, at, row.id],
          ),
        );
        return withdrawalOf(row);
      });
    },

    /** A web click reported by the app (an unknown uid is ignored: nothing to learn from the answer). */
    async recordWebClick(uid: string): Promise<void> {
      const link = await linkByUid(uid);
      if (link) await recordClick(link.id, 'web');
    },

    /**
     * `/start ref_<uid>` in the service bot: a bot click, and, for a Telegram user with no account
     * yet, a pending referral that "Start here" binds later (the first one is kept). The partner's
     * own Telegram account neither clicks nor refers.
     */
    async recordBotStart(telegramId: number, startPayload: string): Promise<void> {
      const uid = refFromStartParam(startPayload);
      const link = uid ? await linkByUid(uid) : null;
      if (!link || link.telegramId === telegramId) return;
      await recordClick(link.id, 'bot');
      await db.query(
        `insert into partner_pending_referrals (telegram_id, link_id, created_at)
         select $1, $2, $3 where not exists (select 1 from users where telegram_id = $1)
         on conflict (telegram_id) do nothing`,
        [telegramId, link.id, now()],
      );
    },

    /**
     * Binds a new account to the link that brought it, for good (first touch: a pending referral
     * of its Telegram id from the service bot, else the cookie or start parameter it signed up with). Called only right
     * after the account was made: an existing account is never attributed. Nobody refers
     * themselves: not the partner's account, nor one with the partner's Telegram id or e-mail.
     * `appClick`: the sign-up came through a Mini App link (its click is recorded now).
     */
    async attributeSignup(account: NewAccount, ref: { uid: string | null; appClick?: boolean }): Promise<boolean> {
      const given = ref.uid ? await linkByUid(ref.uid) : null;
      if (given && ref.appClick) await recordClick(given.id, 'app');
      // A referral the service bot saw earlier (/start ref_…) came first: it wins over today's link.
      let link = given;
      if (account.telegramId !== null) {
        const [pending] = await db.query<{ uid: string }>(
          `select l.uid from partner_pending_referrals p join partner_links l on l.id = p.link_id
            where p.telegram_id = $1 and p.created_at > $2`,
          [account.telegramId, new Date(now().getTime() - REF_COOKIE_DAYS * 86_400_000)],
        );
        if (pending) link = await linkByUid(pending.uid);
      }
      if (!link) return false;
      const self =
        link.userId === account.id ||
        (account.telegramId !== null && link.telegramId === account.telegramId) ||
        (account.email !== null && link.email !== null && canonicalEmail(account.email) === canonicalEmail(link.email));
      if (self) return false;
      const made = await db.query(
        `insert into partner_attributions (user_id, link_id, created_at) values ($1, $2, $3) on conflict (user_id) do nothing returning user_id`,
        [account.id, link.id, now()],
      );
      return made.length > 0;
    },

    /**
     * A referred payment (a first payment or a renewal): its commission, pending until the hold
     * ends. Once per payment key; nothing for a payer nobody referred, or a payment already refunded.
     */
    async onPayment(event: PartnerPaymentEvent): Promise<void> {
      const commission = commissionOf(event.amount, terms.commissionPercent);
      await db.orm.transaction(async (tx) => {
        await tx.execute(rawSql('select pg_advisory_xact_lock($1, hashtext($2))', [PAYMENT_LOCK_SPACE, event.paymentKey]));
        await tx.execute(
          rawSql(
            `insert into partner_ledger (user_id, key, kind, amount, currency, available_at, created_at, payment_key, payer_user_id, payment_amount, link_id)
             select l.user_id, $1, 'commission', $2, $3, $4::timestamptz + make_interval(secs => $5), $4, $6, $7, $8, l.id
               from partner_attributions a join partner_links l on l.id = a.link_id
              where a.user_id = $7 and l.user_id <> $7
                and not exists (select 1 from partner_refunded_payments r where r.payment_key = $6)
             on conflict (key) do nothing`,
            [LEDGER_KEYS.commission(event.paymentKey), commission, event.currency, event.at, terms.holdSeconds, event.paymentKey, event.payerUserId, event.amount],
          ),
        );
      });
    },

    /** A refunded payment: its commission is voided within the hold, clawed back after it. Once per payment. */
    async onRefund(event: PartnerRefundEvent): Promise<void> {
      const paymentKey = event.paymentKey;
      if (!paymentKey) return;
      await db.orm.transaction(async (tx) => {
        await tx.execute(rawSql('select pg_advisory_xact_lock($1, hashtext($2))', [PAYMENT_LOCK_SPACE, paymentKey]));
        await tx.execute(rawSql('insert into partner_refunded_payments (payment_key, created_at) values ($1, $2) on conflict do nothing', [paymentKey, event.at]));
        const [commission] = rowsOf<{ user_id: number; amount: number; currency: string; available_at: Date | string; payer_user_id: number; payment_amount: number; link_id: number }>(
          await tx.execute(
            rawSql('select user_id, amount, currency, available_at, payer_user_id, payment_amount, link_id from partner_ledger where key = $1', [LEDGER_KEYS.commission(paymentKey)]),
          ),
        );
        if (!commission) return;
        const availableAt = new Date(commission.available_at);
        const kind = reversalKind(event.at, availableAt);
        await tx.execute(
          rawSql(
            `insert into partner_ledger (user_id, key, kind, amount, currency, available_at, created_at, payment_key, payer_user_id, payment_amount, link_id)
             values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) on conflict (key) do nothing`,
            [
              commission.user_id,
              LEDGER_KEYS.reversal(paymentKey),
              kind,
              -Number(commission.amount),
              commission.currency,
              kind === 'void' ? availableAt : event.at,
              event.at,
              paymentKey,
              commission.payer_user_id,
              commission.payment_amount,
              commission.link_id,
            ],
          ),
        );
      });
    },

    async adminWithdrawals(state: WithdrawalState | undefined): Promise<AdminWithdrawal[]> {
      const rows = await db.query<WithdrawalRow & { user_id: number; email: string | null; first_name: string; last_name: string; telegram_username: string | null }>(
        `select ${WITHDRAWAL_COLUMNS}, u.id as user_id, u.email, u.first_name, u.last_name, u.telegram_username
           from partner_withdrawals w join users u on u.id = w.user_id
          where ($1::text is null or w.state = $1) order by w.requested_at, w.id limit 500`,
        [state ?? null],
      );
      return rows.map(adminWithdrawalOf);
    },

    /** approve, reject (the held amount returns to the balance) or paid; one state change, checked in its WHERE. */
    async actOnWithdrawal(id: number, action: WithdrawalAction): Promise<AdminWithdrawal> {
      const transition = WITHDRAWAL_TRANSITIONS[action];
      const at = now();
      const moved = await db.orm.transaction(async (tx) => {
        const [row] = rowsOf<{ id: number; user_id: number; amount: number; currency: string }>(
          await tx.execute(
            rawSql(
              `update partner_withdrawals set state = $2, ${transition.stamp} = $3 where id = $1 and state = any($4::text[]) returning id, user_id, amount, currency`,
              [id, transition.to, at, transition.from],
            ),
          ),
        );
        if (!row) return false;
        if (action === 'reject') {
          await tx.execute(
            rawSql(
              `insert into partner_ledger (user_id, key, kind, amount, currency, available_at, created_at, withdrawal_id) values ($1, $2, 'withdrawal_returned', $3, $4, $5, $5, $6)
               on conflict (key) do nothing`,
              [row.user_id, LEDGER_KEYS.withdrawalReturned(id), Number(row.amount), row.currency, at, id],
            ),
          );
        }
        return true;
      });
      const withdrawal = await withdrawalFor(id);
      if (!moved) throw conflict(PARTNER_ERRORS.withdrawalState);
      return withdrawal;
    },
  };
}

type PartnerLedgerRowKind = 'commission' | 'void' | 'clawback' | 'withdrawal' | 'withdrawal_returned';

export type PartnerService = ReturnType<typeof createPartnerService>;
