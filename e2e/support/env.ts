// Where the e2e server runs and what it is configured with; shared by the config and the specs.
import path from 'node:path';

// Overridable so that two checkouts can run their e2e suites side by side.
export const E2E_PORT = Number(process.env.E2E_PORT ?? 3100);
export const FAKE_TELEGRAM_PORT = Number(process.env.E2E_FAKE_TELEGRAM_PORT ?? 8181);
/** The local fake of Stripe (scripts/card/fake-stripe.ts): /sbscrb/ pays by card on its checkout page. */
export const FAKE_STRIPE_PORT = Number(process.env.E2E_FAKE_STRIPE_PORT ?? 8281);
export const FAKE_STRIPE_URL = `http://127.0.0.1:${FAKE_STRIPE_PORT}`;
export const FAKE_STRIPE_SECRET_KEY = 'sk_test_fake_stripe_e2e_00000000000000000000000';
export const FAKE_STRIPE_WEBHOOK_SECRET = 'whsec_fake_stripe_e2e_0000000000000000000000000';
export const BASE_URL = `http://127.0.0.1:${E2E_PORT}`;
export const E2E_DATA_DIR = path.resolve('.tmp/e2e-data');
export const OUTBOX_DIR = path.join(E2E_DATA_DIR, 'outbox');
/** The service bot's token: the server checks Mini App init data with it. */
export const SERVICE_BOT_TOKEN = '123456789:AAE2e-service-bot-token_for_tests00';
export const SERVICE_BOT_USERNAME = 'funnels_e2e_bot';

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** ADMIN_EMAILS of the e2e server: this account is an admin once activated. */
export const E2E_ADMIN_EMAIL = 'e2e.admin@example.com';
