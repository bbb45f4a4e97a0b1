// The LISTEN connection (PostgreSQL only): notifications arrive, a connection that goes silent
// is noticed by the heartbeat and remade, and close() stops everything.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, until } from '../test/eventually';
import { createTestDb, TEST_DATABASE_URL, type TestDb } from '../test/helpers';
import { listen, type Listener } from './listener';

const NEEDS_POSTGRES = 'PostgreSQL only: set TEST_DATABASE_URL; PGlite has no other process to hear from';
const CHANNEL = 'listener_test';

let testDb: TestDb;
beforeAll(async () => {
  testDb = await createTestDb();
});
afterAll(async () => {
  await testDb?.drop();
});

/** A TCP relay to PostgreSQL that can go silent: bytes are swallowed, sockets stay open. */
async function silentableProxy(target: URL) {
  let silent = false;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((inbound) => {
    const outbound = net.connect(Number(target.port || 5432), target.hostname);
    for (const socket of [inbound, outbound]) {
      sockets.add(socket);
      socket.on('error', () => undefined);
      socket.on('close', () => sockets.delete(socket));
    }
    inbound.on('data', (chunk) => silent || outbound.write(chunk));
    outbound.on('data', (chunk) => silent || inbound.write(chunk));
    inbound.on('end', () => outbound.end());
    outbound.on('end', () => inbound.end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = new URL(target);
  url.hostname = '127.0.0.1';
  url.port = String((server.address() as net.AddressInfo).port);
  return {
    url: url.toString(),
    setSilent(value: boolean) {
      silent = value;
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

describe.skipIf(!TEST_DATABASE_URL)(`listen() on PostgreSQL (${NEEDS_POSTGRES})`, () => {

  it('delivers notifications; a silent connection is given up, remade, and listens again', async () => {
    const proxy = await silentableProxy(new URL(testDb.url!));
    const payloads: string[] = [];
    const events: string[] = [];
    let listener: Listener | null = null;
    try {
      listener = listen(
        proxy.url,
        CHANNEL,
        {
          onNotify: (payload) => payloads.push(payload),
          onListening: () => events.push('listening'),
          onDown: (error) => events.push(`down: ${error?.message}`),
        },
        { heartbeatMs: 100, heartbeatTimeoutMs: 200, livenessMs: 400, retryMinMs: 50, retryMaxMs: 200, connectTimeoutMs: 300 },
      );
      expect(await listener.whenListening(5_000)).toBe(true);
      expect(listener.isLive()).toBe(true);
      await testDb.db.query('select pg_notify($1, $2)', [CHANNEL, 'first']);
      await until(() => payloads.includes('first'), 'the first notification');

      // The network goes quiet without closing anything (no RST, no FIN): only the heartbeat can tell.
      proxy.setSilent(true);
      await until(() => !listener!.isLive(), 'the silent connection given up', 2_000);
      await until(() => events.some((e) => e.startsWith('down')), 'onDown', 2_000);
      expect(events.find((e) => e.startsWith('down'))).toMatch(/heartbeat timed out|timeout/i);

      proxy.setSilent(false);
      await until(() => listener!.isLive(), 'listening again');
      expect(events.filter((e) => e === 'listening').length).toBeGreaterThanOrEqual(2);
      await testDb.db.query('select pg_notify($1, $2)', [CHANNEL, 'second']);
      await until(() => payloads.includes('second'), 'the second notification');
    } finally {
      await listener?.close();
      await proxy.close();
    }
  });

  it('close() stops listening and reconnecting', async () => {
    const events: string[] = [];
    const listener = listen(testDb.url!, CHANNEL, {
      onNotify: () => events.push('notify'),
      onListening: () => events.push('listening'),
      onDown: () => events.push('down'),
    });
    expect(await listener.whenListening(5_000)).toBe(true);
    await listener.close();
    expect(listener.isLive()).toBe(false);
    expect(await listener.whenListening(10)).toBe(false);
    // A second listener on the same channel hears the notification: once it has, the closed one
    // would have too if it still listened.
    const witnessHeard: string[] = [];
    const witness = listen(testDb.url!, CHANNEL, { onNotify: (payload) => witnessHeard.push(payload) });
    try {
      expect(await witness.whenListening(5_000)).toBe(true);
      await testDb.db.query('select pg_notify($1, $2)', [CHANNEL, 'after close']);
      await until(() => witnessHeard.includes('after close'), 'the witness to hear the notification');
    } finally {
      await witness.close();
    }
    expect(events).toEqual(['listening']);
    // Both connections are gone once the server has seen them close.
    await eventually(
      async () =>
        (
          await testDb.db.query<{ n: number }>(
            "select count(*)::int as n from pg_stat_activity where datname = current_database() and query ilike 'listen%'",
          )
        )[0].n,
      (n) => n === 0,
      'no LISTEN connection left',
    );
  });
});
