// Changing the interface language: only the language screen does it, so it stays off the first
// paint (i18n.ts is in every one).
import type { Language } from '../../contract/constants';
import { applyDocumentLanguage, i18n } from './i18n';
import { writeLanguageCookie } from './language';

/**
 * Switches the interface at once (every namespace loaded so far is fetched in the new language
 * before anything re-renders) and remembers the choice in the language cookie.
 */
export async function switchLanguage(language: Language): Promise<void> {
  await i18n.changeLanguage(language);
  applyDocumentLanguage(language);
  await writeLanguageCookie(language);
}
