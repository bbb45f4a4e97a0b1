// The contacts filters in the address become a saved segment's filter as the server reads it:
// numbers stay numbers, a stage becomes its text form, 'blocked' a boolean, dates their own names.
import { describe, expect, it } from 'vitest';
import { contactsQuery, segmentFilter } from './ContactsScreen';

describe('segmentFilter', () => {
  it('maps every filter, and leaves out the page and the list', () => {
    expect(segmentFilter({ q: 'ann', funnel: 3, folder: 7, stage: 12, tag: 5, blocked: 'false', from: '2026-03-01', to: '2026-03-31', page: 4, list: 9 })).toEqual({
      search: 'ann',
      funnel: 3,
      folder: 7,
      stage: '12',
      tag: 5,
      blocked: false,
      joined_from: '2026-03-01',
      joined_to: '2026-03-31',
    });
    expect(segmentFilter({ stage: 'none', blocked: 'true' })).toEqual({ stage: 'none', blocked: true });
    expect(segmentFilter({})).toEqual({});
  });

  it('puts the folder and the list into the contacts query', () => {
    expect(contactsQuery({ folder: 7, list: 9 }, false)).toMatchObject({ folder: '7', list: '9' });
  });
});
