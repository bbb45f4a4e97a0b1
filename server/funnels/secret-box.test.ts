import { describe, expect, it } from 'vitest';
import { botTokenHash, botTokenHint, decryptBotToken, decryptSecret, encryptSecret } from './secret-box';

const TOKEN = '123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw';

describe('secret box', () => {
  it('round-trips, with a fresh IV each time, and never shows the token', () => {
    const a = encryptSecret(TOKEN, 'key-one');
    const b = encryptSecret(TOKEN, 'key-one');
    expect(a).not.toBe(b);
    expect(a).toMatch(/^v1:[A-Za-z0-9_-]+$/);
    expect(a).not.toContain(TOKEN.split(':')[1]);
    expect(decryptSecret(a, 'key-one')).toBe(TOKEN);
    expect(decryptBotToken({ botTokenEncrypted: b }, { secretKey: 'key-one' })).toBe(TOKEN);
  });

  it('refuses another key and a tampered text', () => {
    const sealed = encryptSecret(TOKEN, 'key-one');
    expect(() => decryptSecret(sealed, 'key-two')).toThrow();
    const raw = Buffer.from(sealed.slice(3), 'base64url');
    raw[raw.length - 1] ^= 1;
    expect(() => decryptSecret(`v1:${raw.toString('base64url')}`, 'key-one')).toThrow();
    expect(() => decryptSecret('v0:abc', 'key-one')).toThrow();
  });

  it('hash and hint', () => {
    expect(botTokenHash(TOKEN)).toMatch(/^[0-9a-f]{64}$/);
    expect(botTokenHash(TOKEN)).not.toBe(botTokenHash(TOKEN + 'x'));
    expect(botTokenHint(TOKEN)).toBe('123456789:AA…saw');
  });
});
