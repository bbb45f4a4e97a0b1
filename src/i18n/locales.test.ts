import { describe, expect, it } from 'vitest';
import en from '../../locales/en.json';
import ru from '../../locales/ru.json';
import { namespaceProblems } from './namespaces';

function leaves(value: unknown, prefix = ''): Map<string, unknown> {
  const out = new Map<string, unknown>();
  if (value && typeof value === 'object') {
    for (const [key, child] of Object.entries(value)) {
      for (const [path, leaf] of leaves(child, prefix ? `${prefix}.${key}` : key)) out.set(path, leaf);
    }
  } else out.set(prefix, value);
  return out;
}

describe('locale files', () => {
  it('have the same keys, every value a non-empty string', () => {
    const english = leaves(en);
    const russian = leaves(ru);
    expect([...russian.keys()].sort()).toEqual([...english.keys()].sort());
    for (const [key, value] of [...english, ...russian]) {
      expect(typeof value, key).toBe('string');
      expect(String(value).trim(), key).not.toBe('');
    }
  });

  it('use the same interpolations in both languages', () => {
    const english = leaves(en);
    const russian = leaves(ru);
    const vars = (text: unknown) => [...String(text).matchAll(/{{(\w+)}}/g)].map((m) => m[1]).sort();
    for (const [key, value] of english) expect(vars(russian.get(key)), key).toEqual(vars(value));
  });

  it('fall into the namespaces exactly: every top-level key in one of them (its strings load with it)', () => {
    expect(namespaceProblems(en)).toEqual([]);
    expect(namespaceProblems(ru)).toEqual([]);
    expect(namespaceProblems({ ...en, stray: { x: 'y' } })).toEqual(['"stray" is in no namespace of src/i18n/namespaces.ts']);
  });
});
