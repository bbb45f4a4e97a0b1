#!/usr/bin/env node
// `npm run dev:telegram`: `npm run dev` with Telegram played locally. The fake Bot API
// (scripts/telegram/fake-bot-api.ts) runs on port 8081 with a service bot and two demo bots
// (fixed tokens, so a funnel connected to one keeps working across restarts); the server talks
// to it through TELEGRAM_API_ROOT. Connect a demo bot's token in the app, run the funnel, then
// open http://127.0.0.1:8081/ and play a subscriber.
import { spawn } from 'node:child_process';

const fakePort = process.env.FAKE_TELEGRAM_PORT ?? '8081';
const apiRoot = `http://127.0.0.1:${fakePort}`;
const SERVICE_BOT = 'funnels_service_bot=7000000001:AAservice-bot-token-for-local-play_01';
const DEMO_BOTS = ['demo_shop_bot=7000000002:AAdemo-shop-bot-token-for-local-play_02', 'demo_course_bot=7000000003:AAdemo-course-bot-token-for-local-pl_03'];

const fake = spawn(
  'npx',
  ['tsx', 'scripts/telegram/fake-bot-api.ts', '--port', fakePort, ...[SERVICE_BOT, ...DEMO_BOTS].flatMap((bot) => ['--bot', bot])],
  { stdio: 'inherit' },
);

async function waitForFake() {
  for (let i = 0; i < 200; i++) {
    try {
      if ((await fetch(`${apiRoot}/control/bots`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`the fake Bot API did not start on ${apiRoot}`);
}

await waitForFake();
console.log(`\nDemo bots to connect in the app (paste the token):`);
for (const bot of DEMO_BOTS) {
  const [username, token] = bot.split('=');
  console.log(`  @${username}  ${token}`);
}
console.log(`Play a subscriber at ${apiRoot}/\n`);

const dev = spawn(process.execPath, ['scripts/dev.mjs'], {
  stdio: 'inherit',
  env: { ...process.env, TELEGRAM_API_ROOT: apiRoot, TELEGRAM_BOT_TOKEN: process.env.TELEGRAM_BOT_TOKEN ?? SERVICE_BOT.split('=')[1] },
});

let stopping = false;
function stop(code = 0) {
  if (stopping) return;
  stopping = true;
  dev.kill('SIGTERM');
  fake.kill('SIGTERM');
  setTimeout(() => process.exit(code), 800).unref();
}
fake.on('exit', (code) => stop(code ?? 0));
dev.on('exit', (code) => stop(code ?? 0));
process.on('SIGINT', () => stop());
process.on('SIGTERM', () => stop());
