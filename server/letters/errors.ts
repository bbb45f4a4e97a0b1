// The series-of-letters service's messages, thrown as a DomainError (../domain-error.ts).
import { LETTERS_MAX } from '../../contract/letters';
import type { DomainMessage } from '../domain-error';

export const LETTER_ERRORS = {
  noSendingTime: { code: 'no_sending_time', text: 'You have not configured the sending time' },
  tooManyLetters: { code: 'too_many_letters', count: LETTERS_MAX, text: `A series can have no more than ${LETTERS_MAX} letters.` },
} as const satisfies Record<string, DomainMessage>;
