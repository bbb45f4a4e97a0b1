// i18next with only what is on screen loaded: the active language, and of it only the namespaces
// (src/i18n/namespaces.ts) of the screens shown so far. `common` comes at start; a route loads
// the rest in its loader (`loadMessages`), before it renders, so no screen shows raw keys.
import i18next, { type BackendModule, type ResourceKey } from 'i18next';
import { initReactI18next } from 'react-i18next';
import type { Language } from '../../contract/constants';
import { START_NAMESPACE, type MessageNamespace } from './namespaces';

export const i18n = i18next.createInstance();

type Loaders = Record<string, () => Promise<ResourceKey>>;

// One chunk per language and namespace: `?ns=` cuts the locale file at build time (vite.config.ts).
const bundles: Record<MessageNamespace, Loaders> = {
  common: import.meta.glob('../../locales/*.json', { query: '?ns=common', import: 'default' }),
  auth: import.meta.glob('../../locales/*.json', { query: '?ns=auth', import: 'default' }),
  account: import.meta.glob('../../locales/*.json', { query: '?ns=account', import: 'default' }),
  serverErrors: import.meta.glob('../../locales/*.json', { query: '?ns=serverErrors', import: 'default' }),
  panel: import.meta.glob('../../locales/*.json', { query: '?ns=panel', import: 'default' }),
  settings: import.meta.glob('../../locales/*.json', { query: '?ns=settings', import: 'default' }),
  partner: import.meta.glob('../../locales/*.json', { query: '?ns=partner', import: 'default' }),
  billing: import.meta.glob('../../locales/*.json', { query: '?ns=billing', import: 'default' }),
  funnels: import.meta.glob('../../locales/*.json', { query: '?ns=funnels', import: 'default' }),
};

const localeChunks: BackendModule = {
  type: 'backend',
  init() {},
  read(language, namespace, callback) {
    const load = bundles[namespace as MessageNamespace]?.[`../../locales/${language}.json`];
    if (!load) return callback(new Error(`No messages for ${language}/${namespace}`), false);
    load().then(
      (messages) => callback(null, messages),
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), true),
    );
  },
};

/**
 * Each namespace, once loaded, also joins the start namespace, where every `t()` looks first: a key
 * is then found in the first namespace tried. With the other namespaces as i18next fallbacks, a
 * 'funnels.…' key was looked up (plural suffix, path walk) in up to nine namespaces before it was
 * found (about half of a warm call's time), and t() was about a quarter of the task that renders
 * the panel on a slow phone. Top-level keys are in exactly one namespace (namespaces.ts), so
 * nothing is shadowed.
 * The namespaces stay i18next's for loading (what a route waits for, what a language switch fetches).
 */
function joinStartNamespace(loaded: Record<string, Record<string, boolean>>): void {
  for (const language of Object.keys(loaded)) {
    // Not before the start namespace itself is there: i18next would take it for loaded.
    if (!i18n.hasResourceBundle(language, START_NAMESPACE)) continue;
    for (const namespace of Object.keys(bundles)) {
      if (namespace === START_NAMESPACE || !i18n.hasResourceBundle(language, namespace)) continue;
      // Shallow (top-level keys are disjoint) and shared, not copied: messages are never changed.
      i18n.addResourceBundle(language, START_NAMESPACE, i18n.getResourceBundle(language, namespace) as ResourceKey, false, true, { silent: true, skipCopy: true });
    }
  }
}

i18n.on('loaded', joinStartNamespace);

export function applyDocumentLanguage(language: Language): void {
  document.documentElement.lang = language;
}

export async function initI18n(language: Language): Promise<void> {
  await i18n.use(localeChunks).use(initReactI18next).init({
    lng: language,
    // Both locale files hold the same keys (locales.test.ts): no second language to fetch.
    fallbackLng: false,
    ns: [START_NAMESPACE],
    // Keys keep their top-level prefix ('signIn.title'), so a key is found without naming its
    // namespace at the call: every loaded namespace joins this one (joinStartNamespace).
    defaultNS: START_NAMESPACE,
    // A failed chunk is retried a little, then the route shows its error screen.
    maxRetries: 2,
    interpolation: { escapeValue: false }, // React escapes
    returnNull: false,
    // Route loaders load a screen's namespaces before it renders (loadMessages): nothing suspends.
    react: { useSuspense: false },
  });
  applyDocumentLanguage(language);
}

/**
 * Makes sure the namespaces are there in the current language. Returns nothing when they already
 * are (a route loader then does not wait at all), else a promise that fails if one could not load.
 */
export function loadMessages(...namespaces: MessageNamespace[]): Promise<void> | undefined {
  const missing = namespaces.filter((namespace) => !i18n.hasResourceBundle(i18n.language, namespace));
  if (missing.length === 0) return undefined;
  return i18n.loadNamespaces(missing).then(() => {
    const failed = missing.filter((namespace) => !i18n.hasResourceBundle(i18n.language, namespace));
    if (failed.length > 0) throw new Error(`Could not load the ${failed.join(', ')} messages (${i18n.language})`);
  });
}

export function currentLanguage(): Language {
  return i18n.language === 'ru' ? 'ru' : 'en';
}
