// Contacts (issue 10): everyone who pressed /start on any of the user's bots, in one list with
// filters and search, tagged and untagged many at once, and exported as CSV. Limits and API paths;
// the shapes are TypeBox schemas in ./schemas/contacts.ts (types re-exported here).
export const CONTACTS_PAGE_DEFAULT = 50;
export const CONTACTS_PAGE_MAX = 200;
export { BULK_TAG_MAX } from './constants';
/** The CSV export's columns, in order (new ones go last: files read by position keep working). */
export const CONTACTS_CSV_COLUMNS = ['id', 'funnel', 'bot', 'first_name', 'last_name', 'username', 'telegram_id', 'stage', 'tags', 'blocked', 'joined_at', 'last_seen_at', 'source'] as const;

export const CONTACTS_PATHS = {
  contacts: '/api/contacts/',
  export: '/api/contacts/export/',
  tags: '/api/contacts/tags/',
} as const;

export const CONTACTS_API = CONTACTS_PATHS;

export type * from './schemas/contacts';
import type { ContactsQuery } from './schemas/contacts';

/**
 * The contacts screen's search (its route's search type): the API's query, that is the filter a
 * segment saves and a list, with a page number instead of the query's bounds.
 */
export type ContactsSearch = Omit<ContactsQuery, 'limit' | 'offset'> & { page?: number };
