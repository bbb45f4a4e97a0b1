// Every shape of the contacts API, written once (see ./funnels.ts for how these are used). The
// SPA imports the types only, through contract/contacts.ts.
import { Type, type Static } from 'typebox';
import { BULK_TAG_MAX } from '../constants';
import { NO_STAGE, PEOPLE_SEARCH_MAX } from '../funnels';
import { Day, Id, Nullable, PatternText, QueryInt, StringEnum, Text } from './common';

/** The filters of the contacts list and of its CSV export. */
export const ContactsQuerySchema = Type.Object({
  /** Part of the name or username, any case. */
  search: Type.Optional(Text(PEOPLE_SEARCH_MAX)),
  funnel: Type.Optional(QueryInt(9)),
  /** People of the funnels in this CRM folder. */
  folder: Type.Optional(QueryInt(9)),
  /** People in this list (a static list's members, or who match a segment's filter). */
  list: Type.Optional(QueryInt(9)),
  /** A stage id, or "none" for people whose stage was deleted. */
  stage: Type.Optional(PatternText(`^([0-9]{1,9}|${NO_STAGE})$`, 'A stage id or "none" is required.')),
  tag: Type.Optional(QueryInt(9)),
  /** Joined on or after this day, on or before that one (UTC). */
  joined_from: Type.Optional(Day()),
  joined_to: Type.Optional(Day()),
  blocked: Type.Optional(StringEnum(['true', 'false'])),
  limit: Type.Optional(QueryInt(9)),
  offset: Type.Optional(QueryInt(9)),
});
export type ContactsQuery = Static<typeof ContactsQuerySchema>;

export const ContactSchema = Type.Object({
  id: Type.Integer(),
  funnel_id: Type.Integer(),
  funnel_name: Text(),
  bot_username: Nullable(Text()),
  telegram_id: Type.Integer(),
  first_name: Text(),
  last_name: Text(),
  username: Nullable(Text()),
  stage_id: Nullable(Type.Integer()),
  stage_title: Nullable(Text()),
  tags: Type.Array(Type.Object({ id: Type.Integer(), title: Text(), color: Text() })),
  blocked: Type.Boolean(),
  joined_at: Text(),
  last_seen_at: Text(),
});
export type Contact = Static<typeof ContactSchema>;

export const ContactsPageSchema = Type.Object({ count: Type.Integer(), results: Type.Array(ContactSchema) });
export type ContactsPage = Static<typeof ContactsPageSchema>;

/** Tag or untag many people at once: a tag belongs to one funnel, so only that funnel's people change. */
export const BulkTagBodySchema = Type.Object({
  person_ids: Type.Array(Id(), { minItems: 1, maxItems: BULK_TAG_MAX }),
  tag_id: Id(),
  action: StringEnum(['add', 'remove']),
});
export type BulkTagBody = Static<typeof BulkTagBodySchema>;

export const BulkTagResultSchema = Type.Object({
  /** People who got (or lost) the tag now. */
  changed: Type.Integer(),
  /** People of other funnels, people not the user's, and those who already had (or lacked) it. */
  unchanged: Type.Integer(),
});
export type BulkTagResult = Static<typeof BulkTagResultSchema>;
