#!/usr/bin/env node
// `npm run dev:telegram`: `npm run dev` with Telegram played locally; `npm run start:telegram`
// (`--start`): `npm start` the same way. The fake Bot API (scripts/telegram/fake-bot-api.ts) runs
// on FAKE_TELEGRAM_PORT (8081) with a service bot and two demo bots (fixed tokens, so a funnel
// connected to one keeps working across restarts), and keeps its bots and chats in
// DATA_DIR/fake-telegram.json; the server talks to it through TELEGRAM_API_ROOT. Connect a demo
// bot's token in the app, run the funnel, then open http://127.0.0.1:8081/ and play a subscriber.
// Card payments go to a local fake of Stripe (scripts/card/fake-stripe.ts) on FAKE_STRIPE_PORT
// (8082), which sends its signed webhooks to the server; unless STRIPE_SECRET_KEY is set, then the
// server talks to the Stripe it names.
//
// Every child is a plain node process (no npx, no shell in between), and a SIGTERM or SIGINT to
// this process is passed to them and waited for: this process exits only once the fake, the
// server and Vite have.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const production = process.argv.includes('--start');
const fakePort = process.env.FAKE_TELEGRAM_PORT ?? '8081';
const apiRoot = `http://127.0.0.1:${fakePort}`;
const stateFile = path.resolve(root, process.env.DATA_DIR ?? 'data', 'fake-telegram.json');
const appUrl = production ? `http://127.0.0.1:${process.env.PORT ?? '3000'}` : `http://127.0.0.1:${process.env.VITE_PORT ?? '5173'}`;
const fakeStripePort = process.env.FAKE_STRIPE_PORT ?? '8082';
const serverPort = process.env.PORT ?? '3000';
/** Test-mode keys of the fake only (scripts/card/fake-stripe.ts checks the first, signs with the second). */
const FAKE_STRIPE_KEYS = { secretKey: 'sk_test_fake_stripe_dev_telegram_0000000000000', webhookSecret: 'whsec_fake_stripe_dev_telegram_00000000000000' };
const useFakeStripe = !process.env.STRIPE_SECRET_KEY;
const SERVICE_BOT = 'funnels_service_bot=7000000001:AAservice-bot-token-for-local-play_01';
const DEMO_BOTS = ['demo_shop_bot=7000000002:AAdemo-shop-bot-token-for-local-play_02', 'demo_course_bot=7000000003:AAdemo-course-bot-token-for-local-pl_03'];
/** Above `npm run dev`'s own stop timeout (15 s). */
const STOP_TIMEOUT_MS = 20_000;

const children = [];
const exited = [];
function run(args, env = process.env) {
  const child = spawn(process.execPath, args, { stdio: 'inherit', env, cwd: root });
  children.push(child);
  exited.push(new Promise((resolve) => child.once('exit', (code) => resolve(code ?? 0))));
  return child;
}
const running = (child) => child.exitCode === null && child.signalCode === null;

let stopping = false;
async function stop(signal, code = 0) {
  if (stopping) return;
  stopping = true;
  for (const child of children) if (running(child)) child.kill(signal);
  setTimeout(() => {
    for (const child of children) if (running(child)) child.kill('SIGKILL');
    process.exit(1);
  }, STOP_TIMEOUT_MS).unref();
  await Promise.all(exited);
  process.exit(code);
}
process.on('SIGINT', () => stop('SIGINT'));
process.on('SIGTERM', () => stop('SIGTERM'));

const fake = run([
  '--import',
  'tsx',
  'scripts/telegram/fake-bot-api.ts',
  '--port',
  fakePort,
  '--state',
  stateFile,
  ...[SERVICE_BOT, ...DEMO_BOTS].flatMap((bot) => ['--bot', bot]),
]);
exited[0].then((code) => stop('SIGTERM', code || 1));

if (useFakeStripe) {
  run([
    '--import',
    'tsx',
    'scripts/card/fake-stripe.ts',
    '--port',
    fakeStripePort,
    '--webhook',
    `http://127.0.0.1:${serverPort}/api/billing/card/webhook/`,
    '--secret-key',
    FAKE_STRIPE_KEYS.secretKey,
    '--webhook-secret',
    FAKE_STRIPE_KEYS.webhookSecret,
  ]);
  exited[1].then((code) => stop('SIGTERM', code || 1));
}
/** The server's card settings: the fake's, or the real Stripe's from the environment. */
const stripeEnv = useFakeStripe
  ? {
      STRIPE_SECRET_KEY: FAKE_STRIPE_KEYS.secretKey,
      STRIPE_WEBHOOK_SECRET: FAKE_STRIPE_KEYS.webhookSecret,
      STRIPE_API_HOST: '127.0.0.1',
      STRIPE_API_PORT: fakeStripePort,
      STRIPE_API_PROTOCOL: 'http',
    }
  : {};

async function waitForFake() {
  while (!stopping && running(fake)) {
    try {
      if ((await fetch(`${apiRoot}/control/bots`)).ok) return true;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return false;
}

if (await waitForFake()) {
  console.log(`\nDemo bots to connect in the app (paste the token):`);
  for (const bot of DEMO_BOTS) {
    const [username, token] = bot.split('=');
    console.log(`  @${username}  ${token}`);
  }
  console.log(`The app: ${appUrl}/`);
  console.log(`Play a subscriber at ${apiRoot}/`);
  if (useFakeStripe) console.log(`Card payments go to the fake Stripe at http://127.0.0.1:${fakeStripePort}/ (its Pay button pays)`);
  console.log('');

  const server = run(production ? ['--max-semi-space-size=32', 'scripts/start.mjs'] : ['scripts/dev.mjs'], {
    ...process.env,
    ...stripeEnv,
    TELEGRAM_API_ROOT: apiRoot,
    TELEGRAM_BOT_TOKEN: process.env.TELEGRAM_BOT_TOKEN || SERVICE_BOT.split('=')[1],
  });
  // The server (or Vite) ending on its own ends the fake too.
  server.once('exit', (code) => stop('SIGTERM', code ?? 0));
}
