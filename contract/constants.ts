// One source of truth for the limits, names and timings that the SPA, the server and the
// tests all rely on. Neither DOM nor Node APIs may be imported here.

/** Cookie that carries the auth token (spec §4, §9). */
export const AUTH_COOKIE = 'auth_token';
export const AUTH_COOKIE_DAYS = 365;
/** Query parameter that may carry a token in the page address (spec §4). */
export const TOKEN_QUERY_PARAM = 'token';

/** Cookie that remembers the interface language (spec §4, §9). */
export const LANGUAGE_COOKIE = 'language';
export const LANGUAGE_COOKIE_DAYS = 30;
export const LANGUAGES = ['en', 'ru'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'en';

/** HTTP clients (spec §7, §9). */
export const AUTH_CLIENT_TIMEOUT_MS = 100_000;
export const PUBLIC_CLIENT_TIMEOUT_MS = 20_000;

/** UI timings (spec §9). */
export const TOP_INFO_MS = 2_000;
export const SPLASH_HIDE_DELAY_MS = 3_000;

/** Authorization header prefixes (spec §6). */
export const TOKEN_PREFIX = 'Token';
export const TELEGRAM_PREFIX = 'TG';

/** Telegram init data older than this is refused. */
export const INIT_DATA_MAX_AGE_S = 24 * 60 * 60;

/** Account rules (Django's validators, product.md). */
export const PASSWORD_MIN_LENGTH = 8;
export const NAME_MAX_LENGTH = 150;
export const EMAIL_MAX_LENGTH = 254;
export const PASSWORD_MAX_LENGTH = 128;

/** Single-use links sent by e-mail expire after these. */
export const ACTIVATION_TOKEN_TTL_S = 3 * 24 * 60 * 60;
export const RESET_TOKEN_TTL_S = 24 * 60 * 60;

/** Rate limits (per window) on the sensitive auth calls, per IP and per e-mail. */
export const RATE_LIMIT_WINDOW_S = 15 * 60;
export const RATE_LIMIT_PER_IP = 30;
export const RATE_LIMIT_PER_EMAIL = 10;

/** Largest JSON body the API accepts. */
export const MAX_BODY_BYTES = 64 * 1024;

/** Contacts tagged or untagged in one call (contract/contacts.ts). */
export const BULK_TAG_MAX = 1000;
