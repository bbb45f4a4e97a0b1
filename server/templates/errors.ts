// The template service's messages, thrown as a DomainError (../domain-error.ts).
import { TEMPLATE_COVER_MAX_BYTES } from '../../contract/templates';
import type { DomainMessage } from '../domain-error';

export const TEMPLATE_ERRORS = {
  withoutStages: { code: 'template_without_stages', text: 'The funnel has no stages: add at least one before publishing it.' },
  wasRun: { code: 'funnel_was_run', text: 'This funnel has been run: take a fresh copy of the template instead.' },
  upToDate: { code: 'template_up_to_date', text: 'The funnel already has the latest version of its template.' },
  notFromTemplate: { code: 'not_from_template', text: 'This funnel was not made from a template.' },
  sourceGone: { code: 'does_not_exist', text: 'The funnel this template was published from no longer exists.' },
  coverType: { code: 'unsupported_file', text: 'Upload a JPEG, PNG or WebP picture.' },
  coverTooBig: { code: 'file_too_big', count: TEMPLATE_COVER_MAX_BYTES / (1024 * 1024), text: 'File too big' },
  emptyFile: { code: 'empty_file', text: 'The submitted file is empty.' },
} as const satisfies Record<string, DomainMessage>;
