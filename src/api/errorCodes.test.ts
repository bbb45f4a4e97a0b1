import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import { API_ERROR_CODES } from '../../contract/errors';
import en from '../../locales/en.json';
import ru from '../../locales/ru.json';
import { translationOf } from './errorCodes';

const lookup = (messages: unknown, key: string) => key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], messages);

describe('error codes → the screens’ words', () => {
  it('gives every code but `invalid` words in both languages', () => {
    for (const code of API_ERROR_CODES) {
      const translation = translationOf({ code });
      if (code === 'invalid') {
        expect(translation).toBeNull();
        continue;
      }
      expect(translation, code).not.toBeNull();
      expect(typeof lookup(en, translation!.key), `${code} in en`).toBe('string');
      expect(typeof lookup(ru, translation!.key), `${code} in ru`).toBe('string');
    }
  });

  it('carries the number and the technical detail along', () => {
    expect(translationOf({ code: 'too_long', count: 1024 })).toEqual({ key: 'funnels.serverErrors.tooLong', options: { count: 1024, detail: '' } });
    expect(translationOf({ code: 'bad_html', detail: 'The <b> tag is not closed.' })?.options.detail).toBe('The <b> tag is not closed.');
  });

  it('says a refused reply as what happened to the person, in both languages', async () => {
    const translation = translationOf({ code: 'not_delivered', detail: 'chat_not_found' })!;
    const i18n = i18next.createInstance();
    await i18n.init({ lng: 'ru', resources: { en: { translation: en }, ru: { translation: ru } }, interpolation: { escapeValue: false } });
    expect(i18n.t(translation.key, translation.options)).toBe('Не доставлено: чат не найден: человек не запускал бота');
    expect(i18n.t(translation.key, { ...translation.options, lng: 'en' })).toBe('Not delivered: chat not found: the person never started the bot');
  });

  it('leaves a text without a code to the server', () => {
    expect(translationOf(null)).toBeNull();
    expect(translationOf(undefined)).toBeNull();
  });
});
