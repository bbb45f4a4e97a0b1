// What a stored outcome says to the person who sent it: the reason a row's error text stands for,
// read with the one classification of Telegram's answers (telegram/send.ts). The domain (mailings,
// letters) reaches it here, as it reaches the outbox's statements: it never imports telegram/.
import type { DeliveryErrorReason } from '../../contract/delivery';
import { deliveryErrorReason } from '../telegram/send';

/** The reason a refusal of Telegram's (its description and error_code) stands for. */
export function refusalReason(description: string, code: number): DeliveryErrorReason {
  return deliveryErrorReason(description, code) ?? 'other';
}

/**
 * Why the row with this state (as its owner sees it) and stored error did not reach its person,
 * or could not be deleted; null when nothing went wrong. A blocked row is Telegram's 403 even
 * when no text was kept.
 */
export function outcomeErrorReason(state: string, error: string | null): DeliveryErrorReason | null {
  if (state === 'blocked') return deliveryErrorReason(error, 403);
  if (state === 'sent' || state === 'deleted' || state === 'deleting' || state === 'too_old') return null;
  const reason = deliveryErrorReason(error);
  // An unknown row's text is often this server's own (it stopped mid-send), not Telegram's refusal.
  return state === 'unknown' && reason === 'other' ? null : reason;
}
