// The query parts of screen addresses, checked: anything unknown is dropped rather than trusted.
// Part of the first paint (the route tree): types only from the contract, whose values stay in
// the funnel screens' chunks.
import type { ContactsSearch } from '../../../contract/contacts';
import type { StatsPeriod } from '../../../contract/funnels';
import type { PartnerPeriod } from '../../../contract/partner';

/** A search parameter that takes one of a few words: kept when it is one of them, else dropped. */
function choiceSearch<Key extends string, Value extends string>(key: Key, values: readonly Value[]) {
  return (search: Record<string, unknown>): { [K in Key]?: Value } => (values.includes(search[key] as Value) ? ({ [key]: search[key] } as { [K in Key]?: Value }) : {});
}

export interface PeriodSearch {
  period?: StatsPeriod;
}

/** ?period=today|7d|30d|all (all time when missing or unknown). */
export const validatePeriodSearch: (search: Record<string, unknown>) => PeriodSearch = choiceSearch('period', ['today', '7d', '30d', 'all'] satisfies StatsPeriod[]);

export interface PeopleSearch {
  q?: string;
  stage?: number | 'none';
  tag?: number;
  source?: number | 'none';
  field?: number;
  field_value?: string;
  page?: number;
}

const positive = (value: unknown): number | undefined => {
  const n = typeof value === 'number' ? value : typeof value === 'string' && /^[1-9][0-9]{0,8}$/.test(value) ? Number(value) : NaN;
  return Number.isInteger(n) && n > 0 && n < 1e9 ? n : undefined;
};

/** The people list's search box, stage, tag and source filters, and page (1 = first). */
export function validatePeopleSearch(search: Record<string, unknown>): PeopleSearch {
  const result: PeopleSearch = {};
  if (typeof search.q === 'string' && search.q.trim()) result.q = search.q.slice(0, 100);
  if (search.stage === 'none') result.stage = 'none';
  else if (positive(search.stage)) result.stage = positive(search.stage);
  if (positive(search.tag)) result.tag = positive(search.tag);
  if (search.source === 'none') result.source = 'none';
  else if (positive(search.source)) result.source = positive(search.source);
  if (positive(search.field)) {
    result.field = positive(search.field);
    if (typeof search.field_value === 'string' && search.field_value.trim()) result.field_value = search.field_value.slice(0, 4096);
  }
  const page = positive(search.page);
  if (page && page > 1) result.page = page;
  return result;
}

export interface PersonSearch {
  /** The list the person was opened from, for Back: the funnel's people list, or a stage. */
  from?: 'people' | 'stage' | 'contacts';
}

export function validatePersonSearch(search: Record<string, unknown>): PersonSearch {
  return search.from === 'people' || search.from === 'stage' || search.from === 'contacts' ? { from: search.from } : {};
}

const RECIPIENT_FILTERS = ['sent', 'waiting', 'failed', 'blocked', 'unknown'] as const;
export interface RecipientsSearch {
  /** One outcome only (the list of a mailing's recipients). */
  state?: (typeof RECIPIENT_FILTERS)[number];
  page?: number;
}

export function validateRecipientsSearch(search: Record<string, unknown>): RecipientsSearch {
  const result: RecipientsSearch = {};
  if ((RECIPIENT_FILTERS as readonly unknown[]).includes(search.state)) result.state = search.state as RecipientsSearch['state'];
  const page = positive(search.page);
  if (page && page > 1) result.page = page;
  return result;
}

/** Every key of the contacts search, so nothing else (an address's own names) travels with it. */
const CONTACTS_SEARCH_KEYS = ['search', 'funnel', 'folder', 'list', 'stage', 'tag', 'source', 'field', 'field_value', 'blocked', 'joined_from', 'joined_to', 'page'] as const satisfies ReadonlyArray<keyof ContactsSearch>;

const DAY = /^[0-9]{4}-[0-9]{2}-[0-9]{2}$/;

/**
 * The contacts search as its address writes it, which bookmarks keep: the search box is q, the
 * days from and to, and blocked the text "true" or "false".
 */
interface ContactsAddress {
  q?: string;
  funnel?: number;
  folder?: number;
  list?: number;
  stage?: number | 'none';
  tag?: number;
  source?: number | 'none';
  field?: number;
  field_value?: string;
  blocked?: 'true' | 'false';
  from?: string;
  to?: string;
  page?: number;
}

/** The contacts list's filters, read from the address (Back from a contact returns to the same list). */
export function validateContactsSearch(address: Record<string, unknown>): ContactsSearch {
  const result: ContactsSearch = {};
  if (positive(address.folder)) result.folder = positive(address.folder);
  if (positive(address.list)) result.list = positive(address.list);
  if (typeof address.q === 'string' && address.q.trim()) result.search = address.q.slice(0, 100);
  if (positive(address.funnel)) result.funnel = positive(address.funnel);
  if (address.stage === 'none') result.stage = 'none';
  else if (positive(address.stage)) result.stage = String(positive(address.stage));
  if (positive(address.tag)) result.tag = positive(address.tag);
  if (address.source === 'none') result.source = 'none';
  else if (positive(address.source)) result.source = String(positive(address.source));
  if (positive(address.field)) {
    result.field = positive(address.field);
    if (typeof address.field_value === 'string' && address.field_value.trim()) result.field_value = address.field_value.slice(0, 4096);
  }
  if (address.blocked === 'true' || address.blocked === true) result.blocked = true;
  else if (address.blocked === 'false' || address.blocked === false) result.blocked = false;
  if (typeof address.from === 'string' && DAY.test(address.from)) result.joined_from = address.from;
  if (typeof address.to === 'string' && DAY.test(address.to)) result.joined_to = address.to;
  const page = positive(address.page);
  if (page && page > 1) result.page = page;
  return result;
}

/** Only the contacts search's own keys of `search` (the router keeps the address's names beside them). */
export function contactsSearchOf(search: ContactsSearch): ContactsSearch {
  const result: Record<string, unknown> = {};
  for (const key of CONTACTS_SEARCH_KEYS) if (search[key] !== undefined) result[key] = search[key];
  return result as ContactsSearch;
}

/**
 * The contacts search written into the address (the route's search middleware): the names and
 * forms validateContactsSearch reads, so the addresses people bookmarked stay as they were.
 */
export function contactsAddress(search: ContactsSearch): ContactsAddress {
  const address: ContactsAddress = {
    q: search.search || undefined,
    funnel: search.funnel,
    folder: search.folder,
    list: search.list,
    stage: search.stage === undefined || search.stage === 'none' ? search.stage : Number(search.stage),
    tag: search.tag,
    source: search.source === undefined || search.source === 'none' ? search.source : Number(search.source),
    field: search.field,
    field_value: search.field === undefined ? undefined : search.field_value || undefined,
    blocked: search.blocked === undefined ? undefined : search.blocked ? 'true' : 'false',
    from: search.joined_from || undefined,
    to: search.joined_to || undefined,
    page: search.page && search.page > 1 ? search.page : undefined,
  };
  return Object.fromEntries(Object.entries(address).filter(([, value]) => value !== undefined));
}

export interface NewMailingSearch {
  /** A list of contacts to start the audience with. */
  list?: number;
}

export function validateNewMailingSearch(search: Record<string, unknown>): NewMailingSearch {
  return positive(search.list) ? { list: positive(search.list) } : {};
}

export interface FunnelsSearch {
  /** Only the funnels of this CRM folder. */
  folder?: number;
}

export function validateFunnelsSearch(search: Record<string, unknown>): FunnelsSearch {
  return positive(search.folder) ? { folder: positive(search.folder) } : {};
}

/** ?period=7d|30d|90d|all on the partner's charts (30 days when missing or unknown). */
export const validatePartnerPeriodSearch = choiceSearch('period', ['7d', '30d', '90d', 'all'] satisfies PartnerPeriod[]);

/** ?page= of the partner's transactions (1 = first, left out). */
export function validatePageSearch(search: Record<string, unknown>): { page?: number } {
  const page = positive(search.page);
  return page && page > 1 ? { page } : {};
}

/** The period the partner's charts show when the address names none. */
export const PARTNER_DEFAULT_PERIOD: PartnerPeriod = '30d';
