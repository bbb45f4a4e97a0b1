// One mapping from whatever a call threw to what the UI shows (failure.ts): transport problems
// (network, abort, timeout) go to the top notice; Djoser's field errors go next to the fields, and
// non_field_errors / detail above the form.
// It is only needed once a call has failed, so it comes in the API module's chunk (loaded with
// the first call) rather than on the first paint; api/action.ts `failureOf` fetches it.
// ky's error classes are recognised by name and shape, not imported, so the mapping does not
// depend on ky being loaded.
import { isApiErrorCode, type CodedMessage } from '../../contract/errors';
import type { ApiFailure, FailureCodes } from './failure';

function isAbort(error: unknown): boolean {
  return error instanceof Error && error.name === 'AbortError';
}

function asMessages(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.filter((item): item is string => typeof item === 'string');
  return [];
}

/** One entry of a body's `codes` (or its detail's `code` + `count`), if it is one. */
function asCoded(value: unknown): CodedMessage | null {
  if (!value || typeof value !== 'object') return null;
  const { code, count, detail } = value as Record<string, unknown>;
  if (!isApiErrorCode(code)) return null;
  return { code, ...(typeof count === 'number' && { count }), ...(typeof detail === 'string' && { detail }) };
}

/** Keys of the product API's error bodies that carry codes, not messages. */
const CODE_KEYS = new Set(['codes', 'code', 'count']);

export function parseErrorBody(body: unknown): { fields: Record<string, string[]>; messages: string[]; codes?: FailureCodes } {
  const fields: Record<string, string[]> = {};
  const messages: string[] = [];
  const codes: FailureCodes = { fields: {}, messages: [] };
  let coded = false;
  if (body && typeof body === 'object' && !Array.isArray(body)) {
    const record = body as Record<string, unknown>;
    const fieldCodes = record.codes && typeof record.codes === 'object' ? (record.codes as Record<string, unknown>) : {};
    for (const [key, value] of Object.entries(record)) {
      if (CODE_KEYS.has(key)) continue;
      const list = asMessages(value);
      if (list.length === 0) continue;
      if (key === 'detail' || key === 'non_field_errors') {
        messages.push(...list);
        const code = key === 'detail' ? asCoded({ code: record.code, count: record.count }) : null;
        coded ||= code !== null;
        codes.messages.push(...list.map((_, index) => (index === 0 ? code : null)));
      } else {
        fields[key] = list;
        const listCodes = Array.isArray(fieldCodes[key]) ? (fieldCodes[key] as unknown[]) : [];
        codes.fields[key] = list.map((_, index) => asCoded(listCodes[index]));
        coded ||= codes.fields[key].some((code) => code !== null);
      }
    }
  }
  return coded ? { fields, messages, codes } : { fields, messages };
}

export function isHttpError(error: unknown): error is Error & { response: Response } {
  return error instanceof Error && error.name === 'HTTPError' && 'response' in error && error.response instanceof Response;
}

export async function toApiFailure(error: unknown): Promise<ApiFailure> {
  if (error instanceof Error && error.name === 'TimeoutError') return { kind: 'timeout' };
  if (isHttpError(error)) {
    let body: unknown = null;
    try {
      body = await error.response.clone().json();
    } catch {
      body = null; // an empty or non-JSON error body
    }
    return { kind: 'http', status: error.response.status, ...parseErrorBody(body) };
  }
  if (isAbort(error)) return { kind: 'aborted' };
  // fetch rejects with a TypeError when the network is down or the server unreachable.
  if (error instanceof TypeError) return { kind: 'network' };
  return { kind: 'unknown', error };
}
