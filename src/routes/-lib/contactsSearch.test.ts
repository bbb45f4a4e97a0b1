// The contacts screen's search is the contract's contacts filter (what the API's query and a saved
// segment hold), while its address keeps the names and forms bookmarks already have: q, from, to,
// and blocked as the text "true".
import { createMemoryHistory } from '@tanstack/react-router';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { ContactsFilter, ContactsQuery, ContactsSearch } from '../../../contract/contacts';
import type { ContactList, ListBody, ListPatch } from '../../../contract/crm';
import { createAppSession } from '@/api/session';
import { contactsQuery, segmentFilter } from '@/features/contacts/ContactsScreen';
import { appStore } from '@/state/store';
import { createAppRouter } from '@/router';
import { validateContactsSearch } from './search';

/** An address bookmarked before the filter became one shape (as the router wrote it then). */
const BOOKMARK = '/content/contacts/?folder=7&list=9&q=ann&funnel=3&stage=12&tag=5&blocked=%22true%22&from=2026-03-01&to=2026-03-31&page=2';
const FILTER: ContactsFilter = { search: 'ann', funnel: 3, folder: 7, stage: '12', tag: 5, blocked: true, joined_from: '2026-03-01', joined_to: '2026-03-31' };

const routerAt = (path: string) => createAppRouter({ auth: createAppSession(appStore) }, createMemoryHistory({ initialEntries: [path] }));
const searchParams = (href: string) => Object.fromEntries(new URL(href, 'http://app.test').searchParams);

describe('the contacts search', () => {
  it('is the contacts filter of the API query and of a segment, with the list and a page', () => {
    expectTypeOf(validateContactsSearch).returns.toEqualTypeOf<ContactsSearch>();
    expectTypeOf<Required<Omit<ContactsSearch, 'list' | 'page'>>>().toEqualTypeOf<Required<ContactsFilter>>();
    expectTypeOf<Required<Omit<ContactsQuery, 'list' | 'limit' | 'offset'>>>().toEqualTypeOf<Required<ContactsFilter>>();
    expectTypeOf<NonNullable<ListBody['filter']>>().toEqualTypeOf<ContactsFilter>();
    expectTypeOf<NonNullable<ListPatch['filter']>>().toEqualTypeOf<ContactsFilter>();
    expectTypeOf<NonNullable<ContactList['filter']>>().toEqualTypeOf<ContactsFilter>();

    const search = validateContactsSearch(routerAt(BOOKMARK).state.location.search);
    expect(search).toEqual({ ...FILTER, list: 9, page: 2 });
    // What the screen saves as a segment is what it fetched the list with, less the list and page.
    expect(segmentFilter(search)).toEqual(FILTER);
    expect(contactsQuery(search)).toEqual({ ...FILTER, list: 9, limit: 50, offset: 50 });
    expect(contactsQuery(search, false)).toEqual({ ...FILTER, list: 9 });
  });

  it('reads a bookmarked address as the filter and writes the filter back to the same address', () => {
    const router = routerAt(BOOKMARK);
    const match = router.matchRoutes(router.state.location).find((m) => m.routeId === '/_authenticated/content/contacts');
    expect(match?.search).toMatchObject({ ...FILTER, list: 9, page: 2 });

    const written = router.buildLocation({ to: '/content/contacts/', search: { ...FILTER, list: 9, page: 2 } });
    expect(searchParams(written.href)).toEqual(searchParams(BOOKMARK));
    expect(searchParams(router.buildLocation({ to: '/content/contacts/', search: { stage: 'none', blocked: false, page: 1 } }).href)).toEqual({ stage: 'none', blocked: '"false"' });
    expect(router.buildLocation({ to: '/content/contacts/', search: {} }).href).toBe('/content/contacts/');
  });

  it('keeps a field filter (a field, and its value) in the address and back', () => {
    const router = routerAt('/content/contacts/?funnel=3&field=8&field_value=Moscow');
    expect(validateContactsSearch(router.state.location.search)).toEqual({ funnel: 3, field: 8, field_value: 'Moscow' });
    const written = router.buildLocation({ to: '/content/contacts/', search: { funnel: 3, field: 8, field_value: 'Moscow' } });
    expect(searchParams(written.href)).toEqual({ funnel: '3', field: '8', field_value: 'Moscow' });
    // A value without its field means nothing and is dropped.
    expect(validateContactsSearch(routerAt('/content/contacts/?field_value=Moscow').state.location.search)).toEqual({});
  });
});
