// JSON schemas of the product API: Fastify refuses bad input with these before a handler runs,
// and serializes answers through the response schemas (nothing unlisted — such as a token —
// can leak out).
import {
  BOT_DESCRIPTION_MAX,
  BOT_SHORT_DESCRIPTION_MAX,
  BUTTON_TEXT_MAX,
  COLOR_PATTERN,
  FUNNEL_NAME_MAX,
  STAGE_ICONS,
  STAGE_TITLE_MAX,
  STAGES_MAX,
  TAG_TITLE_MAX,
  URL_BUTTONS_MAX,
} from '../../../contract/funnels';
import { MAX_ID } from '../../funnels/access';
import { INVALID_MESSAGE_KEYWORD } from '../errors';

/** PostgreSQL text cannot hold NUL; DRF refuses it too. */
const NO_NUL = '^[^\\u0000]*$';
/** Raw HTML of a message may be longer than its visible text, but not unboundedly. */
export const MESSAGE_HTML_MAX = 16_384;
export const BUTTON_URL_MAX = 2048;

const str = (maxLength: number, minLength = 0) => ({ type: 'string', maxLength, ...(minLength ? { minLength } : {}), pattern: NO_NUL }) as const;
const id = { type: 'integer', minimum: 1, maximum: MAX_ID } as const;
const nullableId = { type: ['integer', 'null'], minimum: 1, maximum: MAX_ID } as const;
const color = { type: 'string', pattern: COLOR_PATTERN, [INVALID_MESSAGE_KEYWORD]: 'Enter a valid colour: #rrggbb.' } as const;
const queryInt = { type: 'string', pattern: '^[0-9]{1,9}$', [INVALID_MESSAGE_KEYWORD]: 'A valid integer is required.' } as const;

const object = (properties: Record<string, unknown>, required: string[] = []) => ({ type: 'object', properties, required }) as const;

// --- responses -----------------------------------------------------------------------------------
const integer = { type: 'integer' } as const;
const string = { type: 'string' } as const;
const boolean = { type: 'boolean' } as const;
const nullableString = { type: ['string', 'null'] } as const;
const nullableInteger = { type: ['integer', 'null'] } as const;

const all = (properties: Record<string, unknown>) => ({ type: 'object', properties, required: Object.keys(properties) }) as const;

export const funnelResponse = all({
  id: integer,
  name: string,
  bot_id: integer,
  bot_username: string,
  bot_token_hint: string,
  state: string,
  stop_reason: nullableString,
  archived: boolean,
  stage_order_locked: boolean,
  people_count: integer,
  stage_count: integer,
  created_at: string,
});

const mediaResponse = all({ id: integer, kind: string, content_type: string, size: integer, filename: string });
const buttonResponse = all({ text: string, url: string });
export const messageResponse = all({
  text: string,
  media: { ...mediaResponse, type: ['object', 'null'] },
  buttons: { type: 'array', items: buttonResponse },
  next_button: { type: ['object', 'null'], properties: { text: string }, required: ['text'] },
});
export const stageResponse = all({
  id: integer,
  funnel_id: integer,
  title: string,
  icon: string,
  color: string,
  position: integer,
  tag_id: nullableInteger,
  message: messageResponse,
  people_count: integer,
});
export const tagResponse = all({ id: integer, funnel_id: integer, title: string, color: string, people_count: integer });
const personProperties = {
  id: integer,
  funnel_id: integer,
  telegram_id: integer,
  first_name: string,
  last_name: string,
  username: nullableString,
  stage_id: nullableInteger,
  tag_ids: { type: 'array', items: integer },
  blocked: boolean,
  joined_at: string,
  last_seen_at: string,
};
export const personResponse = all(personProperties);
export const personDetailResponse = all({
  ...personProperties,
  history: {
    type: 'array',
    items: all({ id: integer, direction: string, kind: string, text: string, stage_id: nullableInteger, created_at: string }),
  },
});
export const descriptionResponse = all({ description: string, short_description: string });
export const dashboardResponse = {
  type: 'array',
  items: all({
    id: integer,
    name: string,
    bot_username: string,
    state: string,
    stages: { type: 'array', items: all({ id: integer, title: string, color: string, icon: string, people_count: integer }) },
    people_count: integer,
    today: all({ new_people: integer, messages_sent: integer, stage_moves: integer }),
  }),
} as const;

const listOf = (items: unknown) => ({ type: 'array', items }) as const;

// --- routes ----------------------------------------------------------------------------------------
export const listFunnelsSchema = {
  querystring: object({ archived: { type: 'string', enum: ['true', 'false'] } }),
  response: { 200: listOf(funnelResponse) },
};
export const createFunnelSchema = {
  body: object({ bot_token: str(200, 1), name: str(FUNNEL_NAME_MAX) }, ['bot_token']),
  response: { 201: funnelResponse },
};
export const funnelSchema = { response: { 200: funnelResponse } };
export const updateFunnelSchema = { body: object({ name: str(FUNNEL_NAME_MAX, 1) }), response: { 200: funnelResponse } };
export const copyFunnelSchema = { body: object({ target_funnel_id: id }, ['target_funnel_id']), response: { 200: funnelResponse } };
export const descriptionSchema = { response: { 200: descriptionResponse } };
export const setDescriptionSchema = {
  body: object({ description: str(BOT_DESCRIPTION_MAX), short_description: str(BOT_SHORT_DESCRIPTION_MAX) }, ['description', 'short_description']),
  response: { 200: descriptionResponse },
};

const stageFields = {
  title: str(STAGE_TITLE_MAX, 1),
  icon: { type: 'string', enum: [...STAGE_ICONS] },
  color,
  tag_id: nullableId,
};
export const listStagesSchema = { response: { 200: listOf(stageResponse) } };
export const createStageSchema = { body: object(stageFields, ['title']), response: { 201: stageResponse } };
export const stageSchema = { response: { 200: stageResponse } };
export const updateStageSchema = { body: object(stageFields), response: { 200: stageResponse } };
export const stageOrderSchema = {
  body: object({ stage_ids: { type: 'array', items: id, maxItems: STAGES_MAX } }, ['stage_ids']),
  response: { 200: listOf(stageResponse) },
};
export const stageMessageSchema = {
  body: object(
    {
      text: { type: 'string', maxLength: MESSAGE_HTML_MAX, pattern: NO_NUL },
      media_id: nullableId,
      buttons: {
        type: 'array',
        maxItems: URL_BUTTONS_MAX,
        // Missing nested fields are reported by the service under the outer name ("buttons"):
        // the central formatter would name the inner field alone.
        items: object({ text: str(BUTTON_TEXT_MAX, 1), url: str(BUTTON_URL_MAX, 1) }),
      },
      next_button: { type: ['object', 'null'], properties: { text: str(BUTTON_TEXT_MAX, 1) } },
    },
    ['text'],
  ),
  response: { 200: messageResponse },
};

export const listTagsSchema = { response: { 200: listOf(tagResponse) } };
const tagFields = { title: str(TAG_TITLE_MAX, 1), color };
export const createTagSchema = { body: object(tagFields, ['title']), response: { 201: tagResponse } };
export const tagSchema = { response: { 200: tagResponse } };
export const updateTagSchema = { body: object(tagFields), response: { 200: tagResponse } };

export const listPeopleSchema = {
  querystring: object({ stage: queryInt, tag: queryInt, limit: queryInt, offset: queryInt }),
  response: { 200: all({ count: integer, results: listOf(personResponse) }) },
};
export const personSchema = { response: { 200: personDetailResponse } };
export const addPersonTagSchema = { body: object({ tag_id: id }, ['tag_id']), response: { 201: personDetailResponse } };

export const mediaSchema = { response: { 201: mediaResponse } };
export const dashboardSchema = { querystring: object({ tz: str(64) }), response: { 200: dashboardResponse } };
