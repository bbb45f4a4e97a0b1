// Roles: a user is an ordinary user or an admin (publishes funnel templates). Admins are made from
// the command line (`npm run admin -- grant user@example.com`, scripts/admin.ts) or listed in
// ADMIN_EMAILS (made admins when their account is activated, and at every start), never through
// the API: nobody can make themself an admin over HTTP.
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../db';
import { users } from '../db/schema';
import { normalizeEmail } from './users';

export type Role = 'user' | 'admin';

export class NoSuchUserError extends Error {
  constructor(readonly email: string) {
    super(`No account has the e-mail ${email}: sign up first, then grant the role.`);
  }
}

/** Sets the role of the account with this e-mail; answers whether it changed. */
export async function setRole(db: Db, email: string, role: Role): Promise<boolean> {
  const address = normalizeEmail(email);
  const [user] = await db.orm.select({ id: users.id, role: users.role }).from(users).where(eq(users.email, address)).limit(1);
  if (!user) throw new NoSuchUserError(address);
  if (user.role === role) return false;
  await db.orm.update(users).set({ role }).where(eq(users.id, user.id));
  return true;
}

/** The admins' e-mails (or, for a Telegram-only admin, @username / the Telegram id). */
export async function listAdmins(db: Db): Promise<string[]> {
  const rows = await db.orm
    .select({ email: users.email, telegramUsername: users.telegramUsername, telegramId: users.telegramId })
    .from(users)
    .where(eq(users.role, 'admin'))
    .orderBy(asc(users.id));
  return rows.map((r) => r.email ?? (r.telegramUsername ? `@${r.telegramUsername}` : `telegram:${r.telegramId}`));
}

/** ADMIN_EMAILS: the activated accounts with these e-mails become admins; answers how many changed. */
export async function grantListedAdmins(db: Db, emails: string[]): Promise<number> {
  if (emails.length === 0) return 0;
  const changed = await db.orm
    .update(users)
    .set({ role: 'admin' })
    .where(and(inArray(users.email, emails.map(normalizeEmail)), eq(users.isActive, true), eq(users.role, 'user')))
    .returning({ id: users.id });
  return changed.length;
}
