// Shortcuts through the real API for the steps a spec is not about.
import { expect, type APIRequestContext } from '@playwright/test';
import { API } from '../../contract/auth';
import { linkIn, waitForMail } from './mail';

let counter = 0;
export function uniqueEmail(prefix = 'user'): string {
  counter += 1;
  return `${prefix}.${Date.now().toString(36)}${counter}@example.com`;
}

export interface TestUser {
  email: string;
  password: string;
  firstName: string;
  lastName: string;
}

export function newUser(prefix?: string): TestUser {
  return { email: uniqueEmail(prefix), password: 'Correct-Horse-42', firstName: 'Alice', lastName: 'Walker' };
}

/** Registers and activates a user through the API and the activation mail. */
export async function createActiveUser(request: APIRequestContext, user: TestUser = newUser()): Promise<TestUser> {
  const since = Date.now();
  const res = await request.post(API.register, {
    data: { email: user.email, password: user.password, re_password: user.password, first_name: user.firstName, last_name: user.lastName },
  });
  expect(res.status(), await res.text()).toBe(201);
  const link = linkIn(await waitForMail(user.email, since, '/activate/'), '/activate/');
  const [uid, token] = new URL(link).pathname.split('/').filter(Boolean).slice(1);
  const activated = await request.post(API.activation, { data: { uid, token } });
  expect(activated.status(), await activated.text()).toBe(204);
  return user;
}

export async function loginToken(request: APIRequestContext, user: TestUser): Promise<string> {
  const res = await request.post(API.login, { data: { email: user.email, password: user.password } });
  expect(res.status(), await res.text()).toBe(200);
  return ((await res.json()) as { auth_token: string }).auth_token;
}

/** The admin of ADMIN_EMAILS (env.ts): made once per server, signed in again by later specs. */
export async function adminToken(request: APIRequestContext, adminEmail: string): Promise<string> {
  const admin: TestUser = { ...newUser('admin'), email: adminEmail };
  const login = await request.post(API.login, { data: { email: admin.email, password: admin.password } });
  if (login.ok()) return ((await login.json()) as { auth_token: string }).auth_token;
  await createActiveUser(request, admin);
  return loginToken(request, admin);
}
