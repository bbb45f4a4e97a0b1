// The product API's routes as Fastify sees them: which contract schema (contract/schemas/funnels.ts)
// checks each body and query, and which serializes each answer. No shape is written here.
import { Type } from 'typebox';
import {
  BotDescriptionSchema,
  CopyFunnelBodySchema,
  CreateFunnelBodySchema,
  DashboardFunnelSchema,
  DashboardQuerySchema,
  FunnelListQuerySchema,
  FunnelSchema,
  MediaUploadQuerySchema,
  StageMessageInputSchema,
  StageMessageSchema,
  MessageMediaSchema,
  PeoplePageSchema,
  PeopleQuerySchema,
  PersonDetailSchema,
  ContactHistoryEntrySchema,
  PersonPatchSchema,
  InboxPageSchema,
  InboxQuerySchema,
  ReplyBodySchema,
  PersonTagBodySchema,
  FunnelStatsSchema,
  KeywordBodySchema,
  KeywordPatchSchema,
  KeywordSchema,
  StatsQuerySchema,
  ReplaceTokenBodySchema,
  RunCheckSchema,
  StageCreateBodySchema,
  StageOrderBodySchema,
  StagePatchSchema,
  StageSchema,
  TagBodySchema,
  TagPatchSchema,
  TagSchema,
  UpdateFunnelBodySchema,
} from '../../../contract/schemas/funnels';

/** A path's :id, as text: the handler parses it (anything but an id of ours is 404, not 400). */
const params = Type.Object({ id: Type.String() });
/** DELETE people/:id/tags/:tagId/ */
export const personTagSchema = { params: Type.Object({ id: Type.String(), tagId: Type.String() }) };
export const byIdSchema = { params };

export const listFunnelsSchema = { querystring: FunnelListQuerySchema, response: { 200: Type.Array(FunnelSchema) } };
export const createFunnelSchema = { body: CreateFunnelBodySchema, response: { 201: FunnelSchema } };
export const funnelSchema = { params, response: { 200: FunnelSchema } };
export const updateFunnelSchema = { params, body: UpdateFunnelBodySchema, response: { 200: FunnelSchema } };
export const replaceTokenSchema = { params, body: ReplaceTokenBodySchema, response: { 200: FunnelSchema } };
export const runCheckSchema = { params, response: { 200: RunCheckSchema } };
export const copyFunnelSchema = { params, body: CopyFunnelBodySchema, response: { 200: FunnelSchema } };
export const descriptionSchema = { params, response: { 200: BotDescriptionSchema } };
export const setDescriptionSchema = { params, body: BotDescriptionSchema, response: { 200: BotDescriptionSchema } };

export const listStagesSchema = { params, response: { 200: Type.Array(StageSchema) } };
export const createStageSchema = { params, body: StageCreateBodySchema, response: { 201: StageSchema } };
export const stageSchema = { params, response: { 200: StageSchema } };
export const updateStageSchema = { params, body: StagePatchSchema, response: { 200: StageSchema } };
export const stageOrderSchema = { params, body: StageOrderBodySchema, response: { 200: Type.Array(StageSchema) } };
export const stageMessageSchema = { params, body: StageMessageInputSchema, response: { 200: StageMessageSchema } };

export const listTagsSchema = { params, response: { 200: Type.Array(TagSchema) } };
export const createTagSchema = { params, body: TagBodySchema, response: { 201: TagSchema } };
export const tagSchema = { params, response: { 200: TagSchema } };
export const updateTagSchema = { params, body: TagPatchSchema, response: { 200: TagSchema } };

export const listPeopleSchema = { params, querystring: PeopleQuerySchema, response: { 200: PeoplePageSchema } };
export const personSchema = { params, response: { 200: PersonDetailSchema } };
export const contactHistorySchema = { params, response: { 200: Type.Array(ContactHistoryEntrySchema) } };
export const addPersonTagSchema = { params, body: PersonTagBodySchema, response: { 201: PersonDetailSchema } };

export const mediaSchema = { params, querystring: MediaUploadQuerySchema, response: { 201: MessageMediaSchema } };
export const dashboardSchema = { querystring: DashboardQuerySchema, response: { 200: Type.Array(DashboardFunnelSchema) } };
export const statsSchema = { params, querystring: StatsQuerySchema, response: { 200: FunnelStatsSchema } };
export const movePersonSchema = { params, body: PersonPatchSchema, response: { 200: PersonDetailSchema } };
export const inboxSchema = { params, querystring: InboxQuerySchema, response: { 200: InboxPageSchema } };
export const replySchema = { params, body: ReplyBodySchema, response: { 201: PersonDetailSchema } };

/** keywords/:keywordId/ under a funnel. */
const keywordParams = Type.Object({ id: Type.String(), keywordId: Type.String() });
export const listKeywordsSchema = { params, response: { 200: Type.Array(KeywordSchema) } };
export const createKeywordSchema = { params, body: KeywordBodySchema, response: { 201: KeywordSchema } };
export const updateKeywordSchema = { params: keywordParams, body: KeywordPatchSchema, response: { 200: KeywordSchema } };
export const keywordSchema = { params: keywordParams };
