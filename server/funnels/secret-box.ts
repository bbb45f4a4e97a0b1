// Bot tokens at rest: AES-256-GCM with a key derived from SECRET_KEY (HKDF-SHA256), so a copy of
// the database alone does not hand out anyone's bot. The sha256 of the token finds "already
// connected" without decrypting, and the hint is all the browser ever sees.
import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';
import type { Config } from '../config';
import type { FunnelRow } from '../db/schema';

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;
const keys = new Map<string, Buffer>();

function keyFor(secretKey: string): Buffer {
  let key = keys.get(secretKey);
  if (!key) {
    key = Buffer.from(hkdfSync('sha256', secretKey, 'funnels', 'bot-token-encryption', 32));
    keys.set(secretKey, key);
  }
  return key;
}

/** "v1:" + base64url(iv | tag | ciphertext). */
export function encryptSecret(plain: string, secretKey: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', keyFor(secretKey), iv);
  const encrypted = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return `${VERSION}:${Buffer.concat([iv, cipher.getAuthTag(), encrypted]).toString('base64url')}`;
}

/** Throws when the text was not made with this key (or was tampered with). */
export function decryptSecret(sealed: string, secretKey: string): string {
  const [version, payload] = sealed.split(':');
  if (version !== VERSION || !payload) throw new Error('Unknown secret format');
  const raw = Buffer.from(payload, 'base64url');
  const iv = raw.subarray(0, IV_BYTES);
  const tag = raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES);
  const decipher = createDecipheriv('aes-256-gcm', keyFor(secretKey), iv);
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
}

export function botTokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** "123456:AA…xyz": the bot id, the first two and the last three characters of the secret. */
export function botTokenHint(token: string): string {
  const [id, secret = ''] = token.split(':');
  return `${id}:${secret.slice(0, 2)}…${secret.slice(-3)}`;
}

/** The funnel's BotFather token, for the bot runtime (a funnel without a bot never runs or sends). */
export function decryptBotToken(funnel: Pick<FunnelRow, 'botTokenEncrypted'>, config: Pick<Config, 'secretKey'>): string {
  if (funnel.botTokenEncrypted === null) throw new Error('This funnel has no bot connected.');
  return decryptSecret(funnel.botTokenEncrypted, config.secretKey);
}
