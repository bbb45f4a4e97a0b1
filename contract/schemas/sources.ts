// Every shape of the sources API (see ./funnels.ts for how these are used). The SPA imports the
// types only, through contract/sources.ts.
import { Type, type Static } from 'typebox';
import { STATS_PERIODS, TIME_ZONE_MAX } from '../funnels';
import { SOURCE_NAME_MAX } from '../sources';
import { Nullable, StringEnum, Text } from './common';

const Timestamp = () => Text();

export const FunnelSourceSchema = Type.Object({
  id: Type.Integer(),
  funnel_id: Type.Integer(),
  name: Text(),
  code: Text(),
  /** `https://t.me/<bot>?start=src_<code>`; null while the funnel has no bot. */
  link: Nullable(Text()),
  /** People whose first source this is. */
  people_count: Type.Integer(),
  archived: Type.Boolean(),
  created_at: Timestamp(),
});
export type FunnelSource = Static<typeof FunnelSourceSchema>;

export const SourceBodySchema = Type.Object({ name: Text(SOURCE_NAME_MAX, 1) });
export type SourceBody = Static<typeof SourceBodySchema>;

/** Rename, archive (no new people are recorded by it; its link still starts the bot) or restore. */
export const SourcePatchSchema = Type.Object({ name: Type.Optional(Text(SOURCE_NAME_MAX, 1)), archived: Type.Optional(Type.Boolean()) });
export type SourcePatch = Static<typeof SourcePatchSchema>;

export const SourceStatsQuerySchema = Type.Object({ period: Type.Optional(StringEnum(STATS_PERIODS)), tz: Type.Optional(Text(TIME_ZONE_MAX)) });
export type SourceStatsQuery = Static<typeof SourceStatsQuerySchema>;

/**
 * One source's results in a period: people who joined by it then, how many of them reached each
 * stage, and what they paid (0 until payments exist). id null: "no source".
 */
export const SourceStatsRowSchema = Type.Object({
  id: Nullable(Type.Integer()),
  name: Text(),
  code: Nullable(Text()),
  link: Nullable(Text()),
  archived: Type.Boolean(),
  people: Type.Integer(),
  reached: Type.Array(Type.Object({ stage_id: Type.Integer(), count: Type.Integer() })),
  paid: Type.Integer(),
  revenue: Type.Integer(),
});
export type SourceStatsRow = Static<typeof SourceStatsRowSchema>;

export const SourceStatsSchema = Type.Object({
  period: StringEnum(STATS_PERIODS),
  since: Nullable(Timestamp()),
  sources: Type.Array(SourceStatsRowSchema),
});
export type SourceStats = Static<typeof SourceStatsSchema>;
