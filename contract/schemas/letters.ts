// Every shape of the series-of-letters API, written once (see ./funnels.ts for how these are
// used). The SPA imports the types only, through contract/letters.ts.
import { Type, type Static } from 'typebox';
import { CATCH_UP_HOURS_MAX, JOIN_TRIGGERS, LETTER_NAME_MAX, LETTER_OUTCOMES, SERIES_NAME_MAX } from '../letters';
import { TIME_ZONE_MAX } from '../funnels';
import { Id, Nullable, StringEnum, Text } from './common';
import { MessageContentInputSchema, MessageContentSchema } from './funnels';

/**
 * A sending time as sent: checked by the service (contract/recurrence.ts validateSendingTime), so
 * a bad value answers the product's 'Incorrect data' under `sending_time`, not a schema message.
 */
export const SendingTimeSchema = Type.Object({
  kind: Text(),
  every: Type.Number(),
  unit: Text(),
  time_of_day: Type.Optional(Nullable(Text(5))),
});

export const JoinOnSchema = Type.Object({ on: StringEnum(JOIN_TRIGGERS), stage_id: Nullable(Id()), tag_id: Nullable(Id()) });
export const LeaveOnSchema = Type.Object({ stage_id: Nullable(Id()), tag_id: Nullable(Id()) });

export const LetterSchema = Type.Object({
  id: Type.Integer(),
  series_id: Type.Integer(),
  position: Type.Integer(),
  name: Text(),
  message: MessageContentSchema,
  sending_time: Nullable(
    Type.Object({ kind: StringEnum(['through', 'every']), every: Type.Integer(), unit: StringEnum(['years', 'months', 'days', 'hours']), time_of_day: Nullable(Text()) }),
  ),
  enabled: Type.Boolean(),
  /** Messages of this letter delivered so far. */
  sent_count: Type.Integer(),
});
export type Letter = Static<typeof LetterSchema>;

export const SeriesSchema = Type.Object({
  id: Type.Integer(),
  funnel_id: Type.Integer(),
  name: Text(),
  join_on: JoinOnSchema,
  leave_on: LeaveOnSchema,
  time_zone: Text(),
  catch_up_hours: Type.Integer(),
  enabled: Type.Boolean(),
  members_count: Type.Integer(),
  letters: Type.Array(LetterSchema),
  created_at: Text(),
});
export type Series = Static<typeof SeriesSchema>;

export const SeriesBodySchema = Type.Object({
  name: Text(SERIES_NAME_MAX, 1),
  join_on: Type.Optional(JoinOnSchema),
  leave_on: Type.Optional(LeaveOnSchema),
  time_zone: Type.Optional(Text(TIME_ZONE_MAX, 1)),
  catch_up_hours: Type.Optional(Type.Integer({ minimum: 1, maximum: CATCH_UP_HOURS_MAX })),
});
export type SeriesBody = Static<typeof SeriesBodySchema>;
export const SeriesPatchSchema = Type.Partial(SeriesBodySchema);
export type SeriesPatch = Static<typeof SeriesPatchSchema>;

export const LetterBodySchema = Type.Object({
  name: Text(LETTER_NAME_MAX, 1),
  message: MessageContentInputSchema,
  sending_time: Type.Optional(Nullable(SendingTimeSchema)),
  enabled: Type.Optional(Type.Boolean()),
});
export type LetterBody = Static<typeof LetterBodySchema>;
export const LetterPatchSchema = Type.Partial(LetterBodySchema);
export type LetterPatch = Static<typeof LetterPatchSchema>;

export const MemberBodySchema = Type.Object({ person_id: Id() });

export const LetterHistorySchema = Type.Object({
  count: Type.Integer(),
  results: Type.Array(
    Type.Object({
      person_id: Type.Integer(),
      first_name: Text(),
      last_name: Text(),
      username: Nullable(Text()),
      state: StringEnum(LETTER_OUTCOMES),
      moment: Text(),
      sent_at: Nullable(Text()),
    }),
  ),
});
export type LetterHistory = Static<typeof LetterHistorySchema>;

/** The funnel's series as one person's screen shows them: whether they are in each now. */
export const PersonSeriesSchema = Type.Array(Type.Object({ id: Type.Integer(), name: Text(), member: Type.Boolean() }));
export type PersonSeries = Static<typeof PersonSeriesSchema>;
