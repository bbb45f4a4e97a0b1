// Traffic sources (issue 24): named start links per funnel. A source's link is
// `https://t.me/<bot>?start=src_<code>`; the bot's /start with that payload records the person's
// first source. Limits, API paths and the link; the shapes are TypeBox schemas in
// ./schemas/sources.ts (types re-exported here).
import { fillPath } from './paths';

export const SOURCE_NAME_MAX = 64;
/** Codes are made by the server: this many url-safe characters (Telegram's start payload allows [A-Za-z0-9_-]). */
export const SOURCE_CODE_LENGTH = 10;
export const SOURCE_CODE_MAX = 32;
export const SOURCES_MAX = 100;
/** The /start payload of a source's link: "src_<code>" (at most 4 + 32 characters, under Telegram's 64). */
export const SOURCE_START_PREFIX = 'src_';
/** `source=none`: people who came by no source (or whose source was deleted). */
export const NO_SOURCE = 'none';

export const SOURCES_PATHS = {
  sources: '/api/funnels/:id/sources/',
  source: '/api/funnels/:id/sources/:sourceId/',
  stats: '/api/funnels/:id/sources/stats/',
} as const;

export const SOURCES_API = {
  sources: (id: number) => fillPath(SOURCES_PATHS.sources, { id }),
  source: (id: number, sourceId: number) => fillPath(SOURCES_PATHS.source, { id, sourceId }),
  stats: (id: number) => fillPath(SOURCES_PATHS.stats, { id }),
} as const;

/** The source's start link, or null while the funnel has no bot. */
export function sourceLink(botUsername: string | null, code: string): string | null {
  return botUsername ? `https://t.me/${botUsername}?start=${SOURCE_START_PREFIX}${code}` : null;
}

/** The code of a /start payload that names a source ("src_<code>"), else null. */
export function sourceCodeOf(payload: string): string | null {
  if (!payload.startsWith(SOURCE_START_PREFIX)) return null;
  const code = payload.slice(SOURCE_START_PREFIX.length);
  return /^[A-Za-z0-9_-]{1,32}$/.test(code) ? code : null;
}

export type * from './schemas/sources';
