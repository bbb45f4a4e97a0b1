// What any client sees whatever it sends: Djoser/DRF-shaped JSON errors and never a 500;
// the health check; headers; and logs that keep secrets out.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '../../contract/auth';
import { MAX_BODY_BYTES } from '../../contract/constants';
import { signInitData } from '../../scripts/telegram/init-data';
import { buildApp } from '../app';
import { users } from '../db/schema';
import {
  auth,
  expectJsonError,
  GOOD_PASSWORD,
  post,
  recordingMailer,
  signedInUser,
  TEST_BOT_TOKEN,
  tempDir,
  testConfig,
  useTestApp,
} from '../test/helpers';

const fixture = useTestApp();

const json = { 'content-type': 'application/json' };

describe('bad input gets a 4xx JSON answer', () => {
  it('malformed JSON → 400 {"detail": "JSON parse error - ..."}', async () => {
    const res = await fixture.app.app.inject({ method: 'POST', url: API.login, headers: json, payload: '{"email": "a@b.c",' });
    const body = expectJsonError(res, 400);
    expect(body.detail).toMatch(/^JSON parse error - /);
  });

  it('a body that is not an object → non_field_errors', async () => {
    for (const [payload, type] of [['[1,2]', 'list'], ['"text"', 'str'], ['42', 'int'], ['null', 'NoneType'], ['true', 'bool']]) {
      const res = await fixture.app.app.inject({ method: 'POST', url: API.register, headers: json, payload });
      expect(expectJsonError(res, 400)).toEqual({ non_field_errors: [`Invalid data. Expected a dictionary, but got ${type}.`] });
    }
  });

  it('wrong types per field, in DRF words', async () => {
    const res = await post(fixture.app.app, API.register, { email: ['a@b.c'], password: 1234, re_password: null, first_name: {}, last_name: true });
    expect(expectJsonError(res, 400)).toEqual({
      email: ['Not a valid string.'],
      password: ['Not a valid string.'],
      re_password: ['This field may not be null.'],
      first_name: ['Not a valid string.'],
      last_name: ['Not a valid string.'],
    });
  });

  it('a POST with no body at all names the required fields', async () => {
    const res = await fixture.app.app.inject({ method: 'POST', url: API.resetPasswordConfirm });
    expect(Object.keys(expectJsonError(res, 400))).toEqual(['uid', 'token', 'new_password', 're_new_password']);
  });

  it('null characters are refused, not passed to the database', async () => {
    const res = await post(fixture.app.app, API.login, { email: 'a\u0000@b.c', password: 'x' });
    expect(expectJsonError(res, 400)).toEqual({ email: ['Null characters are not allowed.'] });
  });

  it(`a body over ${MAX_BODY_BYTES} bytes → 413`, async () => {
    const res = await post(fixture.app.app, API.register, { email: 'a@b.c', password: 'x'.repeat(MAX_BODY_BYTES), re_password: 'x' });
    expect(expectJsonError(res, 413)).toEqual({ detail: 'Request body is too large.' });
  });

  it('a body that is not JSON → 415', async () => {
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/xml']) {
      const res = await fixture.app.app.inject({ method: 'POST', url: API.login, headers: { 'content-type': type }, payload: 'email=a' });
      expect(expectJsonError(res, 415)).toEqual({ detail: `Unsupported media type "${type}" in request.` });
    }
  });

  it('unknown API paths → 404 {"detail": "Not found."}', async () => {
    for (const url of ['/api/nothing/', '/api/users/me', '/api/users/42/', '/api/', '/api']) {
      expect(expectJsonError(await fixture.app.app.inject({ method: 'GET', url }), 404)).toEqual({ detail: 'Not found.' });
    }
    expect(expectJsonError(await fixture.app.app.inject({ method: 'POST', url: '/api/nothing/' }), 404)).toEqual({ detail: 'Not found.' });
  });

  it('a known path with the wrong method → 405 with Allow', async () => {
    const res = await fixture.app.app.inject({ method: 'DELETE', url: API.me });
    expect(expectJsonError(res, 405)).toEqual({ detail: 'Method "DELETE" not allowed.' });
    expect(res.headers.allow).toContain('GET');
    expect(res.headers.allow).toContain('PATCH');
    const get = await fixture.app.app.inject({ method: 'GET', url: API.login });
    expect(expectJsonError(get, 405)).toEqual({ detail: 'Method "GET" not allowed.' });
  });

  it('never answers 500, whatever is thrown at any route', async () => {
    const user = await signedInUser(fixture.app);
    const bodies: (string | undefined)[] = [
      undefined,
      '',
      '{}',
      'null',
      '[]',
      '"x"',
      '{"email": {"$ne": null}, "password": {"$gt": ""}}',
      '{"__proto__": {"isAdmin": true}, "email": "a@b.c"}',
      '{"constructor": {"prototype": {"x": 1}}}',
      '{"uid": "' + 'A'.repeat(5000) + '", "token": "x"}',
      '{"uid": "MTAwMDAwMDAwMDAwMDAw", "token": "zzzzzzzzzzzzzzz-' + 'f'.repeat(32) + '"}',
      '{"uid": "LTE", "token": "1-' + '0'.repeat(32) + '"}',
      '{"id": 1e309, "email": "\\ud800@x.io", "first_name": "\\ud800", "language": "ru"}',
      '{"email": "' + 'a'.repeat(250) + '@b.c", "password": "' + 'p'.repeat(200) + '"}',
      '[' .repeat(5000) + ']'.repeat(5000),
      '{"a":'.repeat(3000) + '1' + '}'.repeat(3000),
      '\u0000',
      '{"email": "a@b.c"}garbage',
    ];
    const routes: [string, string][] = [
      ['POST', API.register],
      ['POST', API.activation],
      ['POST', API.resendActivation],
      ['POST', API.login],
      ['POST', API.logout],
      ['POST', API.resetPassword],
      ['POST', API.resetPasswordConfirm],
      ['POST', API.setPassword],
      ['PUT', API.me],
      ['PATCH', API.me],
    ];
    const headerSets: Record<string, string>[] = [
      {},
      auth(user.key),
      { authorization: 'Token ' + 'x'.repeat(3000) },
      { authorization: 'TG %%%zz&&&hash=' },
      { authorization: 'TG user=%7B%22id%22%3A%22x%22%7D&auth_date=1&hash=' + '0'.repeat(64) },
      { cookie: 'language=%E0%A4%A; auth_token=%%%', 'accept-language': ';;,,-' },
    ];
    const statuses = new Set<number>();
    for (const [method, url] of routes) {
      for (const payload of bodies) {
        for (const headers of headerSets) {
          const res = await fixture.app.app.inject({ method: method as 'POST', url, headers: { ...json, ...headers }, payload });
          statuses.add(res.statusCode);
          expect(res.statusCode, `${method} ${url} ${payload?.slice(0, 60)} → ${res.body}`).toBeLessThan(500);
          if (res.statusCode >= 400) expect(res.headers['content-type']).toMatch(/^application\/json/);
        }
      }
    }
    const queries = ['id=', 'id=-1', 'id=1.5', 'id=0x10', 'id[]=1', 'id=%00', 'id=%E0%A4%A', 'id=1&id=2', 'id[]=a&id[]=', 'id[][]=1', '%%%'];
    for (const base of [API.byId, API.byIds]) {
      for (const query of queries) {
        const res = await fixture.app.app.inject({ method: 'GET', url: `${base}?${query}`, headers: auth(user.key) });
        expect(res.statusCode, `${base}?${query} → ${res.body}`).toBeLessThan(500);
      }
    }
    expect(statuses.has(400)).toBe(true);
    expect(statuses.has(401)).toBe(true);
  });
});

describe('the server itself', () => {
  it('GET /api/health → {"status": "ok"}', async () => {
    const res = await fixture.app.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
  });

  it('health says 503 when the database is unreachable', async () => {
    const brokenDb = { ...fixture.db.db, query: () => Promise.reject(new Error('connection refused')) };
    const app = await buildApp({ config: testConfig(), db: brokenDb, mailer: recordingMailer(), logger: false });
    try {
      const res = await app.inject({ method: 'GET', url: '/api/health' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ status: 'unavailable' });
    } finally {
      await app.close();
    }
  });

  it('an unexpected failure → 500 {"detail": "A server error occurred."}; neither answer nor log leak query parameters', async () => {
    const lines: string[] = [];
    const app = await buildApp({
      config: testConfig(),
      db: fixture.db.db,
      mailer: recordingMailer(),
      logger: { stream: { write: (line) => void lines.push(line) } },
    });
    app.get('/api/test-boom/', async () => {
      // A real database failure: Drizzle puts the bound parameters into the error message.
      await fixture.db.db.orm.insert(users).values({ email: 'Secret-Param@Example.com', passwordHash: 'scrypt$secret-hash' });
      return {};
    });
    try {
      const res = await app.inject({ method: 'GET', url: '/api/test-boom/' });
      expect(expectJsonError(res, 500)).toEqual({ detail: 'A server error occurred.' });
      expect(res.body).not.toMatch(/secret|insert/i);
      const log = lines.join('');
      expect(log).toContain('request failed');
      expect(log).toContain('users_email_lowercase_check');
      expect(log).not.toMatch(/Secret-Param|secret-hash/);
    } finally {
      await app.close();
    }
  });

  it('API answers are not cached and not sniffed', async () => {
    const res = await fixture.app.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toBe('same-origin');
  });
});

describe('logs', () => {
  it('never contain passwords, API keys, init data or ?token= values', async () => {
    const lines: string[] = [];
    const config = testConfig();
    const mailer = recordingMailer();
    const app = await buildApp({ config, db: fixture.db.db, mailer, logger: { level: 'trace', stream: { write: (line) => void lines.push(line) } } });
    try {
      const email = `logs.${Date.now()}@example.com`;
      const password = 'Log-secret-pass-91';
      await post(app, API.register, { email, password, re_password: password });
      const link = (await mailer.next(email)).links![0];
      const [uid, token] = new URL(link).pathname.split('/').filter(Boolean).slice(1);
      await post(app, API.activation, { uid, token });
      const login = await post(app, API.login, { email, password });
      const key = login.json().auth_token as string;
      await app.inject({ method: 'GET', url: API.me, headers: auth(key) });
      await post(app, API.login, { email, password: 'Wrong-secret-77' });
      const initData = signInitData({ botToken: TEST_BOT_TOKEN, user: { id: 99_000_001, first_name: 'Log' } });
      await app.inject({ method: 'GET', url: API.me, headers: { authorization: `TG ${initData}` } });
      await app.inject({ method: 'GET', url: `/content/panel/?token=${key}` });
      await post(app, API.setPassword, { current_password: password, new_password: GOOD_PASSWORD, re_new_password: GOOD_PASSWORD }, auth(key));

      const log = lines.join('');
      expect(lines.length).toBeGreaterThan(10); // logging did happen
      expect(log).toContain('/api/token/login/');
      for (const secret of [password, 'Wrong-secret-77', GOOD_PASSWORD, key, token, new URLSearchParams(initData).get('hash')!, 'auth_date']) {
        expect(log).not.toContain(secret);
      }
    } finally {
      await app.close();
    }
  });
});

describe('the built SPA', () => {
  const INDEX = '<!doctype html><html><body><div id="app"></div><script type="module" src="/assets/index-4f2a9c.js"></script></body></html>';
  let distDir: string;
  let app: Awaited<ReturnType<typeof buildApp>>;

  beforeAll(async () => {
    distDir = tempDir('funnels-dist-');
    mkdirSync(path.join(distDir, 'assets'));
    writeFileSync(path.join(distDir, 'index.html'), INDEX);
    writeFileSync(path.join(distDir, 'assets', 'index-4f2a9c.js'), 'console.log("app")');
    writeFileSync(path.join(distDir, 'robots.txt'), 'User-agent: *');
    app = await buildApp({ config: testConfig({ distDir }), db: fixture.db.db, mailer: recordingMailer(), logger: false });
  });
  afterAll(async () => {
    await app?.close();
    rmSync(distDir, { recursive: true, force: true });
  });

  it.each(['/', '/settings/language/', '/reset-pass/MQ/abc-123/', '/activate/MQ/x/', '/content/panel/?token=abc', '/sign-in/', '/partner/dashboard/Zx9/'])(
    'deep link %s loads index.html, never cached',
    async (url) => {
      const res = await app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.body).toBe(INDEX);
    },
  );

  it('hashed assets are served with a year-long immutable cache', async () => {
    const res = await app.inject({ method: 'GET', url: '/assets/index-4f2a9c.js' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/javascript/);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.body).toBe('console.log("app")');
  });

  it('assets go out brotli- or gzip-compressed from the files the build wrote', async () => {
    const js = 'console.log("app")';
    writeFileSync(path.join(distDir, 'assets', 'index-4f2a9c.js.br'), brotliCompressSync(js));
    writeFileSync(path.join(distDir, 'assets', 'index-4f2a9c.js.gz'), gzipSync(js));
    const br = await app.inject({ method: 'GET', url: '/assets/index-4f2a9c.js', headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/javascript/);
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(js);
    const gz = await app.inject({ method: 'GET', url: '/assets/index-4f2a9c.js', headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(js);
    const plain = await app.inject({ method: 'GET', url: '/assets/index-4f2a9c.js', headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(js);
  });

  it('the HTML goes out precompressed and still never cached, on every path that serves it', async () => {
    const brFile = path.join(distDir, 'index.html.br');
    const gzFile = path.join(distDir, 'index.html.gz');
    writeFileSync(brFile, brotliCompressSync(INDEX));
    writeFileSync(gzFile, gzipSync(INDEX));
    try {
      for (const url of ['/', '/settings/language/', '/index.html']) {
        const br = await app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip, deflate, br' } });
        expect(br.headers['content-encoding'], url).toBe('br');
        expect(br.headers['cache-control'], url).toBe('no-cache');
        expect(brotliDecompressSync(br.rawPayload).toString()).toBe(INDEX);
        const gz = await app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip' } });
        expect(gz.headers['content-encoding'], url).toBe('gzip');
        expect(gz.headers['cache-control'], url).toBe('no-cache');
        expect(gunzipSync(gz.rawPayload).toString()).toBe(INDEX);
      }
      // Beside them, a precompressed asset keeps its year and the API its no-store.
      const js = 'console.log("app")';
      writeFileSync(path.join(distDir, 'assets', 'index-4f2a9c.js.gz'), gzipSync(js));
      const asset = await app.inject({ method: 'GET', url: '/assets/index-4f2a9c.js', headers: { 'accept-encoding': 'gzip' } });
      expect(asset.headers['content-encoding']).toBe('gzip');
      expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect((await app.inject({ method: 'GET', url: '/api/health', headers: { 'accept-encoding': 'gzip, br' } })).headers['cache-control']).toBe('no-store');
    } finally {
      rmSync(brFile);
      rmSync(gzFile);
    }
  });

  it('other files are served as they are', async () => {
    const res = await app.inject({ method: 'GET', url: '/robots.txt' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('User-agent: *');
  });

  it('a missing asset is a 404, not the HTML page', async () => {
    const res = await app.inject({ method: 'GET', url: '/assets/index-000000.js' });
    expect(expectJsonError(res, 404)).toEqual({ detail: 'Not found.' });
    expect((await app.inject({ method: 'GET', url: '/favicon.ico' })).statusCode).toBe(404);
  });

  it('the API keeps answering JSON next to the SPA', async () => {
    expect(expectJsonError(await app.inject({ method: 'GET', url: '/api/unknown/' }), 404)).toEqual({ detail: 'Not found.' });
    expect((await app.inject({ method: 'GET', url: '/api/health' })).json()).toEqual({ status: 'ok' });
    expect(expectJsonError(await app.inject({ method: 'GET', url: API.me }), 401)).toEqual({
      detail: 'Authentication credentials were not provided.',
    });
  });

  it('an app path typed without its trailing slash is sent to the slash form, keeping the query', async () => {
    for (const [typed, canonical] of [
      ['/content/dashboard', '/content/dashboard/'],
      ['/sign-in?x=1&y=%20z', '/sign-in/?x=1&y=%20z'],
      // The reset link in the e-mail has no slash (spec): it still opens the app.
      ['/reset-pass/MQ/abc-123', '/reset-pass/MQ/abc-123/'],
    ]) {
      for (const method of ['GET', 'HEAD'] as const) {
        const res = await app.inject({ method, url: typed });
        expect(res.statusCode, `${method} ${typed}`).toBe(301);
        expect(res.headers.location).toBe(canonical);
      }
      expect((await app.inject({ method: 'GET', url: canonical })).body).toBe(INDEX);
    }
    // Files and the API are left as they are.
    expect((await app.inject({ method: 'GET', url: '/robots.txt' })).statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: '/assets/missing.js' })).statusCode).toBe(404);
    expect((await app.inject({ method: 'GET', url: '/api/users/me' })).statusCode).toBe(404);
  });

  it("the router's own refusals are Djoser-shaped, carry nothing of the request, and do not depend on the method", async () => {
    const long = (n: number) => '7'.repeat(n);
    const cases: Array<[url: string, status: number]> = [
      ['/api/funnels/%ZZ/', 400],
      ['/content/%ZZ/', 400],
      ['/api/funnels/%E0%A4%A/', 400],
      [`/api/funnels/${long(101)}/`, 404],
      [`/api/funnels/${long(5000)}/`, 404],
      [`/api/stages/${long(300)}/message/`, 404],
      [`/content/funnels/${long(5000)}/`, 404],
    ];
    for (const [url, status] of cases) {
      for (const method of ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'] as const) {
        const res = await app.inject({ method, url });
        expect(res.statusCode, `${method} ${url.slice(0, 40)}`).toBe(status);
        if (method === 'HEAD') continue;
        const body = expectJsonError(res, status);
        expect(Object.keys(body)).toEqual(['detail']);
        expect(res.body).not.toContain('%ZZ');
        expect(res.body).not.toContain('7777');
        expect(res.body).not.toContain('FST_');
      }
    }
  });

  it('what the HTTP parser refuses is answered in the Djoser shape too', async () => {
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as { port: number };
    const raw = (request: string) =>
      new Promise<string>((resolve, reject) => {
        const socket = connect(port, '127.0.0.1', () => socket.end(request));
        let answer = '';
        socket.on('data', (chunk) => (answer += chunk.toString()));
        socket.on('end', () => resolve(answer));
        socket.on('error', reject);
      });
    const badLength = await raw('POST /api/token/login/ HTTP/1.1\r\nHost: x\r\nContent-Length: nope\r\n\r\n{}');
    expect(badLength).toMatch(/^HTTP\/1\.1 400 /);
    expect(badLength.split('\r\n\r\n')[1]).toBe(JSON.stringify({ detail: 'Bad request.' }));
    const badHeader = await raw('GET / HTTP/1.1\r\nHost: x\r\nBad Header Name: y\r\n\r\n');
    expect(badHeader).toMatch(/^HTTP\/1\.1 400 /);
    expect(badHeader).toContain('{"detail":"Bad request."}');
  });

  it('only GET (and HEAD) load the page', async () => {
    expect(expectJsonError(await app.inject({ method: 'POST', url: '/settings/' }), 404)).toEqual({ detail: 'Not found.' });
    const head = await app.inject({ method: 'HEAD', url: '/settings/' });
    expect(head.statusCode).toBe(200);
  });

  it('without a built SPA, app paths are a plain 404', async () => {
    expect(expectJsonError(await fixture.app.app.inject({ method: 'GET', url: '/settings/' }), 404)).toEqual({ detail: 'Not found.' });
  });
});
