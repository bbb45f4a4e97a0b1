// npm run bench:billing — Telegram Stars under a burst: 1,000 payments at once across 100 users
// against a started server (server/main.ts in its own process, its service bot polling the fake
// Bot API, which runs here). Each payment is a pre_checkout_query the service bot must answer
// within Telegram's 10 s (goal: p99 under 1 s), then a successful_payment it must record exactly
// once. Prints the pre-checkout answer time p50/p90/p99/max (from the update being queued to the
// answer reaching the fake), the time until every payment was recorded, and checks the ledger:
// one row per charge id, none missing, none twice.
//
// Embedded PGlite in a throw-away DATA_DIR, or a throw-away database on the PostgreSQL server of
// DATABASE_URL. BENCH_PAYMENTS (1000) and BENCH_USERS (100) change the load.
import { rmSync } from 'node:fs';
import pg from 'pg';
import { startFakeBotApi } from '../telegram/fake-bot-api';
import { STARS_SUBSCRIPTION_PERIOD_SECONDS } from '../../contract/billing';
import { starsInvoicePayload } from '../../server/billing/stars';
import { freePort, newDataDir, openDb, startServer, untilHealthy, type ServerData } from '../../server/test/server-process';
import { spread } from './stats';

const PAYMENTS = Number(process.env.BENCH_PAYMENTS ?? 1000);
const USERS = Number(process.env.BENCH_USERS ?? 100);
const PRICE = 250;
const TELEGRAM_ID_BASE = 880_000_000;

const ms = (n: number) => `${n.toFixed(1)} ms`;

/** A throw-away database on DATABASE_URL's server, or none (PGlite in the DATA_DIR). */
async function serverData(): Promise<{ data: ServerData; dropDatabase(): Promise<void> }> {
  const dataDir = newDataDir();
  const base = process.env.DATABASE_URL?.trim();
  if (!base) return { data: { dataDir, databaseUrl: null }, dropDatabase: async () => {} };
  const name = `bench_billing_${process.pid}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`create database "${name}"`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    data: { dataDir, databaseUrl: url.toString() },
    async dropDatabase() {
      const drop = new pg.Client({ connectionString: base });
      await drop.connect();
      await drop.query(`drop database if exists "${name}" with (force)`);
      await drop.end();
    },
  };
}

async function main(): Promise<void> {
  const fake = await startFakeBotApi();
  const { token } = fake.addBot({ username: 'bench_service_bot', first_name: 'Funnels' });
  const { data, dropDatabase } = await serverData();

  // The plan and the payers, written before the server starts (PGlite has one process at a time).
  const seed = await openDb(data);
  const [plan] = await seed.query<{ id: number }>(
    `insert into plans (title, description, is_free, max_running_funnels, max_people, mailings, letters, price_stars, price_card, card_currency, archived, position)
     values ('Pro', 'Everything, for a month', false, null, null, true, true, $1, null, null, false, 1) returning id`,
    [PRICE],
  );
  const users = await seed.query<{ id: number; telegram_id: string }>(
    `insert into users (email, is_active, telegram_id)
     select 'payer' || n || '@bench.test', true, $1::bigint + n from generate_series(1, $2::int) as n
     returning id, telegram_id`,
    [TELEGRAM_ID_BASE, USERS],
  );
  await seed.close();

  const port = await freePort();
  const server = startServer(data, port, fake.url, { TELEGRAM_BOT_TOKEN: token, LOG_LEVEL: 'error' });
  try {
    await untilHealthy(server);
    await fake.waitForBotState(token, (state) => state.polling, { timeoutMs: 30_000 });

    // One invoice per user, as POST /api/billing/stars/invoice/ makes it (the payload is the service's own).
    const links = await Promise.all(
      users.map(async (user) => {
        const response = await fetch(`${fake.url}/bot${token}/createInvoiceLink`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            title: 'Pro',
            description: 'Everything, for a month',
            payload: starsInvoicePayload({ userId: user.id, planId: plan.id, price: PRICE }),
            provider_token: '',
            currency: 'XTR',
            prices: [{ label: 'Pro', amount: PRICE }],
            subscription_period: STARS_SUBSCRIPTION_PERIOD_SECONDS,
          }),
        });
        return { telegramId: Number(user.telegram_id), link: ((await response.json()) as { result: string }).result };
      }),
    );

    console.log(`Stars burst: ${PAYMENTS} payments at once across ${USERS} users (${data.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : 'embedded PGlite'})`);
    const startedAt = performance.now();
    const answerTimes: number[] = [];
    const outcomes = await Promise.all(
      Array.from({ length: PAYMENTS }, async (_, i) => {
        const { telegramId, link } = links[i % links.length];
        const queuedAt = performance.now();
        const outcome = await fake.payInvoice({ link, userId: telegramId });
        answerTimes.push(performance.now() - queuedAt);
        return outcome;
      }),
    );
    const answeredAt = performance.now();
    const paid = outcomes.filter((outcome) => outcome.status === 'paid').map((outcome) => outcome.chargeId!);
    // Every update handled: polling confirms them only once each is recorded.
    await fake.waitForBotState(token, (state) => state.pending_update_count === 0 && state.polling, { timeoutMs: 120_000 });
    const recordedAt = performance.now();

    server.child.kill('SIGTERM');
    await server.exited;
    const check = await openDb(data);
    const ledger = await check.query<{ charge_id: string; n: number }>(
      `select charge_id, count(*)::int as n from billing_events where key like 'stars:charge:%' group by charge_id`,
    );
    await check.close();

    const recorded = new Map(ledger.map((row) => [row.charge_id, row.n]));
    const missing = paid.filter((chargeId) => !recorded.has(chargeId)).length;
    const twice = ledger.filter((row) => row.n > 1).length;
    const unknown = ledger.filter((row) => !paid.includes(row.charge_id)).length;
    const answers = spread(answerTimes);
    console.log(`  pre-checkout answer: p50 ${ms(answers.p50)}, p90 ${ms(answers.p90)}, p99 ${ms(answers.p99)}, max ${ms(answers.max)}`);
    console.log(`  all ${PAYMENTS} answered in ${ms(answeredAt - startedAt)}; all recorded ${ms(recordedAt - startedAt)} after the burst began`);
    console.log(`  paid ${paid.length}/${PAYMENTS}; ledger: ${ledger.length} charges, ${missing} missing, ${twice} twice, ${unknown} not paid`);
    const ok = paid.length === PAYMENTS && missing === 0 && twice === 0 && unknown === 0 && ledger.length === PAYMENTS;
    console.log(ok ? '  OK: every payment recorded exactly once' : '  FAILED: the ledger does not match the payments');
    console.log(answers.p99 < 1000 ? '  OK: p99 under 1 s' : '  over the goal: p99 is 1 s or more');
    if (!ok) process.exitCode = 1;
  } finally {
    if (server.child.exitCode === null) {
      server.child.kill('SIGTERM');
      await server.exited;
    }
    await fake.close();
    await dropDatabase();
    rmSync(data.dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
