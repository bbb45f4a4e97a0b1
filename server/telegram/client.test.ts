// The lean fetch every bot's Bot API calls go through: what reaches the server, what comes back,
// and how aborts and network failures end a call (grammY turns them into HttpError).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HttpError } from 'grammy';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AbortError, botApiFetch, createBot } from './client';

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

let server: Server;
let root: string;
const seen: Seen[] = [];
let connections = 0;
let respond: (req: Seen, res: ServerResponse) => void = (_req, res) => json(res, 200, { ok: true, result: true });

function json(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const entry = { method: req.method!, url: req.url!, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      seen.push(entry);
      respond(entry, res);
    });
  });
  server.on('connection', () => (connections += 1));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  root = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe('botApiFetch', () => {
  it('POSTs a JSON body with its length and returns the answer', async () => {
    respond = (_req, res) => json(res, 200, { ok: true, result: { message_id: 7, text: 'Привет' } });
    const body = JSON.stringify({ chat_id: 1, text: 'Привет, мир' });
    const res = await botApiFetch(`${root}/botT/sendMessage`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    expect(res.status).toBe(200);
    expect(res.ok).toBe(true);
    expect(await res.json()).toEqual({ ok: true, result: { message_id: 7, text: 'Привет' } });
    const last = seen.at(-1)!;
    expect(last).toMatchObject({ method: 'POST', url: '/botT/sendMessage', body });
    expect(last.headers['content-length']).toBe(String(Buffer.byteLength(body)));
    expect(last.headers['content-type']).toBe('application/json');
  });

  it('streams an upload body (a multipart stream) in chunks', async () => {
    respond = (_req, res) => json(res, 200, { ok: true, result: true });
    async function* parts() {
      yield new TextEncoder().encode('--b\r\npart one\r\n');
      yield new TextEncoder().encode('--b\r\npart two\r\n--b--\r\n');
    }
    const res = await botApiFetch(`${root}/botT/sendPhoto`, { method: 'POST', headers: { 'content-type': 'multipart/form-data; boundary=b' }, body: parts() });
    expect(res.ok).toBe(true);
    const last = seen.at(-1)!;
    expect(last.body).toBe('--b\r\npart one\r\n--b\r\npart two\r\n--b--\r\n');
    expect(last.headers['transfer-encoding']).toBe('chunked');
  });

  it('returns a refusal as it came (grammY reads ok: false from it)', async () => {
    respond = (_req, res) => json(res, 400, { ok: false, error_code: 400, description: 'Bad Request: chat not found' });
    const res = await botApiFetch(`${root}/botT/sendMessage`, { method: 'POST', body: '{}' });
    expect(res.status).toBe(400);
    expect(res.ok).toBe(false);
    expect(await res.json()).toMatchObject({ description: 'Bad Request: chat not found' });
  });

  it('keeps the connection alive between calls', async () => {
    respond = (_req, res) => json(res, 200, { ok: true, result: true });
    await botApiFetch(`${root}/botT/getMe`, { method: 'POST', body: '{}' });
    const before = connections;
    for (let i = 0; i < 5; i++) await botApiFetch(`${root}/botT/getMe`, { method: 'POST', body: '{}' });
    expect(connections).toBe(before);
  });

  it('an abort ends a call that is waiting for its answer, and a call aborted before it starts is never sent', async () => {
    respond = () => {}; // never answers, like a long poll
    const controller = new AbortController();
    const pending = botApiFetch(`${root}/botT/getUpdates`, { method: 'POST', body: '{"timeout":30}', signal: controller.signal });
    await expect.poll(() => seen.at(-1)?.url).toBe('/botT/getUpdates');
    controller.abort();
    await expect(pending).rejects.toBeInstanceOf(AbortError);

    const count = seen.length;
    await expect(botApiFetch(`${root}/botT/sendMessage`, { method: 'POST', body: '{}', signal: controller.signal })).rejects.toBeInstanceOf(AbortError);
    // A call made after it reaches the server and is answered: the aborted one would have come first.
    respond = (_req, res) => json(res, 200, { ok: true, result: true });
    await botApiFetch(`${root}/botT/getMe`, { method: 'POST', body: '{}' });
    expect(seen.slice(count).map((request) => request.url)).toEqual(['/botT/getMe']);
  });

  it('a server that cannot be reached fails the call with the network error code', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    await expect(botApiFetch(`http://127.0.0.1:${port}/botT/getMe`, { method: 'POST', body: '{}' })).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });
});

describe('grammY through botApiFetch', () => {
  it('a call returns its result, a refusal is a GrammyError, an answer that is not JSON is an HttpError', async () => {
    const bot = createBot('123:ABC', { apiRoot: root });
    respond = (_req, res) => json(res, 200, { ok: true, result: { id: 123, is_bot: true, first_name: 'Shop', username: 'shop_bot' } });
    await expect(bot.api.getMe()).resolves.toMatchObject({ username: 'shop_bot' });
    expect(seen.at(-1)!.url).toBe('/bot123:ABC/getMe');

    respond = (_req, res) => json(res, 403, { ok: false, error_code: 403, description: 'Forbidden: bot was blocked by the user' });
    await expect(bot.api.sendMessage(5, 'hi')).rejects.toMatchObject({ name: 'GrammyError', error_code: 403 });

    respond = (_req, res) => {
      res.writeHead(502, { 'content-type': 'text/html' });
      res.end('<html>Bad Gateway</html>');
    };
    await expect(bot.api.sendMessage(5, 'hi')).rejects.toBeInstanceOf(HttpError);
  });
});

describe('directJsonCalls', () => {
  it('leaves null fields out of the JSON, as grammY does', async () => {
    respond = (_req, res) => json(res, 200, { ok: true, result: true });
    const bot = createBot('123:ABC', { apiRoot: root });
    await bot.api.raw.editMessageReplyMarkup({ chat_id: 5, message_id: 9, reply_markup: null as never });
    expect(JSON.parse(seen.at(-1)!.body)).toEqual({ chat_id: 5, message_id: 9 });
    await bot.api.sendMessage(5, 'null is a word here');
    expect(JSON.parse(seen.at(-1)!.body)).toEqual({ chat_id: 5, text: 'null is a word here' });
  });
});
