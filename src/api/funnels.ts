// The product API's calls (contract/funnels.ts), on the authenticated client. Only the funnel
// screens import this, so it loads with their chunks.
import {
  FUNNELS_API,
  type BotDescription,
  type ContactHistoryEntry,
  type DashboardFunnel,
  type Funnel,
  type FunnelStats,
  type InboxPage,
  type Keyword,
  type KeywordBody,
  type KeywordPatch,
  type StageMessage,
  type StatsPeriod,
  type MessageContentBody,
  type MessageMedia,
  type PeoplePage,
  type PersonDetail,
  type RunCheck,
  type Stage,
  type StageBody,
  type StageCreateBody,
  type Tag,
  type TagBody,
} from '../../contract/funnels';
import { SOURCES_API, type FunnelSource, type SourceBody, type SourcePatch, type SourceStats } from '../../contract/sources';
import {
  WEBHOOKS_API,
  type FunnelWebhook,
  type FunnelWebhookWithSecret,
  type WebhookBody,
  type WebhookDelivery,
  type WebhookPatch,
  type WebhookSettings,
} from '../../contract/webhooks';
import { FIELDS_API, type FieldBody, type FieldPatch, type FunnelField, type PersonFieldValue, type StageAsk } from '../../contract/fields';
import { apiPath, authClient } from './clients';
import { timeZone } from './timeZone';

/** Uploads take as long as they take on a slow phone connection. */
const UPLOAD_TIMEOUT_MS = 10 * 60 * 1000;

const get = <T>(path: string, searchParams?: Record<string, string | number | boolean>) => authClient.get(apiPath(path), { searchParams }).json<T>();
const post = <T>(path: string, json?: unknown) => authClient.post(apiPath(path), { json }).json<T>();

export const listFunnels = (archived = false, folder?: number) =>
  get<Funnel[]>(FUNNELS_API.funnels, archived || folder ? { ...(archived ? { archived: 'true' } : {}), ...(folder ? { folder: String(folder) } : {}) } : undefined);
export const getFunnel = (id: number) => get<Funnel>(FUNNELS_API.funnel(id));
export const connectBot = (botToken: string) => post<Funnel>(FUNNELS_API.funnels, { bot_token: botToken });
export const renameFunnel = (id: number, name: string) => authClient.patch(apiPath(FUNNELS_API.funnel(id)), { json: { name } }).json<Funnel>();
export const replaceToken = (id: number, botToken: string) => authClient.put(apiPath(FUNNELS_API.token(id)), { json: { bot_token: botToken } }).json<Funnel>();
/** Why the funnel cannot run now (asks Telegram about the token too). */
export const checkRun = (id: number) => get<RunCheck>(FUNNELS_API.run(id));
export const runFunnel = (id: number) => post<Funnel>(FUNNELS_API.run(id));
export const stopFunnel = (id: number) => post<Funnel>(FUNNELS_API.stop(id));
export const archiveFunnel = (id: number) => post<Funnel>(FUNNELS_API.archive(id));
export const restoreFunnel = (id: number) => post<Funnel>(FUNNELS_API.restore(id));
export async function deleteFunnel(id: number): Promise<void> {
  await authClient.delete(apiPath(FUNNELS_API.funnel(id)));
}
export async function copyFunnel(id: number, targetFunnelId: number): Promise<void> {
  await authClient.post(apiPath(FUNNELS_API.copy(id)), { json: { target_funnel_id: targetFunnelId } });
}
export const getDescription = (id: number) => get<BotDescription>(FUNNELS_API.description(id));
export const setDescription = (id: number, body: BotDescription) =>
  authClient.put(apiPath(FUNNELS_API.description(id)), { json: body }).json<BotDescription>();

export const listStages = (funnelId: number) => get<Stage[]>(FUNNELS_API.stages(funnelId));
export const getStage = (id: number) => get<Stage>(FUNNELS_API.stage(id));
export const createStage = (funnelId: number, body: StageCreateBody) => post<Stage>(FUNNELS_API.stages(funnelId), body);
export const updateStage = (id: number, body: Partial<StageBody>) => authClient.patch(apiPath(FUNNELS_API.stage(id)), { json: body }).json<Stage>();
export async function deleteStage(id: number): Promise<void> {
  await authClient.delete(apiPath(FUNNELS_API.stage(id)));
}
export const reorderStages = (funnelId: number, stageIds: number[]) => post<Stage[]>(FUNNELS_API.stageOrder(funnelId), { stage_ids: stageIds });
export const saveMessage = (stageId: number, body: MessageContentBody) =>
  authClient.put(apiPath(FUNNELS_API.stageMessage(stageId)), { json: body }).json<StageMessage>();

export const listKeywords = (funnelId: number) => get<Keyword[]>(FUNNELS_API.keywords(funnelId));
export const createKeyword = (funnelId: number, body: KeywordBody) => post<Keyword>(FUNNELS_API.keywords(funnelId), body);
export const updateKeyword = (funnelId: number, keywordId: number, body: KeywordPatch) =>
  authClient.patch(apiPath(FUNNELS_API.keyword(funnelId, keywordId)), { json: body }).json<Keyword>();
export async function deleteKeyword(funnelId: number, keywordId: number): Promise<void> {
  await authClient.delete(apiPath(FUNNELS_API.keyword(funnelId, keywordId)));
}

export function uploadMedia(funnelId: number, file: File): Promise<MessageMedia> {
  return authClient
    .post(apiPath(FUNNELS_API.media(funnelId)), {
      body: file,
      headers: { 'content-type': file.type },
      searchParams: { filename: file.name },
      timeout: UPLOAD_TIMEOUT_MS,
    })
    .json<MessageMedia>();
}
/** The media file as a blob (the API wants the Authorization header, so no plain <img src>). */
export const fetchMedia = (id: number) => authClient.get(apiPath(FUNNELS_API.mediaFile(id))).blob();

export const listTags = (funnelId: number) => get<Tag[]>(FUNNELS_API.tags(funnelId));
export const createTag = (funnelId: number, body: TagBody) => post<Tag>(FUNNELS_API.tags(funnelId), body);
export const updateTag = (id: number, body: Partial<TagBody>) => authClient.patch(apiPath(FUNNELS_API.tag(id)), { json: body }).json<Tag>();
export async function deleteTag(id: number): Promise<void> {
  await authClient.delete(apiPath(FUNNELS_API.tag(id)));
}

export const listSources = (funnelId: number) => get<FunnelSource[]>(SOURCES_API.sources(funnelId));
export const createSource = (funnelId: number, body: SourceBody) => post<FunnelSource>(SOURCES_API.sources(funnelId), body);
export const updateSource = (funnelId: number, sourceId: number, body: SourcePatch) =>
  authClient.patch(apiPath(SOURCES_API.source(funnelId, sourceId)), { json: body }).json<FunnelSource>();
export async function deleteSource(funnelId: number, sourceId: number): Promise<void> {
  await authClient.delete(apiPath(SOURCES_API.source(funnelId, sourceId)));
}
export const getSourceStats = (funnelId: number, period: StatsPeriod) => get<SourceStats>(SOURCES_API.stats(funnelId), { tz: timeZone(), period });

export interface PeopleFilter {
  /** A stage id, or "none" for people whose stage was deleted. */
  stage?: number | 'none';
  tag?: number;
  /** A source id, or "none" for people who came by no source. */
  source?: number | 'none';
  /** A field of the funnel: people with a value of it (equal to field_value, any case, when given). */
  field?: number;
  field_value?: string;
  search?: string;
  limit?: number;
  offset?: number;
}
export const listPeople = (funnelId: number, query: PeopleFilter = {}) =>
  get<PeoplePage>(FUNNELS_API.people(funnelId), Object.fromEntries(Object.entries(query).filter(([, v]) => v !== undefined && v !== '')) as Record<string, string | number>);
/** Moves a person to a stage by hand. */
export const movePerson = (personId: number, stageId: number) => authClient.patch(apiPath(FUNNELS_API.person(personId)), { json: { stage_id: stageId } }).json<PersonDetail>();
export const getPerson = (id: number) => get<PersonDetail>(FUNNELS_API.person(id));
export const contactHistory = (id: number) => get<ContactHistoryEntry[]>(FUNNELS_API.contactHistory(id));
export async function addPersonTag(personId: number, tagId: number): Promise<void> {
  await authClient.post(apiPath(FUNNELS_API.personTags(personId)), { json: { tag_id: tagId } });
}
export async function removePersonTag(personId: number, tagId: number): Promise<void> {
  await authClient.delete(apiPath(FUNNELS_API.personTag(personId, tagId)));
}

/** Days (today, a period's first day) are the phone's own time zone's. */
export const getDashboard = (period: StatsPeriod = 'all') => get<DashboardFunnel[]>(FUNNELS_API.dashboard, { tz: timeZone(), period });
export const getStats = (funnelId: number, period: StatsPeriod) => get<FunnelStats>(FUNNELS_API.stats(funnelId), { tz: timeZone(), period });

export const getInbox = (funnelId: number, page = 1, size = 50) => get<InboxPage>(FUNNELS_API.inbox(funnelId), { limit: size, offset: (page - 1) * size });
export async function markRead(personId: number): Promise<void> {
  await authClient.post(apiPath(FUNNELS_API.personRead(personId)));
}
export const sendReply = (personId: number, text: string) => post<PersonDetail>(FUNNELS_API.personReply(personId), { text });
export const setInboxAlerts = (funnelId: number, on: boolean) => authClient.patch(apiPath(FUNNELS_API.funnel(funnelId)), { json: { inbox_alerts: on } }).json<Funnel>();

// Webhooks (issue 24): the incoming URL and the outgoing webhooks of a funnel.
export const getWebhookSettings = (funnelId: number) => get<WebhookSettings>(WEBHOOKS_API.settings(funnelId));
export const rotateInboundUrl = (funnelId: number) => post<WebhookSettings>(WEBHOOKS_API.rotateInbound(funnelId));
export const listWebhooks = (funnelId: number) => get<FunnelWebhook[]>(WEBHOOKS_API.webhooks(funnelId));
export const createWebhook = (funnelId: number, body: WebhookBody) => post<FunnelWebhookWithSecret>(WEBHOOKS_API.webhooks(funnelId), body);
export const updateWebhook = (funnelId: number, webhookId: number, body: WebhookPatch) =>
  authClient.patch(apiPath(WEBHOOKS_API.webhook(funnelId, webhookId)), { json: body }).json<FunnelWebhook>();
export async function deleteWebhook(funnelId: number, webhookId: number): Promise<void> {
  await authClient.delete(apiPath(WEBHOOKS_API.webhook(funnelId, webhookId)));
}
export const rotateWebhookSecret = (funnelId: number, webhookId: number) => post<FunnelWebhookWithSecret>(WEBHOOKS_API.rotateSecret(funnelId, webhookId));
export const listWebhookDeliveries = (funnelId: number, webhookId: number) => get<WebhookDelivery[]>(WEBHOOKS_API.deliveries(funnelId, webhookId));
export const testWebhook = (funnelId: number, webhookId: number) => post<WebhookDelivery>(WEBHOOKS_API.test(funnelId, webhookId));
/** The owner sets (an empty value clears) a person's value of a field; answers all their values. */
export const setPersonField = (personId: number, fieldId: number, value: string) =>
  authClient.put(apiPath(FIELDS_API.personField(personId, fieldId)), { json: { value } }).json<PersonFieldValue[]>();

// Fields and asks (issue 24, "ask and remember"): a funnel's fields and a stage's question.
export const listFields = (funnelId: number) => get<FunnelField[]>(FIELDS_API.fields(funnelId));
export const createField = (funnelId: number, body: FieldBody) => post<FunnelField>(FIELDS_API.fields(funnelId), body);
export const updateField = (funnelId: number, fieldId: number, body: FieldPatch) =>
  authClient.patch(apiPath(FIELDS_API.field(funnelId, fieldId)), { json: body }).json<FunnelField>();
export async function deleteField(funnelId: number, fieldId: number): Promise<void> {
  await authClient.delete(apiPath(FIELDS_API.field(funnelId, fieldId)));
}
export const setStageAsk = (funnelId: number, stageId: number, ask: StageAsk) =>
  authClient.put(apiPath(FIELDS_API.stageAsk(funnelId, stageId)), { json: ask }).json<Stage>();
export const clearStageAsk = (funnelId: number, stageId: number) => authClient.delete(apiPath(FIELDS_API.stageAsk(funnelId, stageId))).json<Stage>();
