// Accounts: register and activate by e-mail link, sign in and out with per-device keys, the
// profile, public profiles, and passwords (reset by e-mail link, change). The data access of the
// auth API, without HTTP: failures are AccountErrors, which server/http/auth maps to Djoser's
// exact bodies; rate limits and the request's language stay with the routes.
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { PublicUser, RegisterBody, UpdateMeBody } from '../../contract/auth';
import { ACTIVATION_TOKEN_TTL_S, RESET_TOKEN_TTL_S, type Language } from '../../contract/constants';
import { activationPath, resetPasswordPath } from '../../contract/routes';
import { MAX_ID } from '../../contract/schemas/common';
import type { Config } from '../config';
import type { Db } from '../db';
import { isUniqueViolation } from '../db/errors';
import { funnels, users, type UserRow } from '../db/schema';
import type { Mailer } from '../mail/mailer';
import { activationMail, passwordResetMail } from '../mail/templates';
import { validatePassword } from './password-validators';
import { hashPassword, verifyPassword } from './passwords';
import { telegramLanguage, type Sessions } from './sessions';
import type { TelegramUser } from './telegram-init-data';
import { checkLinkToken, decodeUid, encodeUid, makeLinkToken, type LinkPurpose } from './tokens';
import { normalizeEmail, toPublicUser } from './users';

/** Why an account call failed (the auth API words each one as Djoser does). */
export type AccountErrorReason =
  | 'email_taken'
  /** The password breaks a rule: `problems` lists them, `field` names the password. */
  | 'weak_password'
  | 'password_mismatch'
  | 'invalid_credentials'
  | 'invalid_uid'
  | 'invalid_token'
  /** The link was for an account that is active already. */
  | 'stale_token'
  /** The current password, given to change it, is wrong. */
  | 'wrong_password'
  /** The signed-in account is no longer there. */
  | 'user_gone'
  /** Right password, but the account was never activated. */
  | 'inactive_account'
  /** The Telegram identity opens another account already (one with its own data or e-mail). */
  | 'telegram_taken'
  /** The e-mail account is linked to another Telegram identity. */
  | 'other_telegram'
  /** The Telegram identity opens an account already ("Start here" or attaching it again elsewhere). */
  | 'telegram_known'
  /** The init data given as proof of a Telegram identity is forged, foreign, malformed or too old. */
  | 'invalid_init_data'
  /** Unlinking Telegram would leave no way to sign in (no e-mail and password). */
  | 'last_sign_in'
  /** The account has an e-mail already. */
  | 'has_email'
  | 'not_found';

/** Which password a rule was broken by (registering, or choosing a new one). */
export type PasswordField = 'password' | 'new_password';

export class AccountError extends Error {
  constructor(
    readonly reason: AccountErrorReason,
    readonly weakPassword: { field: PasswordField; problems: string[] } | null = null,
  ) {
    super(reason);
    this.name = 'AccountError';
  }
}

export interface AccountServiceDeps {
  db: Db;
  config: Pick<Config, 'secretKey' | 'publicUrl'> & Partial<Pick<Config, 'adminEmails'>>;
  mailer: Mailer;
  sessions: Sessions;
  now: () => Date;
  /** Runs work after the answer is sent (mail that must not reveal whether an account exists). */
  background: (task: () => Promise<void>) => void;
}

export type AccountService = ReturnType<typeof createAccountService>;

export function createAccountService(deps: AccountServiceDeps) {
  const { db, config, mailer, sessions, now, background } = deps;

  async function userById(id: number): Promise<UserRow | undefined> {
    if (id > MAX_ID) return undefined;
    const [user] = await db.orm.select().from(users).where(eq(users.id, id)).limit(1);
    return user;
  }

  async function userByEmail(email: string): Promise<UserRow | undefined> {
    const [user] = await db.orm.select().from(users).where(eq(users.email, normalizeEmail(email))).limit(1);
    return user;
  }

  function link(purpose: LinkPurpose, user: UserRow): string {
    const token = makeLinkToken(config.secretKey, purpose, user, now());
    const uid = encodeUid(user.id);
    return config.publicUrl + (purpose === 'activation' ? activationPath(uid, token) : resetPasswordPath(uid, token));
  }

  /** Mails the activation link (the caller decides what a failure means). */
  async function sendActivation(user: UserRow): Promise<void> {
    if (!user.email) return;
    const url = link('activation', user);
    await mailer.send({ to: user.email, ...activationMail(user, url), links: [url] });
  }

  async function sendPasswordReset(user: UserRow): Promise<void> {
    if (!user.email) return;
    const url = link('password-reset', user);
    await mailer.send({ to: user.email, ...passwordResetMail(user, url), links: [url] });
  }

  /** The user an e-mail link names, checked like Djoser's UidAndTokenSerializer. */
  async function userFromLink(purpose: LinkPurpose, uid: string, token: string, ttlS: number): Promise<UserRow> {
    const id = decodeUid(uid);
    const user = id === null ? undefined : await userById(id);
    if (!user) throw new AccountError('invalid_uid');
    if (!checkLinkToken(config.secretKey, purpose, user, token, now(), ttlS)) throw new AccountError('invalid_token');
    return user;
  }

  /** Django's validators, then the retype check, as Djoser orders them. */
  function checkNewPassword(
    field: PasswordField,
    password: string,
    retyped: string,
    user: Pick<UserRow, 'email' | 'firstName' | 'lastName'>,
  ): void {
    const problems = validatePassword(password, { email: user.email, first_name: user.firstName, last_name: user.lastName });
    if (problems.length > 0) throw new AccountError('weak_password', { field, problems });
    if (password !== retyped) throw new AccountError('password_mismatch');
  }

  async function changePassword(user: UserRow, password: string): Promise<void> {
    const passwordHash = await hashPassword(password);
    // Every device signs in again: a stolen session does not survive a password change. The
    // new password and the end of the keys commit together, and every process hears of it.
    await sessions.revokeAll(user.id, (tx) =>
      tx.update(users).set({ passwordHash, passwordChangedAt: now() }).where(eq(users.id, user.id)),
    );
  }

  /** The identity fresh, genuine init data proves (re-verified on every call that relies on it). */
  function provenTelegramUser(initData: string): TelegramUser {
    const valid = sessions.verifyInitData(initData);
    if (!valid) throw new AccountError('invalid_init_data');
    return valid.user;
  }

  async function telegramIdentityKnown(telegramId: number): Promise<boolean> {
    const [row] = await db.orm.select({ id: users.id }).from(users).where(eq(users.telegramId, telegramId)).limit(1);
    return row !== undefined;
  }

  /** Others see only active accounts; the user themself and admins see any. */
  const visible = (user: UserRow, viewer: UserRow) => user.isActive || user.id === viewer.id || viewer.role === 'admin';

  return {
    sendActivation,

    /** A new, inactive account (the caller mails the activation link: sendActivation). */
    async register(body: RegisterBody & { language: Language }): Promise<UserRow> {
      const email = normalizeEmail(body.email);
      if (await userByEmail(email)) throw new AccountError('email_taken');
      const firstName = (body.first_name ?? '').trim();
      const lastName = (body.last_name ?? '').trim();
      checkNewPassword('password', body.password, body.re_password, { email, firstName, lastName });
      try {
        const [user] = await db.orm
          .insert(users)
          .values({
            email,
            passwordHash: await hashPassword(body.password),
            firstName,
            lastName,
            language: body.language,
            isActive: false,
            dateJoined: now(),
          })
          .returning();
        return user;
      } catch (error) {
        if (isUniqueViolation(error)) throw new AccountError('email_taken');
        throw error;
      }
    },

    async activate(uid: string, token: string): Promise<void> {
      const user = await userFromLink('activation', uid, token, ACTIVATION_TOKEN_TTL_S);
      if (user.isActive) throw new AccountError('stale_token');
      // An address listed in ADMIN_EMAILS is made an admin once it is proven (activated).
      const admin = user.email !== null && (config.adminEmails ?? []).includes(user.email);
      await sessions.updateUser(user.id, (tx) => tx.update(users).set({ isActive: true, ...(admin ? { role: 'admin' as const } : {}) }).where(eq(users.id, user.id)));
    },

    /** Mails the link again in the background: the same answer, just as fast, whether or not the account exists. */
    async resendActivation(email: string): Promise<void> {
      const user = await userByEmail(email);
      if (user && !user.isActive && user.passwordHash) background(() => sendActivation(user));
    },

    /** A new API key for this device. */
    async login(email: string | undefined, password: string | undefined, userAgent: string | undefined): Promise<string> {
      const user = email ? await userByEmail(email) : undefined;
      // Always one scrypt run, so a missing account answers as slowly as a wrong password.
      const ok = await verifyPassword(password ?? '', password ? (user?.passwordHash ?? null) : null);
      if (!ok || !user) throw new AccountError('invalid_credentials');
      // The password is right: saying the account waits for activation reveals nothing new.
      if (!user.isActive) throw new AccountError('inactive_account');
      // last_login is not part of what sessions show: no need to tell the other processes.
      await db.orm.update(users).set({ lastLogin: now() }).where(eq(users.id, user.id));
      sessions.forgetUser(user.id);
      return sessions.issue(user.id, userAgent);
    },

    /**
     * Inside the Mini App, a person signs in once with their e-mail account: from then on their
     * Telegram identity opens that account. The account Telegram made for them on first open is
     * let go if it is empty (no funnels, no e-mail); one with its own data or e-mail is refused.
     */
    async linkTelegram(telegramUser: UserRow, email: string, password: string): Promise<UserRow> {
      const target = await userByEmail(normalizeEmail(email));
      const ok = await verifyPassword(password, target?.passwordHash ?? null);
      if (!ok || !target) throw new AccountError('invalid_credentials');
      if (!target.isActive) throw new AccountError('inactive_account');
      if (target.id === telegramUser.id) return target;
      if (target.telegramId !== null && target.telegramId !== telegramUser.telegramId) throw new AccountError('other_telegram');
      const [{ count }] = await db.orm.select({ count: sql<number>`count(*)::int` }).from(funnels).where(eq(funnels.ownerId, telegramUser.id));
      // A partner's referrals, commissions and withdrawals are its own data too (the ledger is append-only: it cannot move).
      const [{ partner }] = await db.query<{ partner: boolean }>(
        `select exists (select 1 from partner_links l join partner_attributions a on a.link_id = l.id where l.user_id = $1)
             or exists (select 1 from partner_ledger where user_id = $1)
             or exists (select 1 from partner_withdrawals where user_id = $1) as partner`,
        [telegramUser.id],
      );
      if (telegramUser.email !== null || Number(count) > 0 || partner) throw new AccountError('telegram_taken');
      const updated = await sessions.updateUser(target.id, async (tx) => {
        await tx.delete(users).where(eq(users.id, telegramUser.id));
        const [row] = await tx
          .update(users)
          .set({ telegramId: telegramUser.telegramId, telegramUsername: telegramUser.telegramUsername, telegramPhotoUrl: telegramUser.telegramPhotoUrl })
          .where(eq(users.id, target.id))
          .returning();
        return row;
      });
      sessions.forgetUser(telegramUser.id);
      return updated;
    },

    /**
     * "Start here" on the first open from Telegram: a new, active account for a Telegram identity
     * no account knows. Refused if one does (a replayed or repeated call makes no second account).
     */
    async startWithTelegram(initData: string): Promise<UserRow> {
      const tg = provenTelegramUser(initData);
      const [created] = await db.orm
        .insert(users)
        .values({
          telegramId: tg.id,
          telegramUsername: tg.username ?? null,
          telegramPhotoUrl: tg.photo_url ?? null,
          firstName: tg.first_name,
          lastName: tg.last_name ?? '',
          language: telegramLanguage(tg),
          isActive: true,
          dateJoined: now(),
          lastLogin: now(),
        })
        .onConflictDoNothing({ target: users.telegramId })
        .returning();
      if (!created) throw new AccountError('telegram_known');
      return created;
    },

    /**
     * "I already have an account" on the first open from Telegram: the person signed in with
     * e-mail and password (`user`), and the Telegram identity the init data proves opens this
     * account from now on. Only an identity no account knows yet is attached.
     */
    async attachTelegram(user: UserRow, initData: string): Promise<UserRow> {
      const tg = provenTelegramUser(initData);
      if (user.telegramId === tg.id) return user;
      if (user.telegramId !== null) throw new AccountError('other_telegram');
      if (await telegramIdentityKnown(tg.id)) throw new AccountError('telegram_known');
      try {
        const [updated] = await sessions.updateUser(user.id, (tx) =>
          tx
            .update(users)
            .set({ telegramId: tg.id, telegramUsername: tg.username ?? null, telegramPhotoUrl: tg.photo_url ?? null })
            // Another call may have linked a Telegram identity to this account meanwhile.
            .where(and(eq(users.id, user.id), isNull(users.telegramId)))
            .returning(),
        );
        if (!updated) throw new AccountError('other_telegram');
        return updated;
      } catch (error) {
        // Two accounts raced for one identity: the unique telegram_id lets one of them have it.
        if (isUniqueViolation(error)) throw new AccountError('telegram_known');
        throw error;
      }
    },

    /** Unlinks the Telegram identity (the account keeps its e-mail and password to sign in). */
    async unlinkTelegram(user: UserRow): Promise<UserRow> {
      if (!user.email || !user.passwordHash) throw new AccountError('last_sign_in');
      const [updated] = await sessions.updateUser(user.id, (tx) =>
        tx.update(users).set({ telegramId: null, telegramUsername: null, telegramPhotoUrl: null }).where(eq(users.id, user.id)).returning(),
      );
      return updated;
    },

    /** A Telegram-first account adds an e-mail and a password, to sign in from a browser too. */
    async addCredentials(user: UserRow, body: { email: string; password: string; re_password: string }): Promise<UserRow> {
      if (user.email) throw new AccountError('has_email');
      const email = normalizeEmail(body.email);
      if (await userByEmail(email)) throw new AccountError('email_taken');
      checkNewPassword('password', body.password, body.re_password, { email, firstName: user.firstName, lastName: user.lastName });
      const passwordHash = await hashPassword(body.password);
      try {
        const [updated] = await sessions.updateUser(user.id, (tx) =>
          tx.update(users).set({ email, passwordHash, passwordChangedAt: now() }).where(eq(users.id, user.id)).returning(),
        );
        return updated;
      } catch (error) {
        if (isUniqueViolation(error)) throw new AccountError('email_taken');
        throw error;
      }
    },

    /** Whether a password-reset link still works, before its form is filled. */
    async checkResetLink(uid: string, token: string): Promise<void> {
      await userFromLink('password-reset', uid, token, RESET_TOKEN_TTL_S);
    },

    async logout(apiKey: string | null): Promise<void> {
      if (apiKey) await sessions.revoke(apiKey);
    },

    async updateProfile(user: UserRow, body: UpdateMeBody): Promise<UserRow> {
      const changes: Partial<Pick<UserRow, 'firstName' | 'lastName' | 'language'>> = {};
      if (body.first_name !== undefined) changes.firstName = body.first_name.trim();
      if (body.last_name !== undefined) changes.lastName = body.last_name.trim();
      if (body.language !== undefined) changes.language = body.language;
      if (Object.keys(changes).length === 0) return user;
      const [updated] = await sessions.updateUser(user.id, (tx) => tx.update(users).set(changes).where(eq(users.id, user.id)).returning());
      if (!updated) throw new AccountError('user_gone');
      return updated;
    },

    async publicProfile(viewer: UserRow, id: number): Promise<PublicUser> {
      const user = await userById(id);
      if (!user || !visible(user, viewer)) throw new AccountError('not_found');
      return toPublicUser(user, viewer);
    },

    /** The visible ones of these users, in the order asked, each once. */
    async publicProfiles(viewer: UserRow, ids: number[]): Promise<PublicUser[]> {
      const wanted = [...new Set(ids)].filter((id) => id <= MAX_ID);
      if (wanted.length === 0) return [];
      const found = await db.orm.select().from(users).where(inArray(users.id, wanted));
      const byId = new Map(found.map((user) => [user.id, user]));
      return wanted.flatMap((id) => {
        const user = byId.get(id);
        return user && visible(user, viewer) ? [toPublicUser(user, viewer)] : [];
      });
    },

    /** Mails a reset link in the background to an active account, if there is one. */
    async requestPasswordReset(email: string): Promise<void> {
      const [user] = await db.orm
        .select()
        .from(users)
        .where(and(eq(users.email, normalizeEmail(email)), eq(users.isActive, true)))
        .limit(1);
      if (user) background(() => sendPasswordReset(user));
    },

    async confirmPasswordReset(uid: string, token: string, password: string, retyped: string): Promise<void> {
      const user = await userFromLink('password-reset', uid, token, RESET_TOKEN_TTL_S);
      checkNewPassword('new_password', password, retyped, user);
      await changePassword(user, password);
    },

    async setPassword(userId: number, current: string, password: string, retyped: string): Promise<void> {
      // The row as it is now, not as a cached session saw it a moment ago.
      const user = await userById(userId);
      if (!user) throw new AccountError('user_gone');
      if (!(await verifyPassword(current, user.passwordHash))) throw new AccountError('wrong_password');
      checkNewPassword('new_password', password, retyped, user);
      await changePassword(user, password);
    },
  };
}
