// Signs Telegram Mini App init data the way Telegram does, for tests, e2e and local play.
// https://core.telegram.org/bots/webapps#validating-data-received-via-the-mini-app
import { createHmac } from 'node:crypto';

export interface InitDataUser {
  id: number;
  first_name: string;
  last_name?: string;
  username?: string;
  language_code?: string;
  photo_url?: string;
}

export interface SignOptions {
  botToken: string;
  user: InitDataUser;
  /** Unix seconds; defaults to now. */
  authDate?: number;
  queryId?: string;
  /** Any further fields to include and sign. */
  extra?: Record<string, string>;
  /**
   * Telegram's Ed25519 signature for third parties (base64url), which current clients always
   * send and the Mini Apps SDK requires; this server checks `hash`, so a stand-in of the right
   * shape is signed in with the rest.
   */
  signature?: string;
}

const STAND_IN_SIGNATURE = Buffer.alloc(64, 7).toString('base64url');

/** Returns the raw init data string (URL-encoded key=value pairs with a valid hash). */
export function signInitData({ botToken, user, authDate, queryId, extra, signature }: SignOptions): string {
  const fields: Record<string, string> = {
    auth_date: String(authDate ?? Math.floor(Date.now() / 1000)),
    query_id: queryId ?? 'AAHdF6IQAAAAAN0XohDhrOrc',
    signature: signature ?? STAND_IN_SIGNATURE,
    user: JSON.stringify(user),
    ...extra,
  };
  const dataCheckString = Object.keys(fields)
    .sort()
    .map((k) => `${k}=${fields[k]}`)
    .join('\n');
  const secret = createHmac('sha256', 'WebAppData').update(botToken).digest();
  const hash = createHmac('sha256', secret).update(dataCheckString).digest('hex');
  return new URLSearchParams({ ...fields, hash }).toString();
}
