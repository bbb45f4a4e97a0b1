// Several processes on one PostgreSQL: what one instance ends or changes (logout, password
// change or reset, profile update) reaches the session caches of the others at once, by
// LISTEN/NOTIFY, and an instance that is not listening does not trust its cache.
// Needs a PostgreSQL server (TEST_DATABASE_URL); on PGlite there is one process to speak of.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '../../../contract/auth';
import { createDb, type Db } from '../../db';
import { LISTENER_APPLICATION_NAME } from '../../db/listener';
import { DEFAULT_CACHE_TTL_MS } from '../../accounts/sessions';
import { until } from '../../test/eventually';
import {
  auth,
  createTestApp,
  createTestDb,
  GOOD_PASSWORD,
  linkIn,
  linkParts,
  login,
  post,
  signedInUser,
  TEST_DATABASE_URL,
  type TestApp,
  type TestDb,
} from '../../test/helpers';

/** "Right away": well under the cache's TTL. */
const PROPAGATION_LIMIT_MS = 1_000;
// A: where changes are made. B: a second process on the same database (its own pool).
let testDb: TestDb;
let dbB: Db;
let a: TestApp;
let b: TestApp;

// Short reconnect delays would race the "while it is down" checks: keep B down for a while.
const timings = { retryMinMs: 1_500, retryMaxMs: 1_500 };

beforeAll(async () => {
  testDb = await createTestDb();
  if (!testDb.url) return;
  dbB = await createDb({ databaseUrl: testDb.url, dataDir: '' }, { poolMax: 5 });
  a = await createTestApp(testDb.db, { deps: { sessionListenerTimings: timings } });
  b = await createTestApp(dbB, { deps: { sessionListenerTimings: timings } });
});
afterAll(async () => {
  await a?.close();
  await b?.close();
  await dbB?.close();
  await testDb?.drop();
});

const me = (t: TestApp, key: string) => t.app.inject({ method: 'GET', url: API.me, headers: auth(key) });

/** Polls `check` until it holds; returns how long that took, or fails after PROPAGATION_LIMIT_MS. */
async function within(limitMs: number, check: () => Promise<boolean>): Promise<number> {
  const started = Date.now();
  await until(check, 'the change to be seen', { timeoutMs: limitMs, pollMs: 10 });
  return Date.now() - started;
}

const refusedOn = (t: TestApp, key: string) => async () => (await me(t, key)).statusCode === 401;

describe('on PGlite', () => {
  it.skipIf(!!TEST_DATABASE_URL)('the session cache is local: one process, invalidated in place (PGlite only: the embedded database)', async () => {
    const t = await createTestApp(testDb.db);
    try {
      expect(t.app.sessions.cacheState()).toBe('local');
    } finally {
      await t.close();
    }
  });
});

describe.skipIf(!TEST_DATABASE_URL)('two app instances on one PostgreSQL database (PostgreSQL only: PGlite is one process, nothing to tell others; set TEST_DATABASE_URL)', () => {
  it('both listen once ready', () => {
    expect(a.app.sessions.cacheState()).toBe('listening');
    expect(b.app.sessions.cacheState()).toBe('listening');
  });

  it('B really serves `me` from its cache (else the tests below would prove nothing)', async () => {
    const user = await signedInUser(a, undefined, { first_name: 'Cached' });
    expect((await me(b, user.key)).json().first_name).toBe('Cached');
    // A change behind the app's back (no NOTIFY): B keeps its copy until the TTL ends.
    await testDb.db.query('update users set first_name = $1 where id = $2', ['Behind', user.id]);
    expect((await me(b, user.key)).json().first_name).toBe('Cached');
    expect((await me(a, user.key)).json().first_name).toBe('Behind'); // A had nothing cached
  });

  it('a key logged out on A is refused on B right away', async () => {
    const user = await signedInUser(a);
    expect((await me(b, user.key)).statusCode).toBe(200);
    expect((await post(a.app, API.logout, undefined, auth(user.key))).statusCode).toBe(204);
    const tookMs = await within(PROPAGATION_LIMIT_MS, refusedOn(b, user.key));
    expect(tookMs).toBeLessThan(DEFAULT_CACHE_TTL_MS / 5);
    expect((await me(b, user.key)).json()).toEqual({ detail: 'Invalid token.' });
  });

  it('a password change on A ends every key of that user on B right away', async () => {
    const user = await signedInUser(a);
    const second = await login(a.app, user.email, GOOD_PASSWORD);
    const other = await signedInUser(a);
    for (const key of [user.key, second, other.key]) expect((await me(b, key)).statusCode).toBe(200);
    const res = await post(
      a.app,
      API.setPassword,
      { current_password: GOOD_PASSWORD, new_password: 'Brand-new-pass-7', re_new_password: 'Brand-new-pass-7' },
      auth(user.key),
    );
    expect(res.statusCode, res.body).toBe(204);
    await within(PROPAGATION_LIMIT_MS, refusedOn(b, user.key));
    await within(PROPAGATION_LIMIT_MS, refusedOn(b, second));
    // Someone else's session is untouched.
    expect((await me(b, other.key)).statusCode).toBe(200);
  });

  it('a password reset confirmed on A ends every key of that user on B right away', async () => {
    const user = await signedInUser(a);
    expect((await me(b, user.key)).statusCode).toBe(200);
    expect((await post(a.app, API.resetPassword, { email: user.email })).statusCode).toBe(204);
    const { uid, token } = linkParts(linkIn(await a.mailer.next(user.email)));
    const res = await post(a.app, API.resetPasswordConfirm, {
      uid,
      token,
      new_password: 'Reset-and-go-88',
      re_new_password: 'Reset-and-go-88',
    });
    expect(res.statusCode, res.body).toBe(204);
    await within(PROPAGATION_LIMIT_MS, refusedOn(b, user.key));
  });

  it('a name changed by PATCH on A shows in B’s `me` right away; PUT too', async () => {
    const user = await signedInUser(a, undefined, { first_name: 'Before' });
    expect((await me(b, user.key)).json().first_name).toBe('Before');
    const patched = await a.app.inject({ method: 'PATCH', url: API.me, headers: auth(user.key), payload: { first_name: 'After' } });
    expect(patched.statusCode, patched.body).toBe(200);
    await within(PROPAGATION_LIMIT_MS, async () => (await me(b, user.key)).json().first_name === 'After');
    const put = await a.app.inject({ method: 'PUT', url: API.me, headers: auth(user.key), payload: { last_name: 'Put', language: 'ru' } });
    expect(put.statusCode, put.body).toBe(200);
    await within(PROPAGATION_LIMIT_MS, async () => {
      const body = (await me(b, user.key)).json();
      return body.last_name === 'Put' && body.language === 'ru';
    });
  });

  it('while its LISTEN connection is down, B asks the database every time; once back, it listens again', async () => {
    const user = await signedInUser(a);
    const later = await signedInUser(a);
    expect((await me(b, user.key)).statusCode).toBe(200);

    // Cut the listening connections of this database (both instances'), as a restart would.
    await testDb.db.query(
      'select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1 and datname = current_database()',
      [LISTENER_APPLICATION_NAME],
    );
    await within(PROPAGATION_LIMIT_MS, async () => b.app.sessions.cacheState() === 'down');
    // Used on B while down (a trusting cache would keep it), then a logout B cannot hear of.
    expect((await me(b, user.key)).statusCode).toBe(200);
    expect((await post(a.app, API.logout, undefined, auth(user.key))).statusCode).toBe(204);
    expect((await me(b, user.key)).statusCode).toBe(401);
    expect(b.app.sessions.cacheState()).toBe('down');

    // Reconnected (after the backoff): caching and invalidation work again.
    await within(10_000, async () => b.app.sessions.cacheState() === 'listening');
    await within(10_000, async () => a.app.sessions.cacheState() === 'listening');
    expect((await me(b, later.key)).statusCode).toBe(200);
    expect((await post(a.app, API.logout, undefined, auth(later.key))).statusCode).toBe(204);
    await within(PROPAGATION_LIMIT_MS, refusedOn(b, later.key));
  });
});
