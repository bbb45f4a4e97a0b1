// Signing in and out, the current user, and public profiles.
import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { API } from '../../../contract/auth';
import {
  auth,
  expectJsonError,
  GOOD_PASSWORD,
  login,
  post,
  register,
  signedInUser,
  uniqueEmail,
  useTestApp,
} from '../../test/helpers';

const fixture = useTestApp();

const me = (key: string) => fixture.app.app.inject({ method: 'GET', url: API.me, headers: auth(key) });

describe('POST /api/token/login/', () => {
  it('answers 200 with a 40-hex auth_token that opens /api/users/me/', async () => {
    const user = await signedInUser(fixture.app, uniqueEmail(), { first_name: 'Olga', last_name: 'Ivanova' });
    expect(user.key).toMatch(/^[0-9a-f]{40}$/);
    const res = await me(user.key);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      id: user.id,
      email: user.email,
      first_name: 'Olga',
      last_name: 'Ivanova',
      language: 'en',
      role: 'user',
      is_active: true,
      telegram_id: null,
      telegram_username: null,
      telegram_photo_url: null,
      date_joined: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
  });

  it('accepts the e-mail in any case', async () => {
    const user = await signedInUser(fixture.app);
    expect(await login(fixture.app.app, user.email.toUpperCase(), GOOD_PASSWORD)).toMatch(/^[0-9a-f]{40}$/);
  });

  it('refuses a wrong password, an unknown e-mail, an inactive account with a wrong password and missing fields alike', async () => {
    const active = await signedInUser(fixture.app);
    const inactive = await register(fixture.app);
    const attempts = [
      { email: active.email, password: 'Wrong-password-1' },
      { email: uniqueEmail('ghost'), password: GOOD_PASSWORD },
      { email: inactive.email, password: 'Wrong-password-1' },
      { email: active.email },
      {},
    ];
    for (const attempt of attempts) {
      const res = await post(fixture.app.app, API.login, attempt);
      expect(expectJsonError(res, 400)).toEqual({ non_field_errors: ['Unable to log in with provided credentials.'] });
    }
  });

  it('stores only a hash of the key', async () => {
    const user = await signedInUser(fixture.app);
    const rows = await fixture.app.db.query<{ key_hash: string }>(
      'select key_hash from auth_tokens t join users u on u.id = t.user_id where u.email = $1',
      [user.email],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0].key_hash).not.toContain(user.key);
    expect(rows[0].key_hash).toBe(createHash('sha256').update(user.key).digest('hex'));
  });

  it('gives every sign-in its own key (a key per device)', async () => {
    const user = await signedInUser(fixture.app);
    const second = await login(fixture.app.app, user.email, GOOD_PASSWORD);
    expect(second).not.toBe(user.key);
    expect((await me(user.key)).statusCode).toBe(200);
    expect((await me(second)).statusCode).toBe(200);
  });
});

describe('POST /api/token/logout/', () => {
  it('ends only the session of the device that logs out', async () => {
    const user = await signedInUser(fixture.app);
    const phone = user.key;
    const laptop = await login(fixture.app.app, user.email, GOOD_PASSWORD);
    expect((await me(phone)).statusCode).toBe(200); // now cached in this process

    const res = await post(fixture.app.app, API.logout, undefined, auth(phone));
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expect(expectJsonError(await me(phone), 401)).toEqual({ detail: 'Invalid token.' });
    expect((await me(laptop)).statusCode).toBe(200);
  });

  it('needs credentials', async () => {
    const res = await post(fixture.app.app, API.logout);
    expect(expectJsonError(res, 401)).toEqual({ detail: 'Authentication credentials were not provided.' });
  });
});

describe('GET/PUT/PATCH /api/users/me/', () => {
  it('401 without credentials, with a bad key, or with a malformed header', async () => {
    const none = await fixture.app.app.inject({ method: 'GET', url: API.me });
    expect(expectJsonError(none, 401)).toEqual({ detail: 'Authentication credentials were not provided.' });
    expect(none.headers['www-authenticate']).toBe('Token');
    const bad = await me('0'.repeat(40));
    expect(expectJsonError(bad, 401)).toEqual({ detail: 'Invalid token.' });
    const empty = await fixture.app.app.inject({ method: 'GET', url: API.me, headers: { authorization: 'Token' } });
    expect(expectJsonError(empty, 401)).toEqual({ detail: 'Invalid token header. No credentials provided.' });
    const basic = await fixture.app.app.inject({ method: 'GET', url: API.me, headers: { authorization: 'Basic dTpw' } });
    expect(expectJsonError(basic, 401)).toEqual({ detail: 'Authentication credentials were not provided.' });
  });

  it('PATCH changes names and language; the e-mail cannot be changed here', async () => {
    const user = await signedInUser(fixture.app);
    const res = await fixture.app.app.inject({
      method: 'PATCH',
      url: API.me,
      headers: auth(user.key),
      payload: { first_name: '  Мария ', language: 'ru', email: 'evil@example.com', role: 'admin' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ first_name: 'Мария', language: 'ru', email: user.email, role: 'user' });
    // And it stuck.
    expect((await me(user.key)).json()).toMatchObject({ first_name: 'Мария', language: 'ru', email: user.email });
  });

  it('PUT does the same', async () => {
    const user = await signedInUser(fixture.app);
    const res = await fixture.app.app.inject({
      method: 'PUT',
      url: API.me,
      headers: auth(user.key),
      payload: { first_name: 'Pat', last_name: 'Doe', language: 'en' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ first_name: 'Pat', last_name: 'Doe', language: 'en' });
  });

  it('refuses an unknown language and wrong types', async () => {
    const user = await signedInUser(fixture.app);
    const res = await fixture.app.app.inject({
      method: 'PATCH',
      url: API.me,
      headers: auth(user.key),
      payload: { language: 'de', first_name: 42 },
    });
    expect(expectJsonError(res, 400)).toEqual({
      language: ['"de" is not a valid choice.'],
      first_name: ['Not a valid string.'],
    });
  });
});

describe('GET /api/users/by_id/ and /api/users/by_ids/', () => {
  let alice: Awaited<ReturnType<typeof signedInUser>>;
  let bob: Awaited<ReturnType<typeof signedInUser>>;
  let admin: Awaited<ReturnType<typeof signedInUser>>;

  beforeAll(async () => {
    alice = await signedInUser(fixture.app, uniqueEmail('alice'), { first_name: 'Alice', last_name: 'A' });
    bob = await signedInUser(fixture.app, uniqueEmail('bob'), { first_name: 'Bob', last_name: 'B' });
    admin = await signedInUser(fixture.app, uniqueEmail('admin'), { first_name: 'Ada', last_name: 'Admin' });
    await fixture.app.db.query(`update users set role = 'admin' where id = $1`, [admin.id]);
    fixture.app.app.sessions.forgetUser(admin.id);
  });

  const byId = (key: string, query: string) => fixture.app.app.inject({ method: 'GET', url: `${API.byId}?${query}`, headers: auth(key) });
  const byIds = (key: string, query: string) => fixture.app.app.inject({ method: 'GET', url: `${API.byIds}?${query}`, headers: auth(key) });

  it("shows another user's public profile without the e-mail", async () => {
    const res = await byId(alice.key, `id=${bob.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      id: bob.id,
      first_name: 'Bob',
      last_name: 'B',
      telegram_username: null,
      telegram_photo_url: null,
    });
  });

  it('shows the e-mail to the user themself and to an admin', async () => {
    expect((await byId(bob.key, `id=${bob.id}`)).json().email).toBe(bob.email);
    expect((await byId(admin.key, `id=${bob.id}`)).json().email).toBe(bob.email);
  });

  it('404 for an unknown id, 400 for a non-numeric one, 400 when missing', async () => {
    expect(expectJsonError(await byId(alice.key, 'id=999999'), 404)).toEqual({ detail: 'Not found.' });
    expect(expectJsonError(await byId(alice.key, 'id=abc'), 400)).toEqual({ id: ['A valid integer is required.'] });
    expect(expectJsonError(await byId(alice.key, 'id=99999999999999999999'), 400)).toEqual({
      id: ['A valid integer is required.'],
    });
    expect(expectJsonError(await byId(alice.key, 'x=1'), 400)).toEqual({ id: ['This field is required.'] });
  });

  it('hides accounts that were never activated from other users', async () => {
    const pending = await register(fixture.app);
    expect((await byId(alice.key, `id=${pending.id}`)).statusCode).toBe(404);
    expect((await byId(admin.key, `id=${pending.id}`)).statusCode).toBe(200);
  });

  it('by_ids returns the known profiles in the order asked, e-mail only where allowed', async () => {
    const res = await byIds(alice.key, `id[]=${bob.id}&id[]=999999&id[]=${alice.id}&id[]=${bob.id}`);
    expect(res.statusCode).toBe(200);
    const list = res.json();
    expect(list.map((u: { id: number }) => u.id)).toEqual([bob.id, alice.id]);
    expect(list[0]).not.toHaveProperty('email');
    expect(list[1].email).toBe(alice.email);
  });

  it('by_ids with one id, a bad id, or none', async () => {
    expect((await byIds(alice.key, `id[]=${bob.id}`)).json()).toHaveLength(1);
    expect(expectJsonError(await byIds(alice.key, `id[]=${bob.id}&id[]=x`), 400)).toEqual({
      id: ['A valid integer is required.'],
    });
    expect(expectJsonError(await byIds(alice.key, ''), 400)).toEqual({ id: ['This field is required.'] });
    const many = Array.from({ length: 101 }, (_, i) => `id[]=${i + 1}`).join('&');
    expect(expectJsonError(await byIds(alice.key, many), 400)).toEqual({
      id: ['Ensure this field has no more than 100 elements.'],
    });
  });

  it('both need credentials', async () => {
    for (const url of [`${API.byId}?id=1`, `${API.byIds}?id[]=1`]) {
      const res = await fixture.app.app.inject({ method: 'GET', url });
      expect(expectJsonError(res, 401)).toEqual({ detail: 'Authentication credentials were not provided.' });
    }
  });
});
