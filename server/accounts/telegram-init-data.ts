// Telegram Mini App init data, checked by Telegram's rule:
//   secret = HMAC_SHA256(key = "WebAppData", bot_token)
//   hash   = hex(HMAC_SHA256(secret, data_check_string))
// where data_check_string is every received field but hash, sorted by key, as key=value lines.
// https://core.telegram.org/bots/webapps#validating-data-received-via-the-mini-app
import { createHmac, timingSafeEqual } from 'node:crypto';
import { INIT_DATA_MAX_AGE_S } from '../../contract/constants';

export interface TelegramUser {
  id: number;
  first_name: string;
  last_name?: string;
  username?: string;
  language_code?: string;
  photo_url?: string;
}

export interface ValidInitData {
  user: TelegramUser;
  /** Unix seconds. */
  authDate: number;
}

/** Init data is a few hundred bytes; anything far larger is not from Telegram. */
const MAX_INIT_DATA_LENGTH = 8192;
/** Tolerated clock difference for init data that claims to come from the future. */
const FUTURE_SKEW_S = 60;

/** PostgreSQL text cannot hold NUL; drop it rather than fail on an odd name. */
const clean = (text: string) => text.replaceAll('\u0000', '');

function optionalString(value: unknown, max: number): string | undefined {
  return typeof value === 'string' && value.length <= max ? clean(value) : undefined;
}

function parseUser(json: string): TelegramUser | null {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const record = value as Record<string, unknown>;
  const { id, first_name: firstName } = record;
  if (typeof id !== 'number' || !Number.isSafeInteger(id) || id <= 0) return null;
  if (typeof firstName !== 'string') return null;
  return {
    id,
    first_name: clean(firstName).slice(0, 150),
    last_name: optionalString(record.last_name, 1000)?.slice(0, 150),
    username: optionalString(record.username, 64),
    language_code: optionalString(record.language_code, 35),
    photo_url: optionalString(record.photo_url, 2048),
  };
}

/** The Telegram user the init data vouches for, or null when it is forged, foreign, stale or malformed. */
export function validateInitData(
  raw: string,
  botToken: string,
  now: Date,
  maxAgeS: number = INIT_DATA_MAX_AGE_S,
): ValidInitData | null {
  if (raw.length === 0 || raw.length > MAX_INIT_DATA_LENGTH) return null;
  const fields = new Map<string, string>();
  for (const [key, value] of new URLSearchParams(raw)) {
    if (fields.has(key)) return null;
    fields.set(key, value);
  }
  const hash = fields.get('hash');
  if (!hash || !/^[0-9a-f]{64}$/.test(hash)) return null;
  fields.delete('hash');
  const dataCheckString = [...fields.keys()]
    .sort()
    .map((key) => `${key}=${fields.get(key)}`)
    .join('\n');
  const secret = createHmac('sha256', 'WebAppData').update(botToken).digest();
  const expected = createHmac('sha256', secret).update(dataCheckString).digest();
  if (!timingSafeEqual(expected, Buffer.from(hash, 'hex'))) return null;

  const authDateText = fields.get('auth_date');
  if (!authDateText || !/^\d{1,12}$/.test(authDateText)) return null;
  const authDate = Number(authDateText);
  const nowS = Math.floor(now.getTime() / 1000);
  if (nowS - authDate > maxAgeS || authDate > nowS + FUTURE_SKEW_S) return null;

  const userJson = fields.get('user');
  const user = userJson ? parseUser(userJson) : null;
  return user ? { user, authDate } : null;
}
