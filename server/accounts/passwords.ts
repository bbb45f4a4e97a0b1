// Password hashing with node:crypto scrypt. The stored string carries its own parameters,
// so they can be raised later without breaking existing accounts:
//   scrypt$<N>$<r>$<p>$<salt base64>$<hash base64>
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

export interface ScryptParams {
  N: number;
  r: number;
  p: number;
}

/** Django's ScryptPasswordHasher parameters (16 MiB, about 40 ms on one core here). */
export const DEFAULT_SCRYPT: ScryptParams = { N: 2 ** 14, r: 8, p: 1 };
const KEY_LENGTH = 32;
const SALT_BYTES = 16;

function scryptAsync(password: string, salt: Buffer, params: ScryptParams): Promise<Buffer> {
  const options: ScryptOptions = { ...params, maxmem: 256 * params.N * params.r + 1024 * 1024 };
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, options, (err, key) => (err ? reject(err) : resolve(key)));
  });
}

export async function hashPassword(password: string, params: ScryptParams = DEFAULT_SCRYPT): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const hash = await scryptAsync(password, salt, params);
  return ['scrypt', params.N, params.r, params.p, salt.toString('base64'), hash.toString('base64')].join('$');
}

function parse(stored: string): { params: ScryptParams; salt: Buffer; hash: Buffer } | null {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return null;
  const [N, r, p] = parts.slice(1, 4).map(Number);
  const validN = Number.isInteger(N) && N >= 2 && N <= 2 ** 20 && (N & (N - 1)) === 0;
  if (!validN || !Number.isInteger(r) || r < 1 || r > 32 || !Number.isInteger(p) || p < 1 || p > 16) return null;
  const salt = Buffer.from(parts[4], 'base64');
  const hash = Buffer.from(parts[5], 'base64');
  if (salt.length === 0 || hash.length === 0) return null;
  return { params: { N, r, p }, salt, hash };
}

let dummyHash: Promise<string> | null = null;

/**
 * Constant-time check of a password against a stored hash. A null hash (no usable password)
 * still costs one scrypt run, so an unknown account answers as slowly as a known one.
 */
export async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
  const parsed = stored ? parse(stored) : null;
  if (!parsed) {
    dummyHash ??= hashPassword('not the password');
    const dummy = parse(await dummyHash)!;
    await scryptAsync(password, dummy.salt, dummy.params);
    return false;
  }
  const candidate = await scryptAsync(password, parsed.salt, parsed.params);
  return candidate.length === parsed.hash.length && timingSafeEqual(candidate, parsed.hash);
}
