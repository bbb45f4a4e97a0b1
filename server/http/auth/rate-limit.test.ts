// Rate limits on the sensitive calls, per IP and per e-mail, counted in the database so that
// several server processes share them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '../../../contract/auth';
import {
  createTestApp,
  createTestDb,
  expectJsonError,
  GOOD_PASSWORD,
  uniqueEmail,
  type TestApp,
  type TestDb,
} from '../../test/helpers';

const WINDOW_S = 600;
const PER_IP = 6;
const PER_EMAIL = 3;

let testDb: TestDb;
let t: TestApp;
let ipCounter = 0;
/** Each test speaks from its own address, so per-IP counts do not leak between tests. */
const freshIp = () => `10.0.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`;

beforeAll(async () => {
  testDb = await createTestDb();
  t = await createTestApp(testDb.db, { config: { rateLimit: { windowS: WINDOW_S, perIp: PER_IP, perEmail: PER_EMAIL } } });
});
afterAll(async () => {
  await t?.close();
  await testDb?.drop();
});

const call = (app: TestApp['app'], url: string, payload: object, ip: string) =>
  app.inject({ method: 'POST', url, payload, remoteAddress: ip });

function expectThrottled(res: Awaited<ReturnType<typeof call>>) {
  const body = expectJsonError(res, 429);
  const seconds = Number(res.headers['retry-after']);
  expect(seconds).toBeGreaterThan(0);
  expect(seconds).toBeLessThanOrEqual(WINDOW_S);
  expect(body).toEqual({ detail: `Request was throttled. Expected available in ${seconds} second${seconds === 1 ? '' : 's'}.` });
}

describe('rate limits', () => {
  it('login: per e-mail, then 429 with Retry-After, even with the right password', async () => {
    const email = uniqueEmail();
    const ip = freshIp();
    for (let i = 0; i < PER_EMAIL; i++) {
      expect((await call(t.app, API.login, { email, password: 'wrong-' + i }, ip)).statusCode).toBe(400);
    }
    expectThrottled(await call(t.app, API.login, { email, password: GOOD_PASSWORD }, ip));
    // The same address from elsewhere is throttled too (the e-mail bucket), another address is not.
    expectThrottled(await call(t.app, API.login, { email: email.toUpperCase(), password: 'x' }, freshIp()));
    expect((await call(t.app, API.login, { email: uniqueEmail(), password: 'x' }, ip)).statusCode).toBe(400);
  });

  it('login: per IP across different e-mails', async () => {
    const ip = freshIp();
    for (let i = 0; i < PER_IP; i++) {
      expect((await call(t.app, API.login, { email: uniqueEmail(), password: 'x' }, ip)).statusCode).toBe(400);
    }
    expectThrottled(await call(t.app, API.login, { email: uniqueEmail(), password: 'x' }, ip));
    expect((await call(t.app, API.login, { email: uniqueEmail(), password: 'x' }, freshIp())).statusCode).toBe(400);
  });

  it('the window ends: calls are allowed again afterwards', async () => {
    const email = uniqueEmail();
    const ip = freshIp();
    for (let i = 0; i < PER_EMAIL; i++) await call(t.app, API.login, { email, password: 'x' }, ip);
    expectThrottled(await call(t.app, API.login, { email, password: 'x' }, ip));
    t.clock.advance(WINDOW_S);
    expect((await call(t.app, API.login, { email, password: 'x' }, ip)).statusCode).toBe(400);
  });

  it.each([
    ['register', API.register, (email: string) => ({ email, password: 'short', re_password: 'short' })],
    ['reset_password', API.resetPassword, (email: string) => ({ email })],
    ['resend_activation', API.resendActivation, (email: string) => ({ email })],
  ])('%s is limited per e-mail', async (_name, url, body) => {
    const email = uniqueEmail();
    const ip = freshIp();
    for (let i = 0; i < PER_EMAIL; i++) expect((await call(t.app, url, body(email), ip)).statusCode).toBeLessThan(429);
    expectThrottled(await call(t.app, url, body(email), freshIp()));
  });

  it('reset_password_confirm is limited per IP', async () => {
    const ip = freshIp();
    const body = { uid: 'MQ', token: 'abc-123', new_password: 'Whatever-pass-1', re_new_password: 'Whatever-pass-1' };
    for (let i = 0; i < PER_IP; i++) {
      expect((await call(t.app, API.resetPasswordConfirm, { ...body, uid: `M${'QRSTUVWXYZ'[i]}` }, ip)).statusCode).toBe(400);
    }
    expectThrottled(await call(t.app, API.resetPasswordConfirm, body, ip));
  });

  it('counts are shared by every server process on the same database', async () => {
    const second = await createTestApp(testDb.db, {
      config: { rateLimit: { windowS: WINDOW_S, perIp: PER_IP, perEmail: PER_EMAIL } },
      deps: { now: t.clock.now },
    });
    try {
      const email = uniqueEmail();
      const ip = freshIp();
      await call(t.app, API.login, { email, password: 'x' }, ip);
      await call(second.app, API.login, { email, password: 'x' }, ip);
      await call(t.app, API.login, { email, password: 'x' }, ip);
      expectThrottled(await call(second.app, API.login, { email, password: 'x' }, ip));
    } finally {
      await second.close();
    }
  });

  it('calls without limits (e.g. /api/users/me/) are never throttled', async () => {
    const ip = freshIp();
    for (let i = 0; i < PER_IP * 2; i++) {
      const res = await t.app.inject({ method: 'GET', url: API.me, remoteAddress: ip });
      expect(res.statusCode).toBe(401);
    }
  });
});
