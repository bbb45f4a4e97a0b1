import { describe, expect, it } from 'vitest';
import { authorizationHeader } from './authHeader';

describe('the Authorization header rule (spec §6)', () => {
  it('sends a stored token with the Token prefix, even when init data is present', () => {
    expect(authorizationHeader({ token: 'abc', initData: 'query_id=1&hash=x' })).toBe('Token abc');
  });

  it('sends Telegram init data, raw, with the TG prefix when there is no token', () => {
    expect(authorizationHeader({ token: null, initData: 'query_id=1&user=%7B%7D&hash=x' })).toBe('TG query_id=1&user=%7B%7D&hash=x');
  });

  it('sends nothing without either', () => {
    expect(authorizationHeader({ token: null, initData: null })).toBeNull();
    expect(authorizationHeader({ token: '', initData: '' })).toBeNull();
  });
});
