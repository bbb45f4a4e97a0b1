// The CRM service's messages (folders, their pictures, lists), thrown as a DomainError (../domain-error.ts).
import { FOLDER_IMAGE_MAX_BYTES, type FolderImageKind } from '../../contract/crm';
import type { DomainMessage } from '../domain-error';

export const CRM_ERRORS = {
  imageType: { code: 'unsupported_file', text: 'Upload a JPEG, PNG or WebP picture.' },
  imageTooBig: (kind: FolderImageKind): DomainMessage => ({ code: 'file_too_big', count: FOLDER_IMAGE_MAX_BYTES[kind] / (1024 * 1024), text: 'File too big' }),
  emptyFile: { code: 'empty_file', text: 'The submitted file is empty.' },
  segmentMembers: { code: 'segment_members', text: 'A saved segment follows its filter: its people cannot be added or removed by hand.' },
  staticListFilter: { code: 'invalid', text: 'A static list has no filter.' },
  segmentWithoutFilter: { code: 'required', text: 'A saved segment needs a filter.' },
} as const satisfies Record<string, DomainMessage | ((kind: FolderImageKind) => DomainMessage)>;
