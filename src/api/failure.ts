// What a failed call can be, as the UI tells the cases apart: a transport problem (shown in the
// top notice), the server's answer (Djoser's errors, shown on the form), or something unexpected.

import type { CodedMessage } from '../../contract/errors';

export type TransportKind = 'network' | 'timeout' | 'aborted';

export type ApiFailure =
  | { kind: TransportKind }
  | { kind: 'http'; status: number; fields: Record<string, string[]>; messages: string[]; codes?: FailureCodes }
  | { kind: 'unknown'; error: unknown };

export function isTransportFailure(failure: ApiFailure): failure is { kind: TransportKind } {
  return failure.kind === 'network' || failure.kind === 'timeout' || failure.kind === 'aborted';
}

/**
 * The product API's stable codes for the texts of a failure (contract/errors.ts), each list
 * parallel to the texts it codes; absent when the body had none (the auth API's Djoser bodies).
 */
export interface FailureCodes {
  fields: Record<string, Array<CodedMessage | null>>;
  messages: Array<CodedMessage | null>;
}
