// Every environment variable the server reads, parsed and defaulted in one place.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  RATE_LIMIT_PER_EMAIL,
  RATE_LIMIT_PER_IP,
  RATE_LIMIT_WINDOW_S,
} from '../contract/constants';
import { DEFAULT_SEND_RATE, TELEGRAM_FREE_RATE } from '../contract/mailings';

export const DEFAULT_TELEGRAM_API_ROOT = 'https://api.telegram.org';

export interface RateLimitConfig {
  windowS: number;
  perIp: number;
  perEmail: number;
}

export interface Config {
  port: number;
  host: string;
  /** Embedded database files, the generated secret key and the e-mail outbox live here. */
  dataDir: string;
  /** Real PostgreSQL when set; the embedded PGlite database under dataDir otherwise. */
  databaseUrl: string | null;
  /** SMTP when set; .eml files in dataDir/outbox otherwise. */
  smtpUrl: string | null;
  mailFrom: string;
  /** Base of links in e-mails, of the Mini App URL and of webhooks; no trailing slash. */
  publicUrl: string;
  /** Signs activation and reset tokens and encrypts secrets at rest. */
  secretKey: string;
  /** The service bot: validates Mini App init data, sets its menu button to the app. */
  telegramBotToken: string | null;
  telegramApiRoot: string;
  sentryDsn: string | null;
  /** Built SPA served by the same process. */
  distDir: string;
  logLevel: string;
  rateLimit: RateLimitConfig;
  /**
   * Behind a load balancer: which X-Forwarded-For hops to believe, so rate limits see the
   * client's address. false (default), true, a hop count, or comma-separated addresses/CIDRs.
   */
  trustProxy: boolean | number | string;
  /** Messages a second each bot sends (SEND_RATE; Telegram's limit is about 30). */
  sendRate: number;
  /**
   * Outgoing webhooks may POST by plain http and to this machine or a private network: a local or
   * test server. WEBHOOKS_ALLOW_LOCAL=1 or 0; by default yes unless PUBLIC_URL is https.
   */
  webhooksAllowLocal: boolean;
  /** TEST_CLOCK=1, in tests only: POST /api/test/clock/ moves the letters' schedule forward. */
  testClock: boolean;
  /** ADMIN_EMAILS: accounts with these e-mails are made admins when activated (and at start). */
  adminEmails: string[];
  partner: PartnerConfig;
  /** Card payments (Stripe); null without STRIPE_SECRET_KEY: card payment is off, the rest works. */
  stripe: StripeConfig | null;
}

/** The partner programme's terms (server/partner/). */
export interface PartnerConfig {
  /** PARTNER_COMMISSION_PERCENT: of each referred payment, renewals included (rounded down). */
  commissionPercent: number;
  /** PARTNER_HOLD_S: a commission is pending this long (the refund window), then available. */
  holdSeconds: number;
  /** PARTNER_MIN_WITHDRAWAL, e.g. "XTR:1000,USD:5000": the least a withdrawal asks for, per currency (minor units). */
  minimumWithdrawal: Record<string, number>;
}

export const DEFAULT_PARTNER_COMMISSION_PERCENT = 30;
export const DEFAULT_PARTNER_HOLD_S = 14 * 24 * 3600;
export const DEFAULT_PARTNER_MIN_WITHDRAWAL: Record<string, number> = { XTR: 1000, USD: 5000, EUR: 5000 };

function minimumWithdrawalFrom(env: Env): Record<string, number> {
  const raw = optional(env, 'PARTNER_MIN_WITHDRAWAL');
  if (raw === null) return { ...DEFAULT_PARTNER_MIN_WITHDRAWAL };
  const minimums: Record<string, number> = {};
  for (const pair of raw.split(/[\s,;]+/).filter(Boolean)) {
    const match = /^([A-Za-z]{3}):(\d+)$/.exec(pair);
    if (!match) throw new Error(`PARTNER_MIN_WITHDRAWAL must look like "XTR:1000,USD:5000", got "${raw}"`);
    minimums[match[1].toUpperCase()] = Number(match[2]);
  }
  return minimums;
}

export interface StripeConfig {
  secretKey: string;
  /** STRIPE_WEBHOOK_SECRET: the endpoint's signing secret (whsec_…), required with the key. */
  webhookSecret: string;
  /** STRIPE_API_HOST/PORT/PROTOCOL: only to point the SDK at a local fake (scripts/card/fake-stripe.ts). */
  api: { host: string; port: number; protocol: 'http' | 'https' } | null;
}

type Env = Record<string, string | undefined>;

function int(env: Env, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a whole number, got "${raw}"`);
  return n;
}

function optional(env: Env, name: string): string | null {
  const v = env[name]?.trim();
  return v ? v : null;
}

/** Reads SECRET_KEY, or the key generated into DATA_DIR on first start (kept across restarts). */
function secretKeyFrom(env: Env, dataDir: string): string {
  const given = optional(env, 'SECRET_KEY');
  if (given) return given;
  const file = path.join(dataDir, 'secret_key');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const key = randomBytes(32).toString('hex');
  writeFileSync(file, key + '\n', { mode: 0o600 });
  return key;
}

function stripeFrom(env: Env): StripeConfig | null {
  const secretKey = optional(env, 'STRIPE_SECRET_KEY');
  if (!secretKey) return null;
  const webhookSecret = optional(env, 'STRIPE_WEBHOOK_SECRET');
  if (!webhookSecret) throw new Error('STRIPE_WEBHOOK_SECRET must be set with STRIPE_SECRET_KEY (the webhook endpoint\'s signing secret, whsec_…)');
  const host = optional(env, 'STRIPE_API_HOST');
  if (!host) return { secretKey, webhookSecret, api: null };
  const protocol = optional(env, 'STRIPE_API_PROTOCOL') ?? 'https';
  if (protocol !== 'http' && protocol !== 'https') throw new Error(`STRIPE_API_PROTOCOL must be http or https, got "${protocol}"`);
  return { secretKey, webhookSecret, api: { host, port: int(env, 'STRIPE_API_PORT', protocol === 'http' ? 80 : 443), protocol } };
}

function trustProxyFrom(env: Env): boolean | number | string {
  const raw = optional(env, 'TRUST_PROXY');
  if (raw === null || raw === 'false' || raw === '0') return false;
  if (raw === 'true') return true;
  if (/^\d+$/.test(raw)) return Number(raw);
  return raw;
}

export function loadConfig(env: Env = process.env): Config {
  const port = int(env, 'PORT', 3000);
  const host = optional(env, 'HOST') ?? '127.0.0.1';
  const dataDir = path.resolve(optional(env, 'DATA_DIR') ?? './data');
  const publicUrl = (optional(env, 'PUBLIC_URL') ?? `http://${host}:${port}`).replace(/\/+$/, '');
  return {
    port,
    host,
    dataDir,
    databaseUrl: optional(env, 'DATABASE_URL'),
    smtpUrl: optional(env, 'SMTP_URL'),
    mailFrom: optional(env, 'MAIL_FROM') ?? 'Funnels <no-reply@localhost>',
    publicUrl,
    secretKey: secretKeyFrom(env, dataDir),
    telegramBotToken: optional(env, 'TELEGRAM_BOT_TOKEN'),
    telegramApiRoot: (optional(env, 'TELEGRAM_API_ROOT') ?? DEFAULT_TELEGRAM_API_ROOT).replace(/\/+$/, ''),
    sentryDsn: optional(env, 'SENTRY_DSN'),
    distDir: path.resolve(optional(env, 'DIST_DIR') ?? './dist'),
    logLevel: optional(env, 'LOG_LEVEL') ?? 'info',
    rateLimit: {
      windowS: int(env, 'AUTH_RATE_LIMIT_WINDOW_S', RATE_LIMIT_WINDOW_S),
      perIp: int(env, 'AUTH_RATE_LIMIT_PER_IP', RATE_LIMIT_PER_IP),
      perEmail: int(env, 'AUTH_RATE_LIMIT_PER_EMAIL', RATE_LIMIT_PER_EMAIL),
    },
    trustProxy: trustProxyFrom(env),
    testClock: env.TEST_CLOCK === '1',
    webhooksAllowLocal: env.WEBHOOKS_ALLOW_LOCAL === '1' || (env.WEBHOOKS_ALLOW_LOCAL !== '0' && !publicUrl.startsWith('https://')),
    adminEmails: (optional(env, 'ADMIN_EMAILS') ?? '')
      .split(/[\s,;]+/)
      .map((email) => email.trim().toLowerCase())
      .filter(Boolean),
    stripe: stripeFrom(env),
    sendRate: Math.min(Math.max(int(env, 'SEND_RATE', DEFAULT_SEND_RATE), 1), TELEGRAM_FREE_RATE),
    partner: {
      commissionPercent: Math.min(int(env, 'PARTNER_COMMISSION_PERCENT', DEFAULT_PARTNER_COMMISSION_PERCENT), 100),
      holdSeconds: int(env, 'PARTNER_HOLD_S', DEFAULT_PARTNER_HOLD_S),
      minimumWithdrawal: minimumWithdrawalFrom(env),
    },
  };
}
