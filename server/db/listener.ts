// LISTEN on a PostgreSQL channel over a dedicated connection (a pooled client cannot hold a
// LISTEN: it goes back to the pool). The connection is watched and remade with backoff when it
// drops; `isLive()` is true only while LISTEN is known to be in effect, so that callers can stop
// trusting what the notifications keep fresh as soon as the connection may have missed one.
import pg from 'pg';

export interface ListenHandlers {
  /** A notification on the channel (payload as sent, '' when none). */
  onNotify(payload: string): void;
  /** LISTEN is in effect (first time or again): notifications sent before may have been missed. */
  onListening?(): void;
  /** The connection was lost or could not be made; a new one is on its way. */
  onDown?(error: Error | undefined, retryInMs: number): void;
}

export interface Listener {
  /** LISTEN in effect and the connection answered within the last LIVENESS_MS. */
  isLive(): boolean;
  /** Resolves true once LISTEN is in effect, false if that takes longer than timeoutMs. */
  whenListening(timeoutMs: number): Promise<boolean>;
  close(): Promise<void>;
}

export interface ListenerTimings {
  /** How often the connection is asked `select 1` to prove it is still there. */
  heartbeatMs: number;
  /** No answer within this: the connection is given up and remade. */
  heartbeatTimeoutMs: number;
  /** isLive() is false when the last proof of life is older than this (a stalled event loop). */
  livenessMs: number;
  /** Reconnect delays: first, then doubled up to max, with jitter. */
  retryMinMs: number;
  retryMaxMs: number;
  connectTimeoutMs: number;
}

export const DEFAULT_LISTENER_TIMINGS: ListenerTimings = {
  heartbeatMs: 1_000,
  heartbeatTimeoutMs: 2_000,
  livenessMs: 3_000,
  retryMinMs: 100,
  retryMaxMs: 10_000,
  connectTimeoutMs: 5_000,
};

/** Shown in pg_stat_activity, so people (and tests) can find the listening connections. */
export const LISTENER_APPLICATION_NAME = 'funnels-listener';

const quoteIdent = (name: string) => '"' + name.replaceAll('"', '""') + '"';

export function listen(
  connectionString: string,
  channel: string,
  handlers: ListenHandlers,
  timings: Partial<ListenerTimings> = {},
): Listener {
  const t = { ...DEFAULT_LISTENER_TIMINGS, ...timings };
  let client: pg.Client | null = null;
  let listening = false;
  let confirmedAtMs = 0;
  let closed = false;
  let failures = 0;
  let retryTimer: NodeJS.Timeout | null = null;
  let heartbeatTimer: NodeJS.Timeout | null = null;
  let waiters: ((ok: boolean) => void)[] = [];

  function connect(): void {
    retryTimer = null;
    if (closed) return;
    const c = new pg.Client({
      connectionString,
      application_name: LISTENER_APPLICATION_NAME,
      keepAlive: true,
      connectionTimeoutMillis: t.connectTimeoutMs,
    });
    client = c;
    c.on('notification', (message) => {
      if (client !== c || message.channel !== channel) return;
      confirmedAtMs = Date.now();
      handlers.onNotify(message.payload ?? '');
    });
    c.on('error', (error) => down(c, error));
    c.on('end', () => down(c, new Error('connection ended')));
    c.connect()
      .then(() => c.query(`LISTEN ${quoteIdent(channel)}`))
      .then(() => {
        if (client !== c) return;
        if (closed) return void c.end().catch(() => undefined);
        failures = 0;
        confirmedAtMs = Date.now();
        // Callers reset what they keep before trusting it again: anything sent while the
        // connection was down is lost.
        handlers.onListening?.();
        listening = true;
        heartbeatTimer = setInterval(() => heartbeat(c), t.heartbeatMs);
        heartbeatTimer.unref();
        for (const resolve of waiters) resolve(true);
        waiters = [];
      })
      .catch((error: Error) => down(c, error));
  }

  function heartbeat(c: pg.Client): void {
    const timeout = setTimeout(() => down(c, new Error('heartbeat timed out')), t.heartbeatTimeoutMs);
    c.query('select 1')
      .then(() => {
        if (client === c) confirmedAtMs = Date.now();
      })
      .catch((error: Error) => down(c, error))
      .finally(() => clearTimeout(timeout));
  }

  function down(c: pg.Client, error: Error | undefined): void {
    if (client !== c) return; // already handled (error and end both fire)
    client = null;
    listening = false;
    if (heartbeatTimer) clearInterval(heartbeatTimer);
    heartbeatTimer = null;
    c.removeAllListeners('notification');
    c.on('error', () => undefined); // a late socket error must not crash the process
    c.end().catch(() => undefined);
    if (closed) return;
    const delay = Math.min(t.retryMaxMs, t.retryMinMs * 2 ** failures) * (0.5 + Math.random() / 2);
    failures += 1;
    handlers.onDown?.(error, Math.round(delay));
    retryTimer = setTimeout(connect, delay);
    retryTimer.unref();
  }

  connect();

  return {
    isLive: () => listening && Date.now() - confirmedAtMs < t.livenessMs,
    whenListening(timeoutMs) {
      if (listening) return Promise.resolve(true);
      return new Promise((resolve) => {
        const timer = setTimeout(() => {
          waiters = waiters.filter((w) => w !== settle);
          resolve(false);
        }, timeoutMs);
        const settle = (ok: boolean) => {
          clearTimeout(timer);
          resolve(ok);
        };
        waiters.push(settle);
      });
    },
    async close() {
      closed = true;
      listening = false;
      if (retryTimer) clearTimeout(retryTimer);
      if (heartbeatTimer) clearInterval(heartbeatTimer);
      for (const resolve of waiters) resolve(false);
      waiters = [];
      const c = client;
      client = null;
      if (c) {
        c.removeAllListeners('notification');
        c.on('error', () => undefined);
        await c.end().catch(() => undefined);
      }
    },
  };
}
