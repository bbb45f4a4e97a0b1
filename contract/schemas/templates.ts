// Every shape of the templates API, written once (see ./funnels.ts for how these are used). The
// SPA imports the types only, through contract/templates.ts.
import { Type, type Static } from 'typebox';
import { MEDIA_KINDS, STAGE_ICONS } from '../funnels';
import { TEMPLATE_CHANGES, TEMPLATE_DESCRIPTION_MAX, TEMPLATE_NAME_MAX } from '../templates';
import { Id, Nullable, StringEnum, Text } from './common';
import { UrlButtonSchema } from './funnels';

/** A template in the list. */
export const TemplateSummarySchema = Type.Object({
  id: Type.Integer(),
  name: Text(),
  description: Text(),
  /** The cover picture's address (GET, no credentials needed), or null. */
  cover_url: Nullable(Text()),
  stage_count: Type.Integer(),
  version: Type.Integer(),
  published: Type.Boolean(),
  /** The signed-in user published it (an admin): they may publish again, unpublish, see figures. */
  mine: Type.Boolean(),
  /** The funnel it is published from, for its publisher (null for everyone else, or once deleted). */
  source_funnel_id: Nullable(Type.Integer()),
  updated_at: Text(),
});
export type TemplateSummary = Static<typeof TemplateSummarySchema>;

/**
 * A published template's public card, for a visitor who is not signed in (its link): only what
 * the card shows, never who published it or from which funnel.
 */
export const TemplateCardSchema = Type.Object({
  id: Type.Integer(),
  name: Text(),
  description: Text(),
  cover_url: Nullable(Text()),
  stage_count: Type.Integer(),
  /** Letters in all its series. */
  letter_count: Type.Integer(),
});
export type TemplateCard = Static<typeof TemplateCardSchema>;

/** A stage as the template's preview shows it: the message as the chat will show it. */
export const TemplateStageSchema = Type.Object({
  title: Text(),
  icon: StringEnum(STAGE_ICONS),
  color: Text(),
  tag: Nullable(Text()),
  message: Type.Object({
    text: Text(),
    media: Nullable(Type.Object({ id: Type.Integer(), kind: StringEnum(MEDIA_KINDS), url: Text() })),
    buttons: Type.Array(UrlButtonSchema),
    next_button: Nullable(Type.Object({ text: Text() })),
  }),
});
export type TemplateStage = Static<typeof TemplateStageSchema>;

export const TemplateSchema = Type.Object({
  ...TemplateSummarySchema.properties,
  stages: Type.Array(TemplateStageSchema),
  tags: Type.Array(Type.Object({ title: Text(), color: Text() })),
  series: Type.Array(Type.Object({ name: Text(), letters: Type.Array(Type.Object({ name: Text() })) })),
});
export type Template = Static<typeof TemplateSchema>;

/** Publishing a funnel as a new template (admins). */
export const CreateTemplateBodySchema = Type.Object({
  funnel_id: Id(),
  name: Text(TEMPLATE_NAME_MAX, 1),
  description: Type.Optional(Text(TEMPLATE_DESCRIPTION_MAX)),
});
export type CreateTemplateBody = Static<typeof CreateTemplateBodySchema>;

export const UpdateTemplateBodySchema = Type.Object({
  name: Type.Optional(Text(TEMPLATE_NAME_MAX, 1)),
  description: Type.Optional(Text(TEMPLATE_DESCRIPTION_MAX)),
  published: Type.Optional(Type.Boolean()),
});
export type UpdateTemplateBody = Static<typeof UpdateTemplateBodySchema>;

/** Where a funnel made from a template stands against the template's latest version. */
export const FunnelTemplateSchema = Type.Object({
  template_id: Type.Integer(),
  name: Text(),
  version: Type.Integer(),
  latest_version: Type.Integer(),
  update_available: Type.Boolean(),
  changes: Type.Array(StringEnum(TEMPLATE_CHANGES)),
  /** The update can be applied: the funnel has never been run. */
  can_apply: Type.Boolean(),
});
export type FunnelTemplate = Static<typeof FunnelTemplateSchema>;

/** The publisher's figures: totals now, and per day over the last TEMPLATE_STATS_DAYS days. */
export const TemplateStatsSchema = Type.Object({
  added: Type.Integer(),
  connected: Type.Integer(),
  running: Type.Integer(),
  people: Type.Integer(),
  days: Type.Array(Type.Object({ date: Text(), added: Type.Integer(), people: Type.Integer() })),
});
export type TemplateStats = Static<typeof TemplateStatsSchema>;
