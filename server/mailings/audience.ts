// Who a mailing reaches, as one SQL condition over people (alias p) of one funnel: used for the
// live count, and in the statement that makes the recipient rows when the mailing starts.
import type { MailingAudience } from '../db/schema';

export const EMPTY_AUDIENCE: MailingAudience = { stages_in: [], stages_out: [], tags_in: [], tags_out: [] };

/**
 * The WHERE of people p of funnel $1 in `audience`; its lists are $2..$5 (int[]). People who
 * blocked the bot are always left out.
 */
export const AUDIENCE_WHERE = `
  p.funnel_id = $1 and not p.blocked
  and (cardinality($2::int[]) = 0 or p.stage_id = any($2::int[]))
  and (cardinality($3::int[]) = 0 or p.stage_id is null or not (p.stage_id = any($3::int[])))
  and (cardinality($4::int[]) = 0 or exists (select 1 from person_tags pt where pt.person_id = p.id and pt.tag_id = any($4::int[])))
  and (cardinality($5::int[]) = 0 or not exists (select 1 from person_tags pt where pt.person_id = p.id and pt.tag_id = any($5::int[])))`;

export const audienceParams = (funnelId: number, a: MailingAudience) => [funnelId, a.stages_in, a.stages_out, a.tags_in, a.tags_out];
