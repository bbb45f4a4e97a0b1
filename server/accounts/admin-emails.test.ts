// ADMIN_EMAILS: the other documented way to make admins. A listed address becomes an admin once
// its account is activated (the address is proven), and accounts already activated are made admins
// at start; an unlisted or unactivated account stays an ordinary user.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '../../contract/auth';
import { users } from '../db/schema';
import { auth, createTestApp, createTestDb, register, signedInUser, type TestApp, type TestDb } from '../test/helpers';
import { grantListedAdmins } from './roles';

let testDb: TestDb;
let t: TestApp;
beforeAll(async () => {
  testDb = await createTestDb();
  t = await createTestApp(testDb.db, { config: { adminEmails: ['boss@example.com', 'later@example.com'] } });
});
afterAll(async () => {
  await t.close();
  await testDb.drop();
});

const roleSeenBy = async (key: string) => (await t.app.inject({ method: 'GET', url: API.me, headers: auth(key) })).json<{ role: string }>().role;

describe('ADMIN_EMAILS', () => {
  it('makes a listed address an admin when its account is activated, and nobody else', async () => {
    expect(await roleSeenBy((await signedInUser(t, 'boss@example.com')).key)).toBe('admin');
    expect(await roleSeenBy((await signedInUser(t, 'worker@example.com')).key)).toBe('user');
  });

  it('at start, makes the activated accounts with listed addresses admins (not the unactivated ones)', async () => {
    await register(t, 'later@example.com'); // signed up, not activated
    await t.db.orm.update(users).set({ role: 'user' }).where(eq(users.email, 'boss@example.com')); // revoked meanwhile
    expect(await grantListedAdmins(t.db, ['boss@example.com', 'later@example.com', 'nobody@example.com'])).toBe(1);
    const rows = await t.db.orm.select({ email: users.email, role: users.role }).from(users);
    expect(Object.fromEntries(rows.map((r) => [r.email, r.role]))).toMatchObject({ 'boss@example.com': 'admin', 'later@example.com': 'user', 'worker@example.com': 'user' });
  });
});
