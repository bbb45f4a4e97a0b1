// The auth API of spec §7, answering with Djoser's status codes and bodies (product.md),
// plus the safer rules: hashed per-device tokens, all sessions ended on a password change,
// single-use expiring e-mail links, rate limits, and answers that do not reveal accounts.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { API } from '../../../contract/auth';
import { DEFAULT_LANGUAGE, LANGUAGE_COOKIE, LANGUAGES, type Language } from '../../../contract/constants';
import { ACCOUNT_ERRORS } from '../../accounts/errors';
import type { Bucket } from '../../accounts/rate-limit';
import { normalizeEmail, toCurrentUser } from '../../accounts/users';
import type { Config } from '../../config';
import { PARTNER_UID_PATTERN, REF_COOKIE } from '../../../contract/partner';
import { refFromStartParam } from '../../partner/partner';
import type { Services } from '../../services';
import { loggableError } from '../../db/errors';
import { ApiError } from '../errors';
import { currentUser, requireAuth } from './authenticate';
import * as schemas from './schemas';


export type AuthRoutesDeps = Pick<Services, 'sessions' | 'limiter' | 'accounts' | 'partner'> & { config: Config };

const PARTNER_UID = new RegExp(PARTNER_UID_PATTERN);

/** The partner link's uid the SPA kept from a `/?ref=` visit (the `ref` cookie), if well-formed. */
function refCookie(request: FastifyRequest): string | null {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const [name, ...rest] = part.trim().split('=');
    if (name !== REF_COOKIE) continue;
    const value = rest.join('=').trim();
    if (PARTNER_UID.test(value)) return value;
  }
  return null;
}

/** The start parameter of genuine init data (already verified by the call that made the account). */
const startParamOf = (initData: string) => new URLSearchParams(initData).get('start_param');

function throttled(retryAfterS: number): ApiError {
  const unit = retryAfterS === 1 ? 'second' : 'seconds';
  return new ApiError(
    429,
    { detail: `Request was throttled. Expected available in ${retryAfterS} ${unit}.` },
    { 'Retry-After': String(retryAfterS) },
  );
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
  const { config, sessions, limiter, accounts, partner } = deps;

  /** First touch, bound at sign-up: a failure here is logged, never a failed sign-up. */
  async function attribute(request: FastifyRequest, ...args: Parameters<typeof partner.attributeSignup>) {
    try {
      await partner.attributeSignup(...args);
    } catch (error) {
      request.log.error({ error: loggableError(error) }, 'partner attribution failed');
    }
  }
  const authenticate = requireAuth(sessions);
  const { perIp, perEmail } = config.rateLimit;

  async function limit(action: string, request: FastifyRequest, subject?: { kind: string; value: string | undefined }) {
    const buckets: Bucket[] = [{ key: `${action}:ip:${request.ip}`, limit: perIp }];
    if (subject?.value) buckets.push({ key: `${action}:${subject.kind}:${subject.value}`, limit: perEmail });
    const result = await limiter.hit(buckets);
    if (!result.allowed) throw throttled(result.retryAfterS);
  }

  return async function plugin(untyped: FastifyInstance): Promise<void> {
    const app = untyped.withTypeProvider<TypeBoxTypeProvider>();
    app.decorateRequest('user', null);
    app.decorateRequest('apiKey', null);

    // --- register ------------------------------------------------------------------------
    app.post(API.register, { schema: schemas.registerSchema }, async (request, reply) => {
      const email = normalizeEmail(request.body.email);
      await limit('register', request, { kind: 'email', value: email });
      const user = await accounts.register({ ...request.body, language: requestLanguage(request, request.body.language) });
      await attribute(request, { id: user.id, email: user.email, telegramId: null }, { uid: refCookie(request) });
      try {
        await accounts.sendActivation(user);
      } catch (error) {
        // The account exists; the person can ask for the mail again (resend_activation).
        request.log.error({ error: loggableError(error) }, 'activation e-mail could not be sent');
      }
      return reply.code(201).send({ id: user.id, email, first_name: user.firstName, last_name: user.lastName });
    });

    // --- activation ----------------------------------------------------------------------
    app.post(API.activation, { schema: schemas.activationSchema }, async (request, reply) => {
      await accounts.activate(request.body.uid, request.body.token);
      return reply.code(204).send();
    });

    app.post(API.resendActivation, { schema: schemas.emailSchema }, async (request, reply) => {
      const email = normalizeEmail(request.body.email);
      await limit('resend_activation', request, { kind: 'email', value: email });
      await accounts.resendActivation(email);
      return reply.code(204).send();
    });

    // --- token login / logout ------------------------------------------------------------
    app.post(API.login, { schema: schemas.loginSchema }, async (request, reply) => {
      const { email, password } = request.body;
      const normalized = email ? normalizeEmail(email) : undefined;
      await limit('login', request, { kind: 'email', value: normalized });
      const key = await accounts.login(normalized, password, request.headers['user-agent']);
      return reply.code(200).send({ auth_token: key });
    });

    app.post(API.logout, { onRequest: authenticate, schema: schemas.emptyBodySchema }, async (request, reply) => {
      currentUser(request);
      await accounts.logout(request.apiKey);
      return reply.code(204).send();
    });

    // --- the current user ----------------------------------------------------------------
    app.get(API.me, { onRequest: authenticate, schema: schemas.meSchema }, async (request) => toCurrentUser(currentUser(request)));

    for (const method of ['PUT', 'PATCH'] as const) {
      app.route({
        method,
        url: API.me,
        onRequest: authenticate,
        schema: schemas.updateMeSchema,
        handler: async (request) => toCurrentUser(await accounts.updateProfile(currentUser(request), request.body)),
      });
    }

    // --- public profiles -----------------------------------------------------------------
    app.get(API.byId, { onRequest: authenticate, schema: schemas.byIdSchema }, async (request) =>
      accounts.publicProfile(currentUser(request), Number(request.query.id)),
    );

    app.get(API.byIds, { onRequest: authenticate, schema: schemas.byIdsSchema }, async (request) => {
      const raw = request.query['id[]'];
      return accounts.publicProfiles(currentUser(request), (Array.isArray(raw) ? raw : [raw]).map(Number));
    });

    // --- passwords -----------------------------------------------------------------------
    app.post(API.resetPassword, { schema: schemas.emailSchema }, async (request, reply) => {
      const email = normalizeEmail(request.body.email);
      await limit('reset_password', request, { kind: 'email', value: email });
      await accounts.requestPasswordReset(email);
      return reply.code(204).send();
    });

    app.post(API.resetPasswordConfirm, { schema: schemas.resetConfirmSchema }, async (request, reply) => {
      const body = request.body;
      await limit('reset_password_confirm', request, { kind: 'uid', value: body.uid });
      await accounts.confirmPasswordReset(body.uid, body.token, body.new_password, body.re_new_password);
      return reply.code(204).send();
    });

    app.post(API.resetPasswordCheck, { schema: schemas.activationSchema }, async (request, reply) => {
      await limit('reset_password_confirm', request, { kind: 'uid', value: request.body.uid });
      await accounts.checkResetLink(request.body.uid, request.body.token);
      return reply.code(204).send();
    });

    // --- Telegram and e-mail identities of the account ---------------------------------------
    app.post(API.telegramLink, { onRequest: authenticate, schema: schemas.telegramLinkSchema }, async (request) => {
      const user = currentUser(request);
      // Only the Mini App can prove a Telegram identity (its init data): a Token caller has none.
      if (request.apiKey !== null || user.telegramId === null) throw new ApiError(400, { detail: ACCOUNT_ERRORS.telegramOnly });
      await limit('login', request, { kind: 'email', value: normalizeEmail(request.body.email) });
      return toCurrentUser(await accounts.linkTelegram(user, request.body.email, request.body.password));
    });
    // First open from Telegram of an identity no account knows (GET me answered telegram_unknown).
    app.post(API.telegramStart, { schema: schemas.telegramStartSchema }, async (request, reply) => {
      await limit('telegram_start', request);
      const user = await accounts.startWithTelegram(request.body.init_data);
      // A Mini App link (startapp=ref_<uid>, or a template's tpl_<id>_ref_<uid>) is its click and its referral.
      const uid = refFromStartParam(startParamOf(request.body.init_data));
      await attribute(request, { id: user.id, email: user.email, telegramId: user.telegramId }, { uid, appClick: uid !== null });
      return reply.code(201).send(toCurrentUser(user));
    });
    app.post(API.telegramAttach, { onRequest: authenticate, schema: schemas.telegramAttachSchema }, async (request) =>
      toCurrentUser(await accounts.attachTelegram(currentUser(request), request.body.init_data)),
    );
    app.delete(API.telegramLink, { onRequest: authenticate }, async (request) => toCurrentUser(await accounts.unlinkTelegram(currentUser(request))));
    app.post(API.credentials, { onRequest: authenticate, schema: schemas.credentialsSchema }, async (request) =>
      toCurrentUser(await accounts.addCredentials(currentUser(request), request.body)),
    );

    app.post(API.setPassword, { onRequest: authenticate, schema: schemas.setPasswordSchema }, async (request, reply) => {
      const body = request.body;
      await accounts.setPassword(currentUser(request).id, body.current_password, body.new_password, body.re_new_password);
      return reply.code(204).send();
    });
  };
}
