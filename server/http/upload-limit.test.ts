// An upload over the limit: the server decides on 413 before the body has arrived. A client that
// reads its answer only once it has sent the whole body (a browser, a slow phone) must get that
// 413 and its JSON, not a connection reset under its feet (EPIPE, ECONNRESET).
import { connect, type AddressInfo } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { FUNNELS_API, PHOTO_MAX_BYTES } from '../../contract/funnels';
import { connectFunnel, user, useFunnelsTestEnv } from '../test/funnels-api';

const env = useFunnelsTestEnv();
let base = '';
beforeAll(async () => {
  await env.t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(env.t.app.server.address() as AddressInfo).port}`;
});

/**
 * A client that reads nothing until it has sent its whole body, as a browser does: raw HTTP/1.1
 * over a socket. Returns the status line and the body it then reads, or the socket's error.
 */
function uploadThenRead(path: string, key: string, contentType: string, total: number): Promise<{ status: number; body: string } | { error: string }> {
  const { port } = new URL(base);
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port: Number(port) });
    socket.pause();
    let received = '';
    socket.on('error', (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message }));
    socket.on('data', (chunk) => (received += chunk.toString('latin1')));
    socket.on('end', () => {
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(received)?.[1] ?? 0);
      resolve({ status, body: received.slice(received.indexOf('\r\n\r\n') + 4) });
    });
    socket.write(`POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Token ${key}\r\nContent-Type: ${contentType}\r\nContent-Length: ${total}\r\nConnection: close\r\n\r\n`);
    const chunk = Buffer.alloc(256 * 1024, 0x61);
    let sent = 0;
    const pump = (): void => {
      while (sent < total) {
        const size = Math.min(chunk.length, total - sent);
        sent += size;
        if (!socket.write(size === chunk.length ? chunk : chunk.subarray(0, size))) {
          socket.once('drain', pump);
          return;
        }
      }
      // All sent: now read the answer.
      socket.resume();
    };
    pump();
  });
}

describe('an upload over the limit, streamed', () => {
  it('reaches a client that reads only once it has sent everything, as a browser does', async () => {
    const key = await user(env);
    const funnel = await connectFunnel(env, key);
    for (let attempt = 0; attempt < 3; attempt++) {
      const photo = await uploadThenRead(FUNNELS_API.media(funnel.id), key, 'image/png', PHOTO_MAX_BYTES + 16 * 1024 * 1024);
      expect(photo).toMatchObject({ status: 413 });
      expect(JSON.parse((photo as { body: string }).body)).toMatchObject({ detail: 'File too big. The file size must not exceed 10 MB.', code: 'file_too_big', count: 10 });
      const json = await uploadThenRead(FUNNELS_API.tags(funnel.id), key, 'application/json', 8 * 1024 * 1024);
      expect(json).toMatchObject({ status: 413 });
      expect(JSON.parse((json as { body: string }).body)).toEqual({ detail: 'Request body is too large.' });
    }
  });
});
