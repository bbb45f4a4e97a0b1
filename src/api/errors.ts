// One mapping from whatever a call threw to what the UI shows: transport problems (network,
// abort, timeout) go to the top notice; Djoser's field errors go next to the fields, and
// non_field_errors / detail above the form.
// ky's error classes are recognised by name and shape, not imported: ky (and the clients) load
// only when a screen makes its first call, which keeps them off the first paint.

export type TransportKind = 'network' | 'timeout' | 'aborted';

export type ApiFailure =
  | { kind: TransportKind }
  | { kind: 'http'; status: number; fields: Record<string, string[]>; messages: string[] }
  | { kind: 'unknown'; error: unknown };

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

export function isTransportFailure(failure: ApiFailure): failure is { kind: TransportKind } {
  return failure.kind === 'network' || failure.kind === 'timeout' || failure.kind === 'aborted';
}

