// The process: config → database → migrations → HTTP (API + built SPA) → service bot → listen.
// Stops cleanly on SIGTERM/SIGINT.
import { buildApp } from './app';
import { loadConfig } from './config';
import { createDb, migrate } from './db';
import { createMailer } from './mail/mailer';

const SHUTDOWN_TIMEOUT_MS = 10_000;

async function main(): Promise<void> {
  const config = loadConfig();
  const db = await createDb(config);
  await migrate(db);
  const mailer = createMailer(config);
  const app = await buildApp({ config, db, mailer });

  let serviceBot: { stop(): Promise<void> } | null = null;
  if (config.telegramBotToken) {
    const { startServiceBot } = await import('./bots/service-bot');
    serviceBot = await startServiceBot({ app, config });
  }

  await app.listen({ host: config.host, port: config.port });
  const address = app.server.address();
  const port = address && typeof address === 'object' ? address.port : config.port;
  const where = config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `embedded PostgreSQL in ${config.dataDir}`;
  const mail = config.smtpUrl ? 'SMTP (SMTP_URL)' : `outbox folder ${config.dataDir}/outbox`;
  process.stdout.write(
    `Listening on http://${config.host}:${port}\nPublic URL: ${config.publicUrl}\nDatabase: ${where}; e-mail: ${mail}\n`,
  );

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'stopping');
    const timer = setTimeout(() => {
      process.stderr.write('Shutdown took too long; exiting.\n');
      process.exit(1);
    }, SHUTDOWN_TIMEOUT_MS);
    timer.unref();
    try {
      await serviceBot?.stop();
      await app.close();
      await mailer.close();
      await db.close();
      process.exit(0);
    } catch (error) {
      process.stderr.write(`Shutdown failed: ${(error as Error).stack ?? error}\n`);
      process.exit(1);
    }
  };
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));
}

main().catch((error: unknown) => {
  process.stderr.write(`Could not start: ${(error as Error).stack ?? error}\n`);
  process.exit(1);
});
