// What a failed call can be, as the UI tells the cases apart: a transport problem (shown in the
// top notice), the server's answer (Djoser's errors, shown on the form), or something unexpected.

export type TransportKind = 'network' | 'timeout' | 'aborted';

export type ApiFailure =
  | { kind: TransportKind }
  | { kind: 'http'; status: number; fields: Record<string, string[]>; messages: string[] }
  | { kind: 'unknown'; error: unknown };

export function isTransportFailure(failure: ApiFailure): failure is { kind: TransportKind } {
  return failure.kind === 'network' || failure.kind === 'timeout' || failure.kind === 'aborted';
}
