// The account primitives on their own: password hashing and rules, e-mail link tokens, uids,
// and Telegram init data.
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signInitData } from '../../scripts/telegram/init-data';
import { validatePassword } from './password-validators';
import { hashPassword, verifyPassword } from './passwords';
import { validateInitData } from './telegram-init-data';
import { checkLinkToken, decodeUid, encodeUid, makeLinkToken, type LinkTokenUser } from './tokens';

describe('password hashing (scrypt)', () => {
  it('stores salted hashes with their parameters and verifies only the right password', async () => {
    const a = await hashPassword('Sunny-meadow-42');
    const b = await hashPassword('Sunny-meadow-42');
    expect(a).toMatch(/^scrypt\$16384\$8\$1\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/);
    expect(a).not.toBe(b); // a fresh salt each time
    expect(a).not.toContain('Sunny');
    expect(await verifyPassword('Sunny-meadow-42', a)).toBe(true);
    expect(await verifyPassword('Sunny-meadow-43', a)).toBe(false);
    expect(await verifyPassword('', a)).toBe(false);
  });

  it('honours the parameters written in the stored string', async () => {
    const cheap = await hashPassword('pass-word-1', { N: 1024, r: 8, p: 1 });
    expect(cheap.startsWith('scrypt$1024$8$1$')).toBe(true);
    expect(await verifyPassword('pass-word-1', cheap)).toBe(true);
  });

  it('treats a missing or malformed hash as a wrong password', async () => {
    expect(await verifyPassword('x', null)).toBe(false);
    expect(await verifyPassword('x', 'pbkdf2_sha256$1$a$b')).toBe(false);
    expect(await verifyPassword('x', 'scrypt$3$8$1$AAAA$AAAA')).toBe(false);
    expect(await verifyPassword('x', 'scrypt$1048576000$8$1$AAAA$AAAA')).toBe(false);
  });
});

describe("password rules (Django's validators)", () => {
  it('accepts a decent password', () => {
    expect(validatePassword('Sunny-meadow-42', { email: 'ann@example.com', first_name: 'Ann' })).toEqual([]);
  });

  it('reports every rule that fails, in Django order', () => {
    expect(validatePassword('1234567')).toEqual([
      'This password is too short. It must contain at least 8 characters.',
      'This password is too common.',
      'This password is entirely numeric.',
    ]);
    expect(validatePassword('QWERTY123')).toEqual(['This password is too common.']);
    expect(validatePassword('9081726354')).toEqual(['This password is entirely numeric.']);
  });

  it('refuses passwords like the e-mail or the names', () => {
    expect(validatePassword('john.smith@mail.com', { email: 'john.smith@mail.com' })).toEqual([
      'The password is too similar to the email.',
    ]);
    expect(validatePassword('Konstantinopolsky', { last_name: 'Konstantinopolskiy' })).toEqual([
      'The password is too similar to the last name.',
    ]);
    expect(validatePassword('Bartholomew1', { first_name: 'Bartholomew' })).toEqual([
      'The password is too similar to the first name.',
    ]);
    // A short name inside a long password does not count (Django's length-ratio rule).
    expect(validatePassword('my-long-and-winding-road-77', { first_name: 'Al' })).toEqual([]);
  });
});

describe('e-mail link tokens', () => {
  const secret = 'secret-key';
  const user: LinkTokenUser = { id: 7, email: 'a@b.c', passwordHash: 'scrypt$hash-1', lastLogin: null, passwordChangedAt: null };
  const now = new Date('2030-01-01T00:00:00Z');
  const later = (s: number) => new Date(now.getTime() + s * 1000);

  it('are <base36 time>-<32 hex> and check out for the same user and purpose', () => {
    const token = makeLinkToken(secret, 'password-reset', user, now);
    expect(token).toMatch(/^[0-9a-z]+-[0-9a-f]{32}$/);
    expect(checkLinkToken(secret, 'password-reset', user, token, later(10), 3600)).toBe(true);
  });

  it('fail for another purpose, user, secret, or once the password or last login changed', () => {
    const token = makeLinkToken(secret, 'password-reset', user, now);
    const at = later(10);
    expect(checkLinkToken(secret, 'activation', user, token, at, 3600)).toBe(false);
    expect(checkLinkToken(secret, 'password-reset', { ...user, id: 8 }, token, at, 3600)).toBe(false);
    expect(checkLinkToken('other-secret', 'password-reset', user, token, at, 3600)).toBe(false);
    expect(checkLinkToken(secret, 'password-reset', { ...user, passwordHash: 'scrypt$hash-2' }, token, at, 3600)).toBe(false);
    expect(checkLinkToken(secret, 'password-reset', { ...user, lastLogin: later(5) }, token, at, 3600)).toBe(false);
    expect(checkLinkToken(secret, 'password-reset', { ...user, email: 'new@b.c' }, token, at, 3600)).toBe(false);
  });

  it('expire, and refuse timestamps from the future or edited timestamps', () => {
    const token = makeLinkToken(secret, 'activation', user, now);
    expect(checkLinkToken(secret, 'activation', user, token, later(3600), 3600)).toBe(true);
    expect(checkLinkToken(secret, 'activation', user, token, later(3601), 3600)).toBe(false);
    expect(checkLinkToken(secret, 'activation', user, token, later(-3600), 3600)).toBe(false);
    const [ts, sig] = token.split('-');
    const edited = `${(parseInt(ts, 36) + 1000).toString(36)}-${sig}`;
    expect(checkLinkToken(secret, 'activation', user, edited, later(10), 3600)).toBe(false);
    for (const junk of ['', 'abc', '-', `${ts}-`, `${ts}-${sig.toUpperCase()}`, `${ts}-${sig}0`]) {
      expect(checkLinkToken(secret, 'activation', user, junk, later(10), 3600)).toBe(false);
    }
  });
});

describe('uid (base64url of the id, like Django)', () => {
  it('encodes 1 as MQ and round-trips', () => {
    expect(encodeUid(1)).toBe('MQ');
    expect(encodeUid(42)).toBe('NDI');
    for (const id of [1, 9, 10, 12345, 2_147_483_647]) expect(decodeUid(encodeUid(id))).toBe(id);
  });

  it('refuses what this server would never send', () => {
    for (const uid of ['', 'MA', 'LTE', 'YWJj', 'MQ==', 'M Q', 'x'.repeat(40), 'MjE0NzQ4MzY0OA']) {
      expect(decodeUid(uid), uid).toBeNull();
    }
  });
});

describe('Telegram init data', () => {
  const botToken = '1111:bot-token';
  const user = { id: 42, first_name: 'Ivan', username: 'ivan', language_code: 'ru' };
  const now = new Date('2030-06-01T12:00:00Z');
  const nowS = now.getTime() / 1000;

  it('accepts genuine init data and returns the user', () => {
    const raw = signInitData({ botToken, user, authDate: nowS - 60 });
    expect(validateInitData(raw, botToken, now)).toEqual({
      user: { id: 42, first_name: 'Ivan', username: 'ivan', language_code: 'ru' },
      authDate: nowS - 60,
    });
  });

  it('drops NUL characters from names (the database cannot store them)', () => {
    const raw = signInitData({ botToken, user: { id: 5, first_name: 'Iv\u0000an', last_name: 'P\u0000' }, authDate: nowS });
    expect(validateInitData(raw, botToken, now)?.user).toMatchObject({ first_name: 'Ivan', last_name: 'P' });
  });

  it('includes every field in the check (extra fields are signed too)', () => {
    const raw = signInitData({ botToken, user, authDate: nowS, extra: { start_param: 'ref42', signature: 'abc' } });
    expect(validateInitData(raw, botToken, now)?.user.id).toBe(42);
    const edited = new URLSearchParams(raw);
    edited.set('start_param', 'ref43');
    expect(validateInitData(edited.toString(), botToken, now)).toBeNull();
  });

  it('refuses tampering, another bot, age over 24 h, the future, and malformed data', () => {
    const raw = signInitData({ botToken, user, authDate: nowS });
    const tampered = new URLSearchParams(raw);
    tampered.set('user', JSON.stringify({ ...user, id: 43 }));
    expect(validateInitData(tampered.toString(), botToken, now)).toBeNull();
    expect(validateInitData(raw, '2222:other-bot', now)).toBeNull();
    expect(validateInitData(signInitData({ botToken, user, authDate: nowS - 86_401 }), botToken, now)).toBeNull();
    expect(validateInitData(signInitData({ botToken, user, authDate: nowS - 86_399 }), botToken, now)).not.toBeNull();
    expect(validateInitData(signInitData({ botToken, user, authDate: nowS + 120 }), botToken, now)).toBeNull();
    expect(validateInitData(raw + '&hash=' + '0'.repeat(64), botToken, now)).toBeNull(); // duplicate key
    expect(validateInitData('', botToken, now)).toBeNull();
    expect(validateInitData('x'.repeat(10_000), botToken, now)).toBeNull();
    const upper = new URLSearchParams(raw);
    upper.set('hash', upper.get('hash')!.toUpperCase());
    expect(validateInitData(upper.toString(), botToken, now)).toBeNull();
  });

  it('refuses signed data without a usable user', () => {
    const noUser = signInitData({ botToken, user, authDate: nowS });
    const params = new URLSearchParams(noUser);
    for (const bad of ['not json', '{"id":"42","first_name":"x"}', '{"id":42}', '{"id":-1,"first_name":"x"}', 'null']) {
      params.set('user', bad);
      params.delete('hash');
      const fields = Object.fromEntries(params);
      // Re-sign with the bad user so that only the user check can fail.
      const dataCheck = Object.keys(fields).sort().map((k) => `${k}=${fields[k]}`).join('\n');
      const secret = createHmac('sha256', 'WebAppData').update(botToken).digest();
      const hash = createHmac('sha256', secret).update(dataCheck).digest('hex');
      expect(validateInitData(new URLSearchParams({ ...fields, hash }).toString(), botToken, now), bad).toBeNull();
    }
  });
});
