import { defineConfig, devices } from '@playwright/test';
import {
  BASE_URL,
  CHROMIUM_ARGS,
  E2E_ADMIN_EMAIL,
  E2E_DATA_DIR,
  E2E_PORT,
  FAKE_STRIPE_PORT,
  FAKE_STRIPE_SECRET_KEY,
  FAKE_STRIPE_URL,
  FAKE_STRIPE_WEBHOOK_SECRET,
  FAKE_TELEGRAM_PORT,
  SERVICE_BOT_TOKEN,
  SERVICE_BOT_USERNAME,
} from './e2e/support/env';

// Drives the built app and the real server (`npm start`, embedded database, e-mail outbox) in
// Debian's Chromium. Telegram is the local fake Bot API server, Stripe the local fake of its API
// (scripts/card/fake-stripe.ts), which sends its signed webhooks to the e2e server.
export default defineConfig({
  testDir: 'e2e',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [['list']] : [['list'], ['html', { open: 'never' }]],
  use: {
    baseURL: BASE_URL,
    ...devices['Pixel 7'],
    browserName: 'chromium',
    launchOptions: { executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS },
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  webServer: [
    {
      command: `npx tsx scripts/telegram/fake-bot-api.ts --port ${FAKE_TELEGRAM_PORT} --bot ${SERVICE_BOT_USERNAME}=${SERVICE_BOT_TOKEN}`,
      url: `http://127.0.0.1:${FAKE_TELEGRAM_PORT}/`,
      reuseExistingServer: false,
      stdout: 'ignore',
    },
    {
      command: `npx tsx scripts/card/fake-stripe.ts --port ${FAKE_STRIPE_PORT} --webhook ${BASE_URL}/api/billing/card/webhook/ --secret-key ${FAKE_STRIPE_SECRET_KEY} --webhook-secret ${FAKE_STRIPE_WEBHOOK_SECRET}`,
      url: `${FAKE_STRIPE_URL}/`,
      reuseExistingServer: false,
      stdout: 'ignore',
    },
    {
      command: `rm -rf ${E2E_DATA_DIR} && node scripts/start.mjs`,
      url: `${BASE_URL}/api/health`,
      reuseExistingServer: false,
      timeout: 120_000,
      stdout: 'pipe',
      env: {
        PORT: String(E2E_PORT),
        HOST: '127.0.0.1',
        DATA_DIR: E2E_DATA_DIR,
        PUBLIC_URL: BASE_URL,
        SKIP_BUILD: '1',
        TELEGRAM_BOT_TOKEN: SERVICE_BOT_TOKEN,
        TELEGRAM_API_ROOT: `http://127.0.0.1:${FAKE_TELEGRAM_PORT}`,
        STRIPE_SECRET_KEY: FAKE_STRIPE_SECRET_KEY,
        STRIPE_WEBHOOK_SECRET: FAKE_STRIPE_WEBHOOK_SECRET,
        STRIPE_API_HOST: '127.0.0.1',
        STRIPE_API_PORT: String(FAKE_STRIPE_PORT),
        STRIPE_API_PROTOCOL: 'http',
        // Every e2e request comes from one address; the limits themselves are tested server-side.
        AUTH_RATE_LIMIT_PER_IP: '1000',
        AUTH_RATE_LIMIT_PER_EMAIL: '100',
        LOG_LEVEL: 'warn',
        // Tests only: POST /api/test/clock/ moves the letters' schedule forward (no waiting hours).
        TEST_CLOCK: '1',
        ADMIN_EMAILS: E2E_ADMIN_EMAIL,
      },
    },
  ],
});
