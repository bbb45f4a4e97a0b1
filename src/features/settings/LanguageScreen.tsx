import { useAtom } from 'jotai';
import { useTranslation } from 'react-i18next';
import { LANGUAGES, type Language } from '../../../contract/constants';
import { ROUTES } from '../../../contract/routes';
import { updateMe } from '@/api/users';
import { toApiFailure } from '@/api/errors';
import { switchLanguage } from '@/i18n/switchLanguage';
import { notifyFailure } from '@/api/action';
import { userAtom } from '@/state/auth';
import { usePageHead } from '@/state/ui';
import { BackLink } from '@/ui/BackLink';
import { CheckIcon } from '@/ui/icons';
import { Section } from '@/ui/blocks';
import { Screen, ScreenHeader } from '@/ui/Screen';

/** Each language is named in itself, whatever the interface language is. */
const NATIVE_NAMES: Record<Language, 'language.en' | 'language.ru'> = { en: 'language.en', ru: 'language.ru' };

export function LanguageScreen() {
  const { t, i18n } = useTranslation();
  usePageHead(t('language.title'));
  const [user, setUser] = useAtom(userAtom);
  const current = i18n.language;

  async function choose(language: Language) {
    if (language === current) return;
    await switchLanguage(language);
    // The server keeps the language for the letters it sends.
    if (user) {
      try {
        const updated = await updateMe({ language });
        setUser({ ...user, ...updated, language });
      } catch (error) {
        notifyFailure(await toApiFailure(error));
      }
    }
  }

  return (
    <Screen>
      <ScreenHeader title={t('language.title')} subtitle={t('language.subtitle')} back={<BackLink to={ROUTES.settings} label={t('common.back')} />} />
      <Section>
        <div role="radiogroup" aria-label={t('language.title')} className="radio-list">
          {LANGUAGES.map((language) => (
            <label key={language} className="row radio-row" lang={language}>
              <input
                type="radio"
                name="language"
                value={language}
                className="visually-hidden"
                checked={current === language}
                onChange={() => void choose(language)}
              />
              <span className="row-body">
                <span className="row-title">{t(NATIVE_NAMES[language])}</span>
              </span>
              <CheckIcon className="radio-check" data-testid={current === language ? 'language-current' : undefined} />
            </label>
          ))}
        </div>
      </Section>
    </Screen>
  );
}
