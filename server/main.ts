// The process: config → database → migrations → HTTP (API + built SPA) → service bot → listen
// → every running funnel's bot. Stops cleanly on SIGTERM/SIGINT (bots first: updates being
// handled finish, polling stops).
import { buildApp } from './app';
import { inboxAlertSender } from './bots/inbox-alerts';
import { createOwnerNotices } from './bots/owner-notices';
import { FunnelRuntime } from './bots/runtime/runtime';
import { loadConfig } from './config';
import { grantListedAdmins } from './accounts/roles';
import { startBillingSweeps } from './billing/sweeper';
import { createDb, migrate } from './db';
import { startEmbeddedUpkeep } from './db/upkeep';
import { decryptBotToken, decryptSecret } from './funnels/secret-box';
import { mailingEvents } from './mailings/state';
import { OutboxSender } from './outbox/engine';
import { BotRateLimits } from './telegram/rate-limiter';
import { createMailer } from './mail/mailer';
import { createServices, type ServiceLog } from './services';

const SHUTDOWN_TIMEOUT_MS = 10_000;
/** The signal that ends the process without finishing (the first stops it, a second is npm passing it on). */
const FORCED_EXIT_SIGNALS = 3;

async function main(): Promise<void> {
  // A signal during start-up (a supervisor stopping a server that is still starting) is kept and
  // acted on once everything has started, so the server still stops cleanly instead of dying
  // half-started, with no handler yet.
  // eslint-disable-next-line prefer-const -- assigned once started, read by the signal handler before
  let stop: ((signal: string) => Promise<void>) | undefined;
  let signalled: string | undefined;
  const onSignal = (signal: string) => {
    if (stop) void stop(signal);
    else signalled ??= signal;
  };
  // A stop by process group (systemd's default, `kill -TERM -<pgid>`) signals npm and node at once,
  // and npm then passes its own SIGTERM on: a second signal must not cut the shutdown short, or
  // the messages on the wire are never recorded. The third one ends the process at once.
  let signals = 0;
  const onEverySignal = (signal: string) => {
    signals += 1;
    if (signals === 1) return onSignal(signal);
    if (signals >= FORCED_EXIT_SIGNALS) {
      process.stderr.write(`${signal} again: exiting without finishing.\n`);
      process.exit(1);
    }
    process.stderr.write(`${signal} again: still stopping (once more to exit at once).\n`);
  };
  process.on('SIGTERM', () => onEverySignal('SIGTERM'));
  process.on('SIGINT', () => onEverySignal('SIGINT'));

  const config = loadConfig();
  const db = await createDb(config);
  await migrate(db);
  // ADMIN_EMAILS: accounts already activated with those e-mails are admins from this start on.
  await grantListedAdmins(db, config.adminEmails);
  const mailer = createMailer(config);
  // The API tells the runtime about run/stop/archive/…; the runtime is made once the app's log exists.
  // eslint-disable-next-line prefer-const -- assigned after buildApp, read by its callbacks
  let funnelRuntime: FunnelRuntime | undefined;
  /** Made after the app (it logs through it); the API wakes it when a mailing starts. */
  const engine: { deliveries?: OutboxSender } = {};
  const limits = new BotRateLimits(config.sendRate);
  // The services log through the app's logger (buildApp makes it, with its redaction rules); they
  // log nothing before the app starts (the session cache listens from onReady, tasks run on requests).
  // eslint-disable-next-line prefer-const -- assigned after buildApp, read by the services' log
  let appLog: ServiceLog | undefined;
  const services = createServices({
    config,
    db,
    mailer,
    log: {
      info: (object, message) => appLog?.info(object, message),
      warn: (object, message) => appLog?.warn(object, message),
      error: (object, message) => appLog?.error(object, message),
    },
    funnelRuntime: {
      sync: (funnelId) => funnelRuntime?.sync(funnelId) ?? Promise.resolve(),
      stagesChanged: (funnelId) => funnelRuntime?.stagesChanged(funnelId),
      telegramUnreachableSince: (funnelId) => funnelRuntime?.telegramUnreachableSince(funnelId) ?? null,
    },
    deliveries: { wake: () => engine.deliveries?.wake() },
  });
  const app = await buildApp({
    config,
    db,
    mailer,
    services,
    // Telegram delivers only once a webhook is set, which the runtime does in webhook mode.
    funnelWebhooks: { deliver: (funnelId, update) => funnelRuntime?.deliver(funnelId, update) ?? Promise.resolve('unknown') },
  });
  appLog = app.log;
  // The owner hears of a revoked token and of a mailing that paused itself (service bot, e-mail).
  const ownerNotices = createOwnerNotices({ db, config, mailer, log: app.log.child({ component: 'owner-notices' }) });
  funnelRuntime = new FunnelRuntime({
    db,
    config,
    tokenOf: (funnel) => decryptBotToken(funnel, config),
    log: app.log.child({ component: 'bot-runtime' }),
    alertOwner: inboxAlertSender(config),
    onTokenRevoked: (funnelId) => ownerNotices.tokenRevoked(funnelId),
    limits,
  });
  const deliveries = new OutboxSender({
    db,
    apiRoot: config.telegramApiRoot,
    tokenOf: (funnel) => decryptBotToken(funnel, config),
    log: app.log.child({ component: 'outbox' }),
    limits,
    // The mailing side's rules (start when due, finish, pause), through the engine's port.
    mailings: mailingEvents(db, { onAutoPaused: (mailingId, reason) => ownerNotices.mailingPaused(mailingId, reason) }),
    onRevoked: (funnelId) => funnelRuntime!.tokenRevoked(funnelId),
    webhooks: {
      secretOf: (sealed) => decryptSecret(sealed, config.secretKey),
      allowLocal: config.webhooksAllowLocal,
      onDisabled: (webhookId) => ownerNotices.webhookDisabled(webhookId),
    },
  });
  engine.deliveries = deliveries;

  let serviceBot: { stop(): Promise<void> } | null = null;
  if (config.telegramBotToken) {
    const { startServiceBot } = await import('./bots/service-bot');
    serviceBot = await startServiceBot({ app, config, partner: services.partner, stars: services.stars });
  }

  await app.listen({ host: config.host, port: config.port });
  const address = app.server.address();
  const port = address && typeof address === 'object' ? address.port : config.port;
  const where = config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `embedded PostgreSQL in ${config.dataDir}`;
  const mail = config.smtpUrl ? 'SMTP (SMTP_URL)' : `outbox folder ${config.dataDir}/outbox`;
  process.stdout.write(
    `Listening on http://${config.host}:${port}\nPublic URL: ${config.publicUrl}\nDatabase: ${where}; e-mail: ${mail}\n`,
  );
  await funnelRuntime.start();
  await deliveries.start();
  // The embedded database has no autovacuum: the server vacuums it (server/db/upkeep.ts).
  const upkeep = startEmbeddedUpkeep(db, app.log.child({ component: 'database' }));
  // Every process sweeps; each step claims its rows, so two processes still do each thing once.
  // It runs at the next moment a period ends (and every minute at least), not only once a minute.
  const billingSweeps = startBillingSweeps({ billing: services.billing, now: services.now, log: app.log.child({ component: 'billing' }) });

  let stopping = false;
  stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'stopping');
    const timer = setTimeout(() => {
      process.stderr.write('Shutdown took too long; exiting.\n');
      process.exit(1);
    }, SHUTDOWN_TIMEOUT_MS);
    timer.unref();
    try {
      await billingSweeps.stop();
      await funnelRuntime?.stop();
      await deliveries.stop();
      await serviceBot?.stop();
      await app.close();
      await mailer.close();
      await upkeep.stop();
      await db.close();
      process.exit(0);
    } catch (error) {
      process.stderr.write(`Shutdown failed: ${(error as Error).stack ?? error}\n`);
      process.exit(1);
    }
  };
  if (signalled) await stop(signalled);
}

main().catch((error: unknown) => {
  process.stderr.write(`Could not start: ${(error as Error).stack ?? error}\n`);
  process.exit(1);
});
