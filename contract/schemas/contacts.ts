// Every shape of the contacts API, written once (see ./funnels.ts for how these are used). The
// SPA imports the types only, through contract/contacts.ts.
import { Type, type Static } from 'typebox';
import { BULK_TAG_MAX, LANGUAGES } from '../constants';
import { NO_STAGE, PEOPLE_SEARCH_MAX, TIME_ZONE_MAX } from '../funnels';
import { FIELD_VALUE_MAX } from '../fields';
import { NO_SOURCE } from '../sources';
import { Day, Id, INVALID_MESSAGE_KEYWORD, Nullable, PatternText, StringEnum, Text } from './common';

/**
 * Which contacts: the one filter shape of the contacts screen's address, the contacts API's
 * query and a saved segment's stored filter, and the input of server/contacts/criteria.ts. A
 * segment's filter never names a list (see ContactsQuerySchema), so a segment never recurses.
 */
export const ContactsFilterSchema = Type.Object(
  {
    /** Part of the name or username, any case. */
    search: Type.Optional(Text(PEOPLE_SEARCH_MAX)),
    funnel: Type.Optional(Id()),
    /** People of the funnels in this CRM folder. */
    folder: Type.Optional(Id()),
    /** A stage id, or "none" for people whose stage was deleted. */
    stage: Type.Optional(PatternText(`^([0-9]{1,9}|${NO_STAGE})$`, 'A stage id or "none" is required.')),
    tag: Type.Optional(Id()),
    /** A source id, or "none" for people who came by no source. */
    source: Type.Optional(PatternText(`^([0-9]{1,9}|${NO_SOURCE})$`, 'A source id or "none" is required.')),
    /** People who have a value of this field (a field belongs to one funnel, so the id names it). */
    field: Type.Optional(Id()),
    /** With `field`: people whose value equals this, any case. */
    field_value: Type.Optional(Text(FIELD_VALUE_MAX, 1)),
    blocked: Type.Optional(Type.Boolean()),
    /** Joined on or after this day, on or before that one (UTC). */
    joined_from: Type.Optional(Day()),
    joined_to: Type.Optional(Day()),
  },
  { additionalProperties: false },
);
export type ContactsFilter = Static<typeof ContactsFilterSchema>;

/** A whole number of a page's bounds, with the message a query's number has. */
const PageBound = () => Type.Integer({ minimum: 0, maximum: 999_999_999, [INVALID_MESSAGE_KEYWORD]: 'A valid integer is required.' });

/**
 * The contacts list's and its CSV export's query: the filter, narrowed to the people of one of
 * the user's lists, and a page of them. Query values arrive as text: the server reads ids as
 * numbers and "true"/"false" as booleans before it checks them (server/http/contacts/routes.ts).
 */
export const ContactsQuerySchema = Type.Object({
  ...ContactsFilterSchema.properties,
  /** People in this list (a static list's members, or who match a segment's filter). */
  list: Type.Optional(Id()),
  limit: Type.Optional(PageBound()),
  offset: Type.Optional(PageBound()),
});
export type ContactsQuery = Static<typeof ContactsQuerySchema>;

/**
 * The CSV export's query: the list's, and how a person reads the file: the headers in the app's
 * language and the times in the app's time zone (an IANA name, as the stats take it).
 */
export const ContactsExportQuerySchema = Type.Object({
  ...ContactsQuerySchema.properties,
  lang: Type.Optional(StringEnum(LANGUAGES)),
  tz: Type.Optional(Text(TIME_ZONE_MAX)),
});
export type ContactsExportQuery = Static<typeof ContactsExportQuerySchema>;

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
  source_id: Nullable(Type.Integer()),
  source_name: Nullable(Text()),
  /** The person's field values, in the funnel's order of fields. */
  fields: Type.Array(Type.Object({ field_id: Type.Integer(), title: Text(), value: Text() })),
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
