import { describe, expect, it } from 'vitest';
import en from '../../locales/en.json';
import ru from '../../locales/ru.json';
import { knownServerMessage } from './serverMessages';

describe('server messages shown in the interface language', () => {
  it('recognises every password rule the server applies, and throttling', () => {
    expect(knownServerMessage('The password is too similar to the first name.')).toBe('passwordTooSimilarFirstName');
    expect(knownServerMessage('The password is too similar to the last name.')).toBe('passwordTooSimilarLastName');
    expect(knownServerMessage('This password is too short. It must contain at least 8 characters.')).toBe('passwordTooShort');
    expect(knownServerMessage('Request was throttled. Expected available in 840 seconds.')).toBe('throttled');
    expect(knownServerMessage('Something nobody planned for.')).toBeNull();
  });

  it('has a Russian text for each of them', () => {
    for (const key of ['passwordTooSimilarFirstName', 'passwordTooSimilarLastName', 'throttled'] as const) {
      expect(ru.serverErrors[key]).toMatch(/[А-Яа-я]/);
      expect(en.serverErrors[key]).not.toBe(ru.serverErrors[key]);
    }
  });
});
