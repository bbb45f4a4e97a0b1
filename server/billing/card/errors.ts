// The card payment's messages, thrown as a DomainError (../../domain-error.ts).
import type { DomainMessage } from '../../domain-error';

export const CARD_ERRORS = {
  cardOff: { code: 'card_payments_off', text: 'Card payment is not set up on this server.' },
  notSoldByCard: { code: 'not_sold_by_card', text: "This plan can't be paid by card." },
  alreadySubscribed: { code: 'already_subscribed', text: 'Your subscription is active and renews by itself. Cancel its renewal first to pay another way.' },
  providerDown: { code: 'card_provider_down', text: "The card payment service can't be reached right now. Try again in a minute." },
} as const satisfies Record<string, DomainMessage>;
