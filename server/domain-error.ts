// Failures of the domain services, without HTTP: a kind (what went wrong, which http/errors.ts
// turns into a status) and the message(s) with their stable codes (contract/errors.ts). Each area
// words its own messages in its catalogue (funnels/errors.ts, mailings/errors.ts, …); the
// messages every area shares (DRF's field wording, "Not found.") are here.
import type { CodedMessage } from '../contract/errors';

export type DomainErrorKind = 'invalid' | 'not_found' | 'conflict' | 'unavailable' | 'too_large' | 'unsupported' | 'payment_required';

/** A message of a domain service: its English text and its code (with the number in it). */
export interface DomainMessage extends CodedMessage {
  text: string;
}

export class DomainError extends Error {
  constructor(
    readonly kind: DomainErrorKind,
    /** Field errors, DRF-style: {"field": [message]}; null = the detail alone. */
    readonly fields: Record<string, DomainMessage[]> | null,
    readonly detail: DomainMessage,
  ) {
    super(detail.text);
    this.name = 'DomainError';
  }
}

/** The messages of more than one area, in Django REST framework's wording. */
export const COMMON_ERRORS = {
  notFound: { code: 'not_found', text: 'Not found.' },
  blank: { code: 'blank', text: 'This field may not be blank.' },
  required: { code: 'required', text: 'This field is required.' },
  incorrectData: { code: 'incorrect_data', text: 'Incorrect data' },
  doesNotExist: (id: number): DomainMessage => ({ code: 'does_not_exist', text: `Invalid pk "${id}" - object does not exist.` }),
  tooLong: (max: number): DomainMessage => ({ code: 'too_long', count: max, text: `Ensure this field has no more than ${max} characters.` }),
} as const satisfies Record<string, DomainMessage | ((...args: never[]) => DomainMessage)>;

export const invalidFields = (fields: Record<string, DomainMessage[]>) => new DomainError('invalid', fields, Object.values(fields)[0][0]);
export const invalidField = (field: string, message: DomainMessage) => invalidFields({ [field]: [message] });
export const invalid = (message: DomainMessage) => new DomainError('invalid', null, message);
export const notFound = () => new DomainError('not_found', null, COMMON_ERRORS.notFound);
export const conflict = (message: DomainMessage) => new DomainError('conflict', null, message);
export const unavailable = (message: DomainMessage) => new DomainError('unavailable', null, message);
export const tooLarge = (message: DomainMessage) => new DomainError('too_large', null, message);
export const unsupported = (message: DomainMessage) => new DomainError('unsupported', null, message);
export const paymentRequired = (message: DomainMessage) => new DomainError('payment_required', null, message);
