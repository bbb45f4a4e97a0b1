// The mailing service's messages, thrown as a DomainError (../domain-error.ts).
import type { DomainMessage } from '../domain-error';

export const MAILING_ERRORS = {
  emptyAudience: { code: 'empty_audience', text: 'Nobody would receive this mailing: the audience is empty.' },
  mailingState: { code: 'mailing_state', text: 'The mailing cannot do this in its present state.' },
  scheduleInPast: { code: 'schedule_in_past', text: 'Choose a moment in the future.' },
  badMoment: { code: 'invalid', text: 'Datetime has wrong format.' },
  unsendTooLate: { code: 'unsend_too_late', text: 'Telegram lets a bot delete its messages for 48 hours only.' },
  funnelArchived: { code: 'funnel_archived', text: 'Return the funnel from the archive first.' },
} as const satisfies Record<string, DomainMessage>;
