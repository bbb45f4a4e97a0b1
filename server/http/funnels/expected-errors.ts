// Expected error bodies of the product API, written out in full (not with the server's own
// codedFieldsBody), so a test fails if either the text or the code a user's app reads is wrong:
//   fieldsError({ title: [COMMON_ERRORS.blank] })
//     → {"title": ["This field may not be blank."], "codes": {"title": [{"code": "blank"}]}}
//   detailError(FUNNEL_ERRORS.orderLocked) → {"detail": "Stages can't…", "code": "order_locked"}
import type { ApiErrorCode } from '../../../contract/errors';
import type { DomainMessage } from '../../domain-error';

export function fieldsError(fields: Record<string, DomainMessage[]>): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  const codes: Record<string, unknown[]> = {};
  for (const [field, messages] of Object.entries(fields)) {
    body[field] = messages.map((m) => m.text);
    codes[field] = messages.map(({ text: _text, ...coded }) => coded);
  }
  return { ...body, codes };
}

export function detailError({ text, code, count }: DomainMessage): Record<string, unknown> {
  return { detail: text, code, ...(count === undefined ? {} : { count }) };
}

/** Messages of a schema check (the Django REST framework wording) with their codes. */
export const SCHEMA = {
  required: { code: 'required', text: 'This field is required.' },
  blank: { code: 'blank', text: 'This field may not be blank.' },
  tooLong: (max: number): DomainMessage => ({ code: 'too_long', count: max, text: `Ensure this field has no more than ${max} characters.` }),
  invalid: (text: string, count?: number): DomainMessage => ({ code: 'invalid' satisfies ApiErrorCode, text, ...(count === undefined ? {} : { count }) }),
  notAString: { code: 'invalid', text: 'Not a valid string.' },
  notAnInteger: { code: 'invalid', text: 'A valid integer is required.' },
  choice: (value: string): DomainMessage => ({ code: 'invalid', text: `"${value}" is not a valid choice.` }),
} as const satisfies Record<string, DomainMessage | ((...args: never[]) => DomainMessage)>;
