// How fast a string is found: every t() of a screen's render is on the way to its first paint, and
// on a slow phone t() was the largest part of rendering the panel (each key was looked up in the
// namespaces one after another until the one holding it).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useLanguage } from '@/test/support';
import { i18n, loadMessages } from './i18n';

type ResourceStore = { getResource: (...args: unknown[]) => unknown };

/** How many times `t` looked a key up in i18next's store while `work` ran (not a whole namespace's bundle). */
function lookups(work: () => void): number {
  const store = (i18n.services as unknown as { resourceStore: ResourceStore }).resourceStore;
  const spy = vi.spyOn(store, 'getResource');
  try {
    work();
    return spy.mock.calls.filter(([, , key]) => typeof key === 'string').length;
  } finally {
    spy.mockRestore();
  }
}

describe('each string is found at the first place t() looks', () => {
  afterEach(async () => {
    await useLanguage('en');
  });

  it('a later screen’s strings (a plural among them) take one lookup each, as the start strings do', async () => {
    await useLanguage('en');
    await loadMessages('panel', 'funnels');
    let texts: string[] = [];
    const count = lookups(() => {
      texts = [i18n.t('app.name'), i18n.t('panel.title'), i18n.t('funnels.list.title'), i18n.t('panel.people', { count: 3 })];
    });
    expect(texts).toEqual(['Funnels', 'Panel', 'My funnels', '3 people']);
    // The plural asks for its suffixed key and finds it: two lookups for it, one for each other.
    expect(count).toBeLessThanOrEqual(5);
  });

  it('after switching the language, the screens seen so far read in the new one, still at the first lookup', async () => {
    await useLanguage('en');
    await loadMessages('panel');
    await useLanguage('ru');
    let title = '';
    const count = lookups(() => {
      title = i18n.t('panel.title');
    });
    expect(title).toBe('Главная');
    expect(count).toBe(1);
  });
});
