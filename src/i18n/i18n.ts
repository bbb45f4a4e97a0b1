// i18next with only the active language's messages loaded (each locale is its own chunk).
import i18next from 'i18next';
import { DEFAULT_LANGUAGE, type Language } from '../../contract/constants';
import type { Messages } from './messages';
import { writeLanguageCookie } from './language';

export const i18n = i18next.createInstance();

const loaders: Record<Language, () => Promise<{ default: Messages }>> = {
  en: () => import('../../locales/en.json'),
  ru: () => import('../../locales/ru.json'),
};

async function ensureMessages(language: Language): Promise<void> {
  if (i18n.hasResourceBundle(language, 'translation')) return;
  const { default: messages } = await loaders[language]();
  i18n.addResourceBundle(language, 'translation', messages, true, true);
}

function applyDocumentLanguage(language: Language): void {
  document.documentElement.lang = language;
}

export async function initI18n(language: Language): Promise<void> {
  const { default: messages } = await loaders[language]();
  await i18n.init({
    lng: language,
    fallbackLng: DEFAULT_LANGUAGE,
    resources: { [language]: { translation: messages } },
    interpolation: { escapeValue: false }, // React escapes
    returnNull: false,
  });
  applyDocumentLanguage(language);
}

/** Switches the interface at once and remembers the choice in the language cookie. */
export async function switchLanguage(language: Language): Promise<void> {
  await ensureMessages(language);
  await i18n.changeLanguage(language);
  writeLanguageCookie(language);
  applyDocumentLanguage(language);
}

export function currentLanguage(): Language {
  return i18n.language === 'ru' ? 'ru' : 'en';
}
