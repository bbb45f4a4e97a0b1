// Django's four default password validators, with Django's wording, so the answers match a
// Djoser backend: minimum length, not entirely numeric, not a common password, and not too
// similar to the user's own e-mail or names.
import { readFileSync } from 'node:fs';
import { PASSWORD_MIN_LENGTH } from '../../contract/constants';

const COMMON_PASSWORDS_FILE = new URL('./common-passwords.txt', import.meta.url);
let commonPasswords: Set<string> | null = null;

function isCommon(password: string): boolean {
  commonPasswords ??= new Set(
    readFileSync(COMMON_PASSWORDS_FILE, 'utf8')
      .split('\n')
      .map((line) => line.trim())
      .filter(Boolean),
  );
  return commonPasswords.has(password.toLowerCase().trim());
}

export interface UserAttributes {
  email?: string | null;
  first_name?: string | null;
  last_name?: string | null;
}

/** Django's UserAttributeSimilarityValidator threshold. */
const MAX_SIMILARITY = 0.7;
const ATTRIBUTE_NAMES: Record<keyof UserAttributes, string> = {
  email: 'email',
  first_name: 'first name',
  last_name: 'last name',
};

/** Python's difflib.SequenceMatcher.quick_ratio(): an upper bound on similarity from shared characters. */
function quickRatio(a: string, b: string): number {
  const total = a.length + b.length;
  if (total === 0) return 1;
  const counts = new Map<string, number>();
  for (const ch of b) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let matches = 0;
  for (const ch of a) {
    const left = counts.get(ch) ?? 0;
    if (left > 0) {
      matches++;
      counts.set(ch, left - 1);
    }
  }
  return (2 * matches) / total;
}

/** Django skips attribute parts far shorter than the password (they cannot make it weak). */
function exceedsMaximumLengthRatio(password: string, value: string): boolean {
  const lengthBoundSimilarity = (MAX_SIMILARITY / 2) * password.length;
  return password.length >= 10 * value.length && value.length < lengthBoundSimilarity;
}

function tooSimilarTo(password: string, user: UserAttributes): string | null {
  const lower = password.toLowerCase();
  for (const key of Object.keys(ATTRIBUTE_NAMES) as (keyof UserAttributes)[]) {
    const value = user[key];
    if (!value) continue;
    const valueLower = value.toLowerCase();
    const parts = [...valueLower.split(/[^\p{L}\p{N}_]+/u), valueLower];
    for (const part of parts) {
      if (exceedsMaximumLengthRatio(lower, part)) continue;
      if (quickRatio(lower, part) >= MAX_SIMILARITY) return ATTRIBUTE_NAMES[key];
    }
  }
  return null;
}

/** Every message that applies, in Django's validator order; empty when the password is acceptable. */
export function validatePassword(password: string, user: UserAttributes = {}): string[] {
  const errors: string[] = [];
  const similar = tooSimilarTo(password, user);
  if (similar) errors.push(`The password is too similar to the ${similar}.`);
  if (password.length < PASSWORD_MIN_LENGTH) {
    errors.push(`This password is too short. It must contain at least ${PASSWORD_MIN_LENGTH} characters.`);
  }
  if (isCommon(password)) errors.push('This password is too common.');
  if (/^\d+$/.test(password)) errors.push('This password is entirely numeric.');
  return errors;
}
