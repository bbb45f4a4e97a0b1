// One mapping from whatever a call threw to what the UI shows (failure.ts): transport problems
// (network, abort, timeout) go to the top notice; Djoser's field errors go next to the fields, and
// non_field_errors / detail above the form.
// It is only needed once a call has failed, so it comes in the API module's chunk (loaded with
// the first call) rather than on the first paint; api/action.ts `failureOf` fetches it.
// ky's error classes are recognised by name and shape, not imported, so the mapping does not
// depend on ky being loaded.
import type { ApiFailure } from './failure';

function isAbort(error: unknown): boolean {
  return error instanceof Error && error.name === 'AbortError';
}

function asMessages(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.filter((item): item is string => typeof item === 'string');
  return [];
}

export function parseErrorBody(body: unknown): { fields: Record<string, string[]>; messages: string[] } {
  const fields: Record<string, string[]> = {};
  const messages: string[] = [];
  if (body && typeof body === 'object' && !Array.isArray(body)) {
    for (const [key, value] of Object.entries(body as Record<string, unknown>)) {
      const list = asMessages(value);
      if (list.length === 0) continue;
      if (key === 'detail' || key === 'non_field_errors') messages.push(...list);
      else fields[key] = list;
    }
  }
  return { fields, messages };
}

function isHttpError(error: unknown): error is Error & { response: Response } {
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
