// Funnel templates 'for affiliates' (issue 10): an admin publishes a funnel as a template, any
// user adds it to their funnels and connects their own bot. Limits and API paths; the shapes are
// TypeBox schemas in ./schemas/templates.ts (types re-exported here).
import { fillPath } from './paths';

export type * from './schemas/templates';

export const TEMPLATE_NAME_MAX = 128;
export const TEMPLATE_DESCRIPTION_MAX = 2000;
/** The cover picture: JPEG, PNG or WebP, at most 5 MB. */
export const TEMPLATE_COVER_MAX_BYTES = 5 * 1024 * 1024;
export const TEMPLATE_COVER_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;
/** Days of the publisher's chart. */
export const TEMPLATE_STATS_DAYS = 30;
/** What changed between the version a funnel was made from and the latest one. */
export const TEMPLATE_CHANGES = ['stages_added', 'stages_removed', 'stages_changed', 'tags_changed', 'letters_changed'] as const;
export type TemplateChange = (typeof TEMPLATE_CHANGES)[number];
export { TEMPLATE_START_PREFIX } from './templates-start';

export const TEMPLATES_PATHS = {
  templates: '/api/templates/',
  template: '/api/templates/:id/',
  versions: '/api/templates/:id/versions/',
  cover: '/api/templates/:id/cover/',
  /** A published template's public card (GET, no credentials needed). */
  card: '/api/templates/:id/card/',
  add: '/api/templates/:id/add/',
  stats: '/api/templates/:id/stats/',
  media: '/api/template-media/:id/',
  funnelTemplate: '/api/funnels/:id/template/',
  funnelTemplateUpdate: '/api/funnels/:id/template/update/',
} as const;

export const TEMPLATES_API = {
  templates: TEMPLATES_PATHS.templates,
  template: (id: number) => fillPath(TEMPLATES_PATHS.template, { id }),
  versions: (id: number) => fillPath(TEMPLATES_PATHS.versions, { id }),
  cover: (id: number) => fillPath(TEMPLATES_PATHS.cover, { id }),
  card: (id: number) => fillPath(TEMPLATES_PATHS.card, { id }),
  add: (id: number) => fillPath(TEMPLATES_PATHS.add, { id }),
  stats: (id: number) => fillPath(TEMPLATES_PATHS.stats, { id }),
  media: (id: number) => fillPath(TEMPLATES_PATHS.media, { id }),
  funnelTemplate: (id: number) => fillPath(TEMPLATES_PATHS.funnelTemplate, { id }),
  funnelTemplateUpdate: (id: number) => fillPath(TEMPLATES_PATHS.funnelTemplateUpdate, { id }),
} as const;
