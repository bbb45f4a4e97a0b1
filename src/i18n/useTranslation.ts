// The translation hook: re-renders on a language switch and hands back a `t` bound to the active
// language. All the screens need of react-i18next, in a few lines instead of ~5 KB on first paint.
import { useMemo, useSyncExternalStore } from 'react';
import { i18n } from './i18n';

function subscribe(onChange: () => void): () => void {
  i18n.on('languageChanged', onChange);
  return () => i18n.off('languageChanged', onChange);
}

const currentLanguageCode = () => i18n.language;

export function useTranslation() {
  const language = useSyncExternalStore(subscribe, currentLanguageCode, currentLanguageCode);
  const t = useMemo(() => i18n.getFixedT(language), [language]);
  return { t, i18n };
}
