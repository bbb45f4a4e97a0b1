// The templates API (contract/templates.ts), on the authenticated client. Only the template
// screens and the funnel screen's template section import this.
import type { Funnel } from '../../contract/funnels';
import { TEMPLATES_API, type CreateTemplateBody, type FunnelTemplate, type Template, type TemplateCard, type TemplateStats, type TemplateSummary, type UpdateTemplateBody } from '../../contract/templates';
import { apiPath, authClient, publicClient } from './clients';

export const listTemplates = () => authClient.get(apiPath(TEMPLATES_API.templates)).json<TemplateSummary[]>();
/** A published template's public card, for a visitor who is not signed in (no credentials). */
export const getTemplateCard = (id: number) => publicClient.get(apiPath(TEMPLATES_API.card(id))).json<TemplateCard>();
export const getTemplate = (id: number) => authClient.get(apiPath(TEMPLATES_API.template(id))).json<Template>();
export const createTemplate = (body: CreateTemplateBody) => authClient.post(apiPath(TEMPLATES_API.templates), { json: body }).json<Template>();
export const updateTemplate = (id: number, body: UpdateTemplateBody) => authClient.patch(apiPath(TEMPLATES_API.template(id)), { json: body }).json<Template>();
export const publishVersion = (id: number) => authClient.post(apiPath(TEMPLATES_API.versions(id))).json<Template>();
export const uploadCover = (id: number, file: File) =>
  authClient.put(apiPath(TEMPLATES_API.cover(id)), { body: file, headers: { 'content-type': file.type || 'application/octet-stream' }, timeout: 5 * 60 * 1000 }).json<Template>();
export const templateStats = (id: number) => authClient.get(apiPath(TEMPLATES_API.stats(id))).json<TemplateStats>();
export const addTemplate = (id: number) => authClient.post(apiPath(TEMPLATES_API.add(id))).json<Funnel>();
export const funnelTemplate = (funnelId: number) => authClient.get(apiPath(TEMPLATES_API.funnelTemplate(funnelId))).json<FunnelTemplate>();
export const applyTemplateUpdate = (funnelId: number) => authClient.post(apiPath(TEMPLATES_API.funnelTemplateUpdate(funnelId))).json<FunnelTemplate>();
/** Covers and the preview's media are public files: an <img> loads them by address. */
export const publicFile = (path: string) => `/${apiPath(path)}`;
