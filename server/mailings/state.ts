// The mailing state machine, pure: which action is allowed in which state, and where it leads.
// The service applies it with a conditional UPDATE (… WHERE state IN (from)), so two requests (or
// a request and the engine) racing on one mailing cannot both win.
import type { MailingState } from '../../contract/mailings';

export type MailingAction = 'edit' | 'schedule' | 'start' | 'pause' | 'resume' | 'cancel' | 'finish' | 'unsend';

/** The states an action may start from, and the state it leaves (null: the state stays). */
export const MAILING_TRANSITIONS: Record<MailingAction, { from: readonly MailingState[]; to: MailingState | null }> = {
  edit: { from: ['draft', 'scheduled'], to: null },
  schedule: { from: ['draft', 'scheduled'], to: 'scheduled' },
  start: { from: ['draft', 'scheduled'], to: 'sending' },
  pause: { from: ['sending'], to: 'paused' },
  resume: { from: ['paused'], to: 'sending' },
  cancel: { from: ['draft', 'scheduled', 'sending', 'paused'], to: 'cancelled' },
  finish: { from: ['sending'], to: 'finished' },
  unsend: { from: ['finished', 'cancelled'], to: null },
};

export function canApply(action: MailingAction, state: MailingState): boolean {
  return MAILING_TRANSITIONS[action].from.includes(state);
}

/** The state after `action`, or null when the action is not allowed in `state`. */
export function nextState(action: MailingAction, state: MailingState): MailingState | null {
  if (!canApply(action, state)) return null;
  return MAILING_TRANSITIONS[action].to ?? state;
}

/** Sending may happen only here: the engine claims rows of mailings in this state alone. */
export const isSending = (state: MailingState) => state === 'sending';
