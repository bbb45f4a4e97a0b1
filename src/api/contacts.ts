// The contacts API (contract/contacts.ts), on the authenticated client.
import { CONTACTS_API, type BulkTagBody, type BulkTagResult, type ContactsPage, type ContactsQuery } from '../../contract/contacts';
import { currentLanguage } from '@/i18n/i18n';
import { apiPath, authClient } from './clients';

/** The query's values as the address writes them (a number, true or false as text); none empty. */
const params = (query: ContactsQuery) => Object.fromEntries(Object.entries(query).filter(([, value]) => value !== undefined && value !== '')) as Record<string, string | number | boolean>;

export const listContacts = (query: ContactsQuery) => authClient.get(apiPath(CONTACTS_API.contacts), { searchParams: params(query) }).json<ContactsPage>();
export const bulkTag = (body: BulkTagBody) => authClient.post(apiPath(CONTACTS_API.tags), { json: body }).json<BulkTagResult>();
/**
 * The filtered list as a CSV file (fetched with the Authorization header, then saved): its headers
 * in the interface language, its times on this device's clock, as the person reading it expects.
 */
export const exportContacts = (query: ContactsQuery) =>
  authClient
    .get(apiPath(CONTACTS_API.export), {
      searchParams: { ...params(query), lang: currentLanguage(), tz: Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC' },
      timeout: 5 * 60 * 1000,
    })
    .blob();
