// The funnel domain as the SPA, the API and the bot runtime all see it (issue 3): its limits,
// choices and API paths. The shapes are TypeBox schemas in ./schemas/funnels.ts; their types are
// re-exported here (types only: the SPA never bundles TypeBox). The runtime and the builder
// share these; neither imports the other.
import { fillPath } from './paths';

// Types only (the SPA never bundles TypeBox); a type-only re-export is no import cycle with the
// schemas, which read this module's limits.
export type * from './schemas/funnels';

/** Telegram's limits (Bot API). */
export const MESSAGE_TEXT_MAX = 4096;
export const CAPTION_MAX = 1024;
export const PHOTO_MAX_BYTES = 10 * 1024 * 1024;
export const VIDEO_MAX_BYTES = 50 * 1024 * 1024;

export const MEDIA_KINDS = ['photo', 'video'] as const;
export type MediaKind = (typeof MEDIA_KINDS)[number];
/** The uploads a stage message takes, by Content-Type, and each kind's size limit. */
export const MEDIA_TYPES: Record<string, MediaKind> = {
  'image/jpeg': 'photo',
  'image/png': 'photo',
  'image/webp': 'photo',
  'image/gif': 'photo',
  'video/mp4': 'video',
  'video/quicktime': 'video',
  'video/webm': 'video',
};
export const MEDIA_MAX_BYTES: Record<MediaKind, number> = { photo: PHOTO_MAX_BYTES, video: VIDEO_MAX_BYTES };
export const BOT_DESCRIPTION_MAX = 512;
export const BOT_SHORT_DESCRIPTION_MAX = 120;
export const BUTTON_TEXT_MAX = 64;
export const URL_BUTTONS_MAX = 8;
/** Choice buttons on one message (each leads to a stage of its own). */
export const CHOICE_BUTTONS_MAX = 8;

/** Our own limits. */
export const FUNNEL_NAME_MAX = 128;
export const STAGE_TITLE_MAX = 128;
export const TAG_TITLE_MAX = 64;
export const STAGES_MAX = 100;
export const TAGS_MAX = 100;
/** Raw HTML of a message may be longer than its visible text, but not unboundedly. */
export const MESSAGE_HTML_MAX = 16_384;
export const BUTTON_URL_MAX = 2048;
/** A bot token as typed in (its form is checked by the service, with a friendlier message). */
export const BOT_TOKEN_INPUT_MAX = 200;
export const TIME_ZONE_MAX = 64;
export const MEDIA_FILENAME_MAX = 1000;
/** A keyword: one word or a few, matched whole and in any case. */
export const KEYWORD_PHRASE_MAX = 64;
export const KEYWORDS_MAX = 100;

/** How a person went from one stage to another (stage_moves.via). */
export const STAGE_MOVE_VIA = ['start', 'next', 'choice', 'keyword', 'manual', 'timer', 'payment', 'refund', 'webhook', 'answer'] as const;
export type StageMoveVia = (typeof STAGE_MOVE_VIA)[number];

export const STAGE_ICONS = ['flag', 'gift', 'star', 'fire', 'heart', 'bolt', 'chat', 'cart', 'money', 'book', 'video', 'check'] as const;
export type StageIcon = (typeof STAGE_ICONS)[number];
/** Colours offered for stages and tags (any #rrggbb is accepted). */
export const PALETTE = ['#2481cc', '#34c759', '#ff9500', '#ff3b30', '#af52de', '#5ac8fa', '#ffcc00', '#8e8e93'] as const;
export const COLOR_PATTERN = '^#[0-9a-fA-F]{6}$';

export const FUNNEL_STATES = ['draft', 'running', 'stopped'] as const;
/** Why the runtime stopped a funnel by itself (shown to its owner). */
/** token_revoked: Telegram refused the token; billing: the subscription ended (a payment runs it again). */
export const STOP_REASONS = ['token_revoked', 'billing'] as const;
export type FunnelState = (typeof FUNNEL_STATES)[number];
export type StopReason = (typeof STOP_REASONS)[number] | null;

/** Periods of the results: today, the last 7 and 30 days (today included), all time. */
export const STATS_PERIODS = ['today', '7d', '30d', 'all'] as const;
export type StatsPeriod = (typeof STATS_PERIODS)[number];
/** The search box of the people list: at most this many characters are used. */
export const PEOPLE_SEARCH_MAX = 100;
/** `stage=none`: people whose stage was deleted. */
export const NO_STAGE = 'none';

export const PEOPLE_PAGE_DEFAULT = 50;
export const PEOPLE_PAGE_MAX = 200;
/** History entries on a person's page (newest first). */
export const PERSON_HISTORY_LIMIT = 100;

/** Product API path templates: the server's routes (all under the authenticated client). */
export const FUNNELS_PATHS = {
  funnels: '/api/funnels/',
  funnel: '/api/funnels/:id/',
  run: '/api/funnels/:id/run/',
  stop: '/api/funnels/:id/stop/',
  token: '/api/funnels/:id/token/',
  archive: '/api/funnels/:id/archive/',
  restore: '/api/funnels/:id/restore/',
  copy: '/api/funnels/:id/copy/',
  description: '/api/funnels/:id/description/',
  stages: '/api/funnels/:id/stages/',
  stageOrder: '/api/funnels/:id/stages/order/',
  stage: '/api/stages/:id/',
  stageMessage: '/api/stages/:id/message/',
  media: '/api/funnels/:id/media/',
  mediaFile: '/api/media/:id/',
  tags: '/api/funnels/:id/tags/',
  tag: '/api/tags/:id/',
  people: '/api/funnels/:id/people/',
  person: '/api/people/:id/',
  contactHistory: '/api/people/:id/contact-history/',
  personTags: '/api/people/:id/tags/',
  personTag: '/api/people/:id/tags/:tagId/',
  keywords: '/api/funnels/:id/keywords/',
  keyword: '/api/funnels/:id/keywords/:keywordId/',
  dashboard: '/api/dashboard/',
  stats: '/api/funnels/:id/stats/',
  inbox: '/api/funnels/:id/inbox/',
  personRead: '/api/people/:id/read/',
  personReply: '/api/people/:id/reply/',
} as const;

/** The same paths filled in, for the clients (the SPA and the tests). */
export const FUNNELS_API = {
  funnels: FUNNELS_PATHS.funnels,
  funnel: (id: number) => fillPath(FUNNELS_PATHS.funnel, { id }),
  run: (id: number) => fillPath(FUNNELS_PATHS.run, { id }),
  stop: (id: number) => fillPath(FUNNELS_PATHS.stop, { id }),
  token: (id: number) => fillPath(FUNNELS_PATHS.token, { id }),
  archive: (id: number) => fillPath(FUNNELS_PATHS.archive, { id }),
  restore: (id: number) => fillPath(FUNNELS_PATHS.restore, { id }),
  copy: (id: number) => fillPath(FUNNELS_PATHS.copy, { id }),
  description: (id: number) => fillPath(FUNNELS_PATHS.description, { id }),
  stages: (id: number) => fillPath(FUNNELS_PATHS.stages, { id }),
  stageOrder: (id: number) => fillPath(FUNNELS_PATHS.stageOrder, { id }),
  stage: (id: number) => fillPath(FUNNELS_PATHS.stage, { id }),
  stageMessage: (id: number) => fillPath(FUNNELS_PATHS.stageMessage, { id }),
  media: (id: number) => fillPath(FUNNELS_PATHS.media, { id }),
  mediaFile: (id: number) => fillPath(FUNNELS_PATHS.mediaFile, { id }),
  tags: (id: number) => fillPath(FUNNELS_PATHS.tags, { id }),
  tag: (id: number) => fillPath(FUNNELS_PATHS.tag, { id }),
  people: (id: number) => fillPath(FUNNELS_PATHS.people, { id }),
  person: (id: number) => fillPath(FUNNELS_PATHS.person, { id }),
  contactHistory: (id: number) => fillPath(FUNNELS_PATHS.contactHistory, { id }),
  stats: (id: number) => fillPath(FUNNELS_PATHS.stats, { id }),
  inbox: (id: number) => fillPath(FUNNELS_PATHS.inbox, { id }),
  personRead: (id: number) => fillPath(FUNNELS_PATHS.personRead, { id }),
  personReply: (id: number) => fillPath(FUNNELS_PATHS.personReply, { id }),
  personTags: (id: number) => fillPath(FUNNELS_PATHS.personTags, { id }),
  personTag: (id: number, tagId: number) => fillPath(FUNNELS_PATHS.personTag, { id, tagId }),
  dashboard: FUNNELS_PATHS.dashboard,
  keywords: (id: number) => fillPath(FUNNELS_PATHS.keywords, { id }),
  keyword: (id: number, keywordId: number) => fillPath(FUNNELS_PATHS.keyword, { id, keywordId }),
} as const;

/** Callback data of the next-step button: "next:<stage id it was sent from>". */
export const NEXT_STEP_CALLBACK_PREFIX = 'next:';

/**
 * Callback data of a choice button: "go:<stage it was sent from>:<stage it leads to>" (two ids of
 * at most 10 digits: far below Telegram's 64 bytes).
 */
export const CHOICE_CALLBACK_PREFIX = 'go:';
