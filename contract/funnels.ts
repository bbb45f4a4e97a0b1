// The funnel domain as the SPA, the API and the bot runtime all see it (issue 3).
// The runtime and the builder share these shapes; neither imports the other.

/** Telegram's limits (Bot API). */
export const MESSAGE_TEXT_MAX = 4096;
export const CAPTION_MAX = 1024;
export const PHOTO_MAX_BYTES = 10 * 1024 * 1024;
export const VIDEO_MAX_BYTES = 50 * 1024 * 1024;

export type MediaKind = 'photo' | 'video';
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

/** Our own limits. */
export const FUNNEL_NAME_MAX = 128;
export const STAGE_TITLE_MAX = 128;
export const TAG_TITLE_MAX = 64;
export const STAGES_MAX = 100;
export const TAGS_MAX = 100;

export const STAGE_ICONS = ['flag', 'gift', 'star', 'fire', 'heart', 'bolt', 'chat', 'cart', 'money', 'book', 'video', 'check'] as const;
export type StageIcon = (typeof STAGE_ICONS)[number];
/** Colours offered for stages and tags (any #rrggbb is accepted). */
export const PALETTE = ['#2481cc', '#34c759', '#ff9500', '#ff3b30', '#af52de', '#5ac8fa', '#ffcc00', '#8e8e93'] as const;
export const COLOR_PATTERN = '^#[0-9a-fA-F]{6}$';

export type FunnelState = 'draft' | 'running' | 'stopped';
/** Why the runtime stopped a funnel by itself (shown to its owner). */
export type StopReason = 'token_revoked' | null;

export interface Funnel {
  id: number;
  name: string;
  bot_id: number;
  bot_username: string;
  /** The token is never sent back in full: "123456:AA…xyz". */
  bot_token_hint: string;
  state: FunnelState;
  stop_reason: StopReason;
  archived: boolean;
  /** True once the bot has been run: stages can no longer be reordered. */
  stage_order_locked: boolean;
  people_count: number;
  stage_count: number;
  created_at: string;
}

export interface CreateFunnelBody { bot_token: string; name?: string }
export interface UpdateFunnelBody { name?: string }
export interface CopyFunnelBody { target_funnel_id: number }
export interface BotDescription { description: string; short_description: string }

export interface UrlButton { text: string; url: string }
export interface MessageMedia { id: number; kind: MediaKind; content_type: string; size: number; filename: string }
/** A stage's message: Telegram HTML text, optional media, URL buttons and a next-step button. */
export interface MessageContent {
  text: string;
  media: MessageMedia | null;
  buttons: UrlButton[];
  /** Moves the person to the next stage; null = no such button. */
  next_button: { text: string } | null;
}
export interface MessageContentBody {
  text: string;
  media_id: number | null;
  buttons: UrlButton[];
  next_button: { text: string } | null;
}

export interface Stage {
  id: number;
  funnel_id: number;
  title: string;
  icon: StageIcon;
  color: string;
  position: number;
  /** Everyone who reaches the stage gets this tag. */
  tag_id: number | null;
  message: MessageContent;
  people_count: number;
}
export interface StageBody { title: string; icon?: StageIcon; color?: string; tag_id?: number | null }
export interface StageOrderBody { stage_ids: number[] }

export interface Tag { id: number; funnel_id: number; title: string; color: string; people_count: number }
export interface TagBody { title: string; color?: string }

export interface Person {
  id: number;
  funnel_id: number;
  telegram_id: number;
  first_name: string;
  last_name: string;
  username: string | null;
  stage_id: number | null;
  tag_ids: number[];
  blocked: boolean;
  joined_at: string;
  last_seen_at: string;
}
export interface HistoryEntry {
  id: number;
  direction: 'in' | 'out';
  /** in: text or command the person wrote, or a button they pressed; out: a stage message sent. */
  kind: 'text' | 'command' | 'button' | 'stage_message';
  text: string;
  stage_id: number | null;
  created_at: string;
}
export interface PersonDetail extends Person { history: HistoryEntry[] }
/** GET people/ (?stage=&tag=&limit=&offset=): newest first; count is the total matching. */
export interface PeoplePage { count: number; results: Person[] }
export const PEOPLE_PAGE_DEFAULT = 50;
export const PEOPLE_PAGE_MAX = 200;
/** History entries on a person's page (newest first). */
export const PERSON_HISTORY_LIMIT = 100;

export interface DashboardFunnel {
  id: number;
  name: string;
  bot_username: string;
  state: FunnelState;
  stages: Array<{ id: number; title: string; color: string; icon: StageIcon; people_count: number }>;
  people_count: number;
  today: { new_people: number; messages_sent: number; stage_moves: number };
}

/** Product API paths (all under the authenticated client). */
export const FUNNELS_API = {
  funnels: '/api/funnels/',
  funnel: (id: number) => `/api/funnels/${id}/`,
  run: (id: number) => `/api/funnels/${id}/run/`,
  stop: (id: number) => `/api/funnels/${id}/stop/`,
  archive: (id: number) => `/api/funnels/${id}/archive/`,
  restore: (id: number) => `/api/funnels/${id}/restore/`,
  copy: (id: number) => `/api/funnels/${id}/copy/`,
  description: (id: number) => `/api/funnels/${id}/description/`,
  stages: (funnelId: number) => `/api/funnels/${funnelId}/stages/`,
  stageOrder: (funnelId: number) => `/api/funnels/${funnelId}/stages/order/`,
  stage: (id: number) => `/api/stages/${id}/`,
  stageMessage: (id: number) => `/api/stages/${id}/message/`,
  media: (funnelId: number) => `/api/funnels/${funnelId}/media/`,
  mediaFile: (id: number) => `/api/media/${id}/`,
  tags: (funnelId: number) => `/api/funnels/${funnelId}/tags/`,
  tag: (id: number) => `/api/tags/${id}/`,
  people: (funnelId: number) => `/api/funnels/${funnelId}/people/`,
  person: (id: number) => `/api/people/${id}/`,
  personTags: (id: number) => `/api/people/${id}/tags/`,
  personTag: (id: number, tagId: number) => `/api/people/${id}/tags/${tagId}/`,
  dashboard: '/api/dashboard/',
} as const;

/** Callback data of the next-step button: "next:<stage id it was sent from>". */
export const NEXT_STEP_CALLBACK_PREFIX = 'next:';
