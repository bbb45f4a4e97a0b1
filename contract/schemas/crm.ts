// Every shape of the CRM folders and lists API, written once (see ./funnels.ts for how these are
// used). The SPA imports the types only, through contract/crm.ts.
import { Type, type Static } from 'typebox';
import { FOLDER_NAME_MAX, LIST_KINDS, LIST_MEMBERS_MAX, LIST_NAME_MAX } from '../crm';
import { ContactsFilterSchema } from './contacts';
import { Id, Nullable, QueryInt, StringEnum, Text } from './common';

/** A folder in the list. */
export const FolderSummarySchema = Type.Object({
  id: Type.Integer(),
  name: Text(),
  has_picture: Type.Boolean(),
  has_background: Type.Boolean(),
  /** Changes whenever a picture or the background changes (a cache key for them). */
  image_version: Text(),
  archived: Type.Boolean(),
  funnel_count: Type.Integer(),
  list_count: Type.Integer(),
  contact_count: Type.Integer(),
  created_at: Text(),
});
export type FolderSummary = Static<typeof FolderSummarySchema>;

const FolderFunnelSchema = Type.Object({
  id: Type.Integer(),
  name: Text(),
  bot_username: Nullable(Text()),
  state: StringEnum(['draft', 'running', 'stopped']),
  people_count: Type.Integer(),
});
export type FolderFunnel = Static<typeof FolderFunnelSchema>;

export const ContactListSchema = Type.Object({
  id: Type.Integer(),
  name: Text(),
  kind: StringEnum(LIST_KINDS),
  folder_id: Nullable(Type.Integer()),
  /** A segment's filter; null for a static list. */
  filter: Nullable(ContactsFilterSchema),
  /** People in it now (a segment: who match its filter now). */
  count: Type.Integer(),
  created_at: Text(),
});
export type ContactList = Static<typeof ContactListSchema>;

/** A folder's screen: its funnels (and archived ones), templates, lists and contacts count. */
export const FolderSchema = Type.Object({
  ...FolderSummarySchema.properties,
  funnels: Type.Array(FolderFunnelSchema),
  archived_funnels: Type.Array(FolderFunnelSchema),
  templates: Type.Array(Type.Object({ id: Type.Integer(), name: Text(), has_cover: Type.Boolean(), published: Type.Boolean() })),
  lists: Type.Array(ContactListSchema),
});
export type Folder = Static<typeof FolderSchema>;

export const FolderBodySchema = Type.Object({ name: Text(FOLDER_NAME_MAX, 1) });
export type FolderBody = Static<typeof FolderBodySchema>;

export const FoldersQuerySchema = Type.Object({ archived: Type.Optional(StringEnum(['true', 'false'])) });
export type FoldersQuery = Static<typeof FoldersQuerySchema>;

export const FolderFunnelBodySchema = Type.Object({ funnel_id: Id() });
export const FolderTemplateBodySchema = Type.Object({ template_id: Id() });

export const ListsQuerySchema = Type.Object({ folder: Type.Optional(QueryInt(9)) });
export type ListsQuery = Static<typeof ListsQuerySchema>;

/**
 * A new list: a segment with its filter (live), or a static list with the people picked and/or
 * everyone its filter matches now (kept as they are; the filter itself is not stored).
 */
export const ListBodySchema = Type.Object({
  name: Text(LIST_NAME_MAX, 1),
  kind: StringEnum(LIST_KINDS),
  folder_id: Type.Optional(Nullable(Id())),
  filter: Type.Optional(ContactsFilterSchema),
  person_ids: Type.Optional(Type.Array(Id(), { maxItems: LIST_MEMBERS_MAX })),
});
export type ListBody = Static<typeof ListBodySchema>;

export const ListPatchSchema = Type.Partial(Type.Object({ name: Text(LIST_NAME_MAX, 1), folder_id: Nullable(Id()), filter: ContactsFilterSchema }));
export type ListPatch = Static<typeof ListPatchSchema>;

export const ListMembersBodySchema = Type.Object({ person_ids: Type.Array(Id(), { minItems: 1, maxItems: LIST_MEMBERS_MAX }) });
export type ListMembersBody = Static<typeof ListMembersBodySchema>;
export const ListMembersResultSchema = Type.Object({ changed: Type.Integer(), unchanged: Type.Integer() });
export type ListMembersResult = Static<typeof ListMembersResultSchema>;
