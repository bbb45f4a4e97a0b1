// The auth API of spec §7, answering with Djoser's status codes and bodies (product.md),
// plus the safer rules: hashed per-device tokens, all sessions ended on a password change,
// single-use expiring e-mail links, rate limits, and answers that do not reveal accounts.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { and, eq, inArray } from 'drizzle-orm';
import {
  API,
  type ActivationBody,
  type EmailBody,
  type LoginBody,
  type RegisterBody,
  type ResetConfirmBody,
  type SetPasswordBody,
  type UpdateMeBody,
} from '../../../contract/auth';
import {
  ACTIVATION_TOKEN_TTL_S,
  DEFAULT_LANGUAGE,
  LANGUAGE_COOKIE,
  LANGUAGES,
  RESET_TOKEN_TTL_S,
  type Language,
} from '../../../contract/constants';
import { activationPath, resetPasswordPath } from '../../../contract/routes';
import type { Config } from '../../config';
import type { Db } from '../../db';
import { users, type UserRow } from '../../db/schema';
import type { Mailer } from '../../mail/mailer';
import { activationMail, passwordResetMail } from '../../mail/templates';
import { validatePassword } from '../../accounts/password-validators';
import { hashPassword, verifyPassword } from '../../accounts/passwords';
import type { Bucket, RateLimiter } from '../../accounts/rate-limit';
import type { Sessions } from '../../accounts/sessions';
import { checkLinkToken, decodeUid, encodeUid, makeLinkToken, type LinkPurpose } from '../../accounts/tokens';
import { normalizeEmail, toCurrentUser, toPublicUser } from '../../accounts/users';
import { ApiError, fieldError, fieldErrors, loggableError, nonFieldError, notFound } from '../errors';
import { currentUser, requireAuth } from './authenticate';
import * as schemas from './schemas';

export const AUTH_ERRORS = {
  emailTaken: 'user with this email already exists.',
  passwordMismatch: "The two password fields didn't match.",
  invalidCredentials: 'Unable to log in with provided credentials.',
  invalidUid: "Invalid user id or user doesn't exist.",
  invalidToken: 'Invalid token for given user.',
  staleToken: 'Stale token for given user.',
  invalidPassword: 'Invalid password.',
} as const;

export interface AuthRoutesDeps {
  config: Config;
  db: Db;
  mailer: Mailer;
  sessions: Sessions;
  limiter: RateLimiter;
  now: () => Date;
  /** Runs work after the answer is sent (mail that must not reveal whether an account exists). */
  background: (task: () => Promise<void>) => void;
}

function throttled(retryAfterS: number): ApiError {
  const unit = retryAfterS === 1 ? 'second' : 'seconds';
  return new ApiError(
    429,
    { detail: `Request was throttled. Expected available in ${retryAfterS} ${unit}.` },
    { 'Retry-After': String(retryAfterS) },
  );
}

/** Postgres unique_violation, as either driver reports it (Drizzle wraps driver errors). */
function isUniqueViolation(error: unknown): boolean {
  for (let e: unknown = error; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: unknown }).code === '23505') return true;
  }
  return false;
}

function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

/** The language a new account starts with: the body, else the SPA's language cookie, else Accept-Language. */
function requestLanguage(request: FastifyRequest, fromBody: Language | undefined): Language {
  if (fromBody) return fromBody;
  const cookie = request.headers.cookie ?? '';
  for (const part of cookie.split(';')) {
    const [name, ...rest] = part.trim().split('=');
    if (name === LANGUAGE_COOKIE) {
      let value: string;
      try {
        value = decodeURIComponent(rest.join('='));
      } catch {
        continue; // malformed %-encoding: not a language
      }
      const language = value.split('_')[0].toLowerCase();
      if (isLanguage(language)) return language;
    }
  }
  const accept = request.headers['accept-language'];
  const first = typeof accept === 'string' ? accept.split(',')[0].split('-')[0].trim().toLowerCase() : '';
  return isLanguage(first) ? first : DEFAULT_LANGUAGE;
}

export function authRoutes(deps: AuthRoutesDeps) {
  const { config, db, mailer, sessions, limiter, now, background } = deps;
  const authenticate = requireAuth(sessions);
  const { perIp, perEmail } = config.rateLimit;

  async function limit(action: string, request: FastifyRequest, subject?: { kind: string; value: string | undefined }) {
    const buckets: Bucket[] = [{ key: `${action}:ip:${request.ip}`, limit: perIp }];
    if (subject?.value) buckets.push({ key: `${action}:${subject.kind}:${subject.value}`, limit: perEmail });
    const result = await limiter.hit(buckets);
    if (!result.allowed) throw throttled(result.retryAfterS);
  }

  async function userById(id: number): Promise<UserRow | undefined> {
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
    if (!user) throw fieldError('uid', AUTH_ERRORS.invalidUid);
    if (!checkLinkToken(config.secretKey, purpose, user, token, now(), ttlS)) {
      throw fieldError('token', AUTH_ERRORS.invalidToken);
    }
    return user;
  }

  /** Django's validators, then the retype check, as Djoser orders them. */
  function checkNewPassword(field: string, password: string, retyped: string, user: Pick<UserRow, 'email' | 'firstName' | 'lastName'>) {
    const problems = validatePassword(password, { email: user.email, first_name: user.firstName, last_name: user.lastName });
    if (problems.length > 0) throw fieldErrors({ [field]: problems });
    if (password !== retyped) throw nonFieldError(AUTH_ERRORS.passwordMismatch);
  }

  async function changePassword(user: UserRow, password: string): Promise<void> {
    const passwordHash = await hashPassword(password);
    // Every device signs in again: a stolen session does not survive a password change. The
    // new password and the end of the keys commit together, and every process hears of it.
    await sessions.revokeAll(user.id, (tx) =>
      tx.update(users).set({ passwordHash, passwordChangedAt: now() }).where(eq(users.id, user.id)),
    );
  }

  return async function plugin(app: FastifyInstance): Promise<void> {
    app.decorateRequest('user', null);
    app.decorateRequest('apiKey', null);

    // --- register ------------------------------------------------------------------------
    app.post<{ Body: RegisterBody }>(API.register, { schema: schemas.registerSchema }, async (request, reply) => {
      const body = request.body;
      const email = normalizeEmail(body.email);
      await limit('register', request, { kind: 'email', value: email });
      if (await userByEmail(email)) throw fieldError('email', AUTH_ERRORS.emailTaken);
      const firstName = (body.first_name ?? '').trim();
      const lastName = (body.last_name ?? '').trim();
      checkNewPassword('password', body.password, body.re_password, { email, firstName, lastName });

      let user: UserRow;
      try {
        [user] = await db.orm
          .insert(users)
          .values({
            email,
            passwordHash: await hashPassword(body.password),
            firstName,
            lastName,
            language: requestLanguage(request, body.language),
            isActive: false,
            dateJoined: now(),
          })
          .returning();
      } catch (error) {
        if (isUniqueViolation(error)) throw fieldError('email', AUTH_ERRORS.emailTaken);
        throw error;
      }
      try {
        await sendActivation(user);
      } catch (error) {
        // The account exists; the person can ask for the mail again (resend_activation).
        request.log.error({ error: loggableError(error) }, 'activation e-mail could not be sent');
      }
      return reply.code(201).send({ id: user.id, email: user.email, first_name: user.firstName, last_name: user.lastName });
    });

    // --- activation ----------------------------------------------------------------------
    app.post<{ Body: ActivationBody }>(API.activation, { schema: schemas.activationSchema }, async (request, reply) => {
      const user = await userFromLink('activation', request.body.uid, request.body.token, ACTIVATION_TOKEN_TTL_S);
      if (user.isActive) throw new ApiError(403, { detail: AUTH_ERRORS.staleToken });
      await sessions.updateUser(user.id, (tx) => tx.update(users).set({ isActive: true }).where(eq(users.id, user.id)));
      return reply.code(204).send();
    });

    app.post<{ Body: EmailBody }>(API.resendActivation, { schema: schemas.emailSchema }, async (request, reply) => {
      const email = normalizeEmail(request.body.email);
      await limit('resend_activation', request, { kind: 'email', value: email });
      const user = await userByEmail(email);
      // The same answer, just as fast, whether or not the account exists.
      if (user && !user.isActive && user.passwordHash) background(() => sendActivation(user));
      return reply.code(204).send();
    });

    // --- token login / logout ------------------------------------------------------------
    app.post<{ Body: LoginBody }>(API.login, { schema: schemas.loginSchema }, async (request, reply) => {
      const { email, password } = request.body;
      const normalized = email ? normalizeEmail(email) : undefined;
      await limit('login', request, { kind: 'email', value: normalized });
      const user = normalized ? await userByEmail(normalized) : undefined;
      // Always one scrypt run, so a missing account answers as slowly as a wrong password.
      const ok = await verifyPassword(password ?? '', password ? (user?.passwordHash ?? null) : null);
      if (!ok || !user || !user.isActive) throw nonFieldError(AUTH_ERRORS.invalidCredentials);
      // last_login is not part of what sessions show: no need to tell the other processes.
      await db.orm.update(users).set({ lastLogin: now() }).where(eq(users.id, user.id));
      sessions.forgetUser(user.id);
      const key = await sessions.issue(user.id, request.headers['user-agent']);
      return reply.code(200).send({ auth_token: key });
    });

    app.post(API.logout, { onRequest: authenticate, schema: schemas.emptyBodySchema }, async (request, reply) => {
      currentUser(request);
      if (request.apiKey) await sessions.revoke(request.apiKey);
      return reply.code(204).send();
    });

    // --- the current user ----------------------------------------------------------------
    app.get(API.me, { onRequest: authenticate, schema: schemas.meSchema }, async (request) => toCurrentUser(currentUser(request)));

    const updateMe = async (request: FastifyRequest<{ Body: UpdateMeBody }>) => {
      const user = currentUser(request);
      const changes: Partial<Pick<UserRow, 'firstName' | 'lastName' | 'language'>> = {};
      if (request.body.first_name !== undefined) changes.firstName = request.body.first_name.trim();
      if (request.body.last_name !== undefined) changes.lastName = request.body.last_name.trim();
      if (request.body.language !== undefined) changes.language = request.body.language;
      if (Object.keys(changes).length === 0) return toCurrentUser(user);
      const [updated] = await sessions.updateUser(user.id, (tx) =>
        tx.update(users).set(changes).where(eq(users.id, user.id)).returning(),
      );
      if (!updated) throw new ApiError(401, { detail: 'User inactive or deleted.' });
      return toCurrentUser(updated);
    };
    app.put<{ Body: UpdateMeBody }>(API.me, { onRequest: authenticate, schema: schemas.updateMeSchema }, updateMe);
    app.patch<{ Body: UpdateMeBody }>(API.me, { onRequest: authenticate, schema: schemas.updateMeSchema }, updateMe);

    // --- public profiles -----------------------------------------------------------------
    /** Others see only active accounts; the user themself and admins see any. */
    const visible = (user: UserRow, viewer: UserRow) => user.isActive || user.id === viewer.id || viewer.role === 'admin';

    app.get<{ Querystring: { id: string } }>(API.byId, { onRequest: authenticate, schema: schemas.byIdSchema }, async (request) => {
      const viewer = currentUser(request);
      const id = Number(request.query.id);
      const user = id <= 2_147_483_647 ? await userById(id) : undefined;
      if (!user || !visible(user, viewer)) throw notFound();
      return toPublicUser(user, viewer);
    });

    app.get<{ Querystring: { 'id[]': string | string[] } }>(API.byIds, { onRequest: authenticate, schema: schemas.byIdsSchema }, async (request) => {
      const viewer = currentUser(request);
      const raw = request.query['id[]'];
      const ids = [...new Set((Array.isArray(raw) ? raw : [raw]).map(Number))].filter((id) => id <= 2_147_483_647);
      if (ids.length === 0) return [];
      const found = await db.orm.select().from(users).where(inArray(users.id, ids));
      const byId = new Map(found.map((user) => [user.id, user]));
      return ids.flatMap((id) => {
        const user = byId.get(id);
        return user && visible(user, viewer) ? [toPublicUser(user, viewer)] : [];
      });
    });

    // --- passwords -----------------------------------------------------------------------
    app.post<{ Body: EmailBody }>(API.resetPassword, { schema: schemas.emailSchema }, async (request, reply) => {
      const email = normalizeEmail(request.body.email);
      await limit('reset_password', request, { kind: 'email', value: email });
      const [user] = await db.orm
        .select()
        .from(users)
        .where(and(eq(users.email, email), eq(users.isActive, true)))
        .limit(1);
      if (user) background(() => sendPasswordReset(user));
      return reply.code(204).send();
    });

    app.post<{ Body: ResetConfirmBody }>(API.resetPasswordConfirm, { schema: schemas.resetConfirmSchema }, async (request, reply) => {
      const body = request.body;
      await limit('reset_password_confirm', request, { kind: 'uid', value: body.uid });
      const user = await userFromLink('password-reset', body.uid, body.token, RESET_TOKEN_TTL_S);
      checkNewPassword('new_password', body.new_password, body.re_new_password, user);
      await changePassword(user, body.new_password);
      return reply.code(204).send();
    });

    app.post<{ Body: SetPasswordBody }>(API.setPassword, { onRequest: authenticate, schema: schemas.setPasswordSchema }, async (request, reply) => {
      // The row as it is now, not as a cached session saw it a moment ago.
      const user = await userById(currentUser(request).id);
      if (!user) throw new ApiError(401, { detail: 'User inactive or deleted.' });
      const body = request.body;
      if (!(await verifyPassword(body.current_password, user.passwordHash))) {
        throw fieldError('current_password', AUTH_ERRORS.invalidPassword);
      }
      checkNewPassword('new_password', body.new_password, body.re_new_password, user);
      await changePassword(user, body.new_password);
      return reply.code(204).send();
    });
  };
}
