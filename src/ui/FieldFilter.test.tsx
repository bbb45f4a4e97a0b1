// The field filter of contacts, people, segments and mailing audiences: a value picked from a
// choice's options stays picked (the text box's delayed apply must not clear it a moment later),
// and a typed value applies once, a moment after the last key.
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import i18next, { type i18n as I18n } from 'i18next';
import { useState } from 'react';
import { I18nextProvider } from 'react-i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { FunnelField } from '../../contract/fields';
import en from '../../locales/en.json';
import { FieldFilter, type FieldFilterValue } from './FieldFilter';
import { SEARCH_DELAY_MS } from './useSearchBox';

const FIELDS: FunnelField[] = [
  { id: 1, funnel_id: 9, key: 'city', title: 'City', kind: 'text', options: [], people_count: 2, created_at: '2026-11-01T00:00:00Z', asked_by: [] },
  { id: 2, funnel_id: 9, key: 'plan', title: 'Plan', kind: 'choice', options: ['Basic', 'Pro'], people_count: 2, created_at: '2026-11-01T00:00:00Z', asked_by: [] },
];

let translations: I18n;
beforeAll(async () => {
  translations = i18next.createInstance();
  await translations.init({ resources: { en: { common: en } }, lng: 'en', defaultNS: 'common', interpolation: { escapeValue: false } });
});
beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

/** The filter as a screen holds it: each change applied and recorded. */
function Filter({ changes }: { changes: FieldFilterValue[] }) {
  const [value, setValue] = useState<FieldFilterValue>({});
  return (
    <I18nextProvider i18n={translations}>
      <FieldFilter
        fields={FIELDS}
        value={value}
        onChange={(next) => {
          changes.push(next);
          setValue(next);
        }}
        testId="filter"
      />
    </I18nextProvider>
  );
}

describe('the field filter', () => {
  it("keeps a choice's value once picked", () => {
    const changes: FieldFilterValue[] = [];
    render(<Filter changes={changes} />);
    fireEvent.change(screen.getByTestId('filter-field'), { target: { value: '2' } });
    fireEvent.change(screen.getByTestId('filter-value'), { target: { value: 'Pro' } });
    act(() => void vi.advanceTimersByTime(SEARCH_DELAY_MS * 3));
    expect(changes).toEqual([{ field: 2, field_value: undefined }, { field: 2, field_value: 'Pro' }]);
    expect((screen.getByTestId('filter-value') as HTMLSelectElement).value).toBe('Pro');
  });

  it('applies a typed value a moment after the last key', () => {
    const changes: FieldFilterValue[] = [];
    render(<Filter changes={changes} />);
    fireEvent.change(screen.getByTestId('filter-field'), { target: { value: '1' } });
    fireEvent.change(screen.getByTestId('filter-value'), { target: { value: 'Moscow' } });
    expect(changes).toEqual([{ field: 1, field_value: undefined }]);
    act(() => void vi.advanceTimersByTime(SEARCH_DELAY_MS));
    expect(changes).toEqual([{ field: 1, field_value: undefined }, { field: 1, field_value: 'Moscow' }]);
  });
});
