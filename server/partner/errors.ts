// The partner service's messages, thrown as a DomainError (../domain-error.ts).
import { PARTNER_LINKS_MAX } from '../../contract/partner';
import type { DomainMessage } from '../domain-error';

export const PARTNER_ERRORS = {
  tooManyLinks: { code: 'too_many_links', count: PARTNER_LINKS_MAX, text: `A partner may have at most ${PARTNER_LINKS_MAX} links.` },
  belowMinimum: (minimum: number, currency: string): DomainMessage => ({
    code: 'below_minimum',
    count: minimum,
    text: `Ensure this value is at least ${minimum} (${currency}, minor units).`,
  }),
  aboveAvailable: (available: number): DomainMessage => ({
    code: 'above_available',
    count: available,
    text: `The available balance is ${available}: ask for no more than that.`,
  }),
  withdrawalState: { code: 'withdrawal_state', text: 'The withdrawal cannot do this in its present state.' },
} as const satisfies Record<string, DomainMessage | ((...args: never[]) => DomainMessage)>;
