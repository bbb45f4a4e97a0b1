// The query parts of screen addresses, checked: anything unknown is dropped rather than trusted.
// Part of the first paint (the route tree): types only from the contract, whose values stay in
// the funnel screens' chunks.
import type { StatsPeriod } from '../../../contract/funnels';

const PERIODS: readonly StatsPeriod[] = ['today', '7d', '30d', 'all'];

export interface PeriodSearch {
  period?: StatsPeriod;
}

/** ?period=today|7d|30d|all (all time when missing or unknown). */
export function validatePeriodSearch(search: Record<string, unknown>): PeriodSearch {
  const period = search.period;
  return PERIODS.includes(period as StatsPeriod) ? { period: period as StatsPeriod } : {};
}

export interface PeopleSearch {
  q?: string;
  stage?: number | 'none';
  tag?: number;
  page?: number;
}

const positive = (value: unknown): number | undefined => {
  const n = typeof value === 'number' ? value : typeof value === 'string' && /^[1-9][0-9]{0,8}$/.test(value) ? Number(value) : NaN;
  return Number.isInteger(n) && n > 0 && n < 1e9 ? n : undefined;
};

/** The people list's search box, stage and tag filters, and page (1 = first). */
export function validatePeopleSearch(search: Record<string, unknown>): PeopleSearch {
  const result: PeopleSearch = {};
  if (typeof search.q === 'string' && search.q.trim()) result.q = search.q.slice(0, 100);
  if (search.stage === 'none') result.stage = 'none';
  else if (positive(search.stage)) result.stage = positive(search.stage);
  if (positive(search.tag)) result.tag = positive(search.tag);
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

export interface ContactsSearch {
  q?: string;
  funnel?: number;
  folder?: number;
  list?: number;
  stage?: number | 'none';
  tag?: number;
  blocked?: 'true' | 'false';
  from?: string;
  to?: string;
  page?: number;
}

const DAY = /^[0-9]{4}-[0-9]{2}-[0-9]{2}$/;

/** The contacts list's filters, in the address (Back from a contact returns to the same list). */
export function validateContactsSearch(search: Record<string, unknown>): ContactsSearch {
  const result: ContactsSearch = {};
  if (positive(search.folder)) result.folder = positive(search.folder);
  if (positive(search.list)) result.list = positive(search.list);
  if (typeof search.q === 'string' && search.q.trim()) result.q = search.q.slice(0, 100);
  if (positive(search.funnel)) result.funnel = positive(search.funnel);
  if (search.stage === 'none') result.stage = 'none';
  else if (positive(search.stage)) result.stage = positive(search.stage);
  if (positive(search.tag)) result.tag = positive(search.tag);
  if (search.blocked === 'true' || search.blocked === 'false') result.blocked = search.blocked;
  if (typeof search.from === 'string' && DAY.test(search.from)) result.from = search.from;
  if (typeof search.to === 'string' && DAY.test(search.to)) result.to = search.to;
  const page = positive(search.page);
  if (page && page > 1) result.page = page;
  return result;
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
