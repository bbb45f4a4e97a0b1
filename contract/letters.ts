// Series of letters (drip sequences) as the SPA, the API and the scheduler see them: limits, the
// ways to join and leave, and API paths. The sending-time rules are ./recurrence.ts; the shapes
// are TypeBox schemas in ./schemas/letters.ts (types re-exported here).
import { fillPath } from './paths';

export type * from './schemas/letters';

export const SERIES_NAME_MAX = 128;
export const LETTER_NAME_MAX = 128;
export const LETTERS_MAX = 50;
/** A moment later than this after downtime is skipped (hours; the owner may change it). */
export const DEFAULT_CATCH_UP_HOURS = 24;
export const CATCH_UP_HOURS_MAX = 24 * 30;
export const JOIN_TRIGGERS = ['start', 'stage', 'tag', 'manual'] as const;
export type JoinTrigger = (typeof JOIN_TRIGGERS)[number];
/** What the history of a letter lists per moment. */
export const LETTER_OUTCOMES = ['waiting', 'sending', 'sent', 'failed', 'blocked', 'unknown', 'cancelled', 'skipped'] as const;
export type LetterOutcome = (typeof LETTER_OUTCOMES)[number];

export const LETTERS_PATHS = {
  series: '/api/funnels/:id/series/',
  oneSeries: '/api/series/:id/',
  enable: '/api/series/:id/enable/',
  disable: '/api/series/:id/disable/',
  letters: '/api/series/:id/letters/',
  members: '/api/series/:id/members/',
  member: '/api/series/:id/members/:personId/',
  letter: '/api/letters/:id/',
  history: '/api/letters/:id/history/',
  personSeries: '/api/people/:id/series/',
} as const;

export const LETTERS_API = {
  series: (funnelId: number) => fillPath(LETTERS_PATHS.series, { id: funnelId }),
  oneSeries: (id: number) => fillPath(LETTERS_PATHS.oneSeries, { id }),
  enable: (id: number) => fillPath(LETTERS_PATHS.enable, { id }),
  disable: (id: number) => fillPath(LETTERS_PATHS.disable, { id }),
  letters: (id: number) => fillPath(LETTERS_PATHS.letters, { id }),
  members: (id: number) => fillPath(LETTERS_PATHS.members, { id }),
  member: (id: number, personId: number) => fillPath(LETTERS_PATHS.member, { id, personId }),
  letter: (id: number) => fillPath(LETTERS_PATHS.letter, { id }),
  history: (id: number) => fillPath(LETTERS_PATHS.history, { id }),
  personSeries: (id: number) => fillPath(LETTERS_PATHS.personSeries, { id }),
} as const;
