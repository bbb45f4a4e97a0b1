// buildApp(deps): the whole HTTP server as a Fastify instance that is not listening yet, so
// tests drive it with app.inject and main.ts decides where it listens.
import type { IncomingMessage } from 'node:http';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { MAX_BODY_BYTES } from '../contract/constants';
import { STRING_FORMATS } from '../contract/schemas/common';
import type { Sessions } from './accounts/sessions';
import type { Config } from './config';
import type { Db } from './db';
import type { ListenerTimings } from './db/listener';
import { authRoutes } from './http/auth/routes';
import { productApi } from './http/api';
import { testClockRoutes } from './http/letters/test-clock';
import type { FunnelRuntimePort } from './funnels/runtime-port';
import {
  ApiError,
  clientErrorReply,
  fieldsWithBrokenText,
  frameworkErrorReply,
  INVALID_MESSAGE_KEYWORD,
  installErrorHandling,
  JSON_PARSE_ERROR,
  MESSAGES,
} from './http/errors';
import { createSpa } from './http/spa';
import { webhookRoutes } from './http/webhooks/routes';
import type { FunnelWebhookPort } from './bots/runtime/webhook-port';
import type { Mailer } from './mail/mailer';
import { createServices, type Services } from './services';

export interface LoggerSettings {
  level?: string;
  /** Where log lines go (tests capture them); standard output by default. */
  stream?: { write(line: string): void };
}

export interface AppDeps {
  config: Config;
  db: Db;
  mailer: Mailer;
  /**
   * Every service, built once by createServices (main.ts). Omitted (tests): buildApp builds them
   * from these deps, logging through the app's logger.
   */
  services?: Services;
  /** false: no logging; true or omitted: config.logLevel to standard output. */
  logger?: boolean | LoggerSettings;
  /** The clock for tokens, init data and rate-limit windows (tests move it). */
  now?: () => Date;
  /** Seconds-long reuse of looked-up sessions; 0 disables (see accounts/sessions.ts). Without services only. */
  sessionCacheTtlMs?: number;
  /** The bot runtime, told of every funnel state change (a no-op when omitted: API-only tests). Without services only. */
  funnelRuntime?: FunnelRuntimePort;
  /** Where Telegram's webhook deliveries for funnel bots go (no webhook route when omitted). */
  funnelWebhooks?: FunnelWebhookPort;
  /** The session cache's LISTEN connection: heartbeat and reconnect delays (tests shorten them). Without services only. */
  sessionListenerTimings?: Partial<ListenerTimings>;
  /** The delivery engine, woken when a mailing starts or resumes (it also looks by itself). Without services only. */
  deliveries?: { wake(): void };
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The sessions service (API keys and Telegram init data), for other plugins. */
    sessions: Sessions;
    /** Resolves when the mail and other work started in the background has finished. */
    settle(): Promise<void>;
    /** The bot runtime as the API sees it (server/funnels/runtime-port.ts). */
    funnelRuntime: FunnelRuntimePort;
  }
}

/** Never log secrets: no bodies, no Authorization or Cookie header, no query strings (?token=). */
function loggerOptions(config: Config, settings: boolean | LoggerSettings | undefined): FastifyServerOptions['logger'] {
  if (settings === false) return false;
  const { level, stream } = typeof settings === 'object' ? settings : {};
  return {
    level: level ?? config.logLevel,
    ...(stream ? { stream } : {}),
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers.cookie',
        'headers.authorization',
        'headers.cookie',
        'req.body',
        'body',
        'password',
        '*.password',
        'auth_token',
        '*.auth_token',
      ],
      censor: '[redacted]',
    },
    serializers: {
      req(request: { method: string; url: string; ip?: string }) {
        return { method: request.method, url: request.url.split('?')[0], remoteAddress: request.ip };
      },
    },
  };
}

/** A refused body is read and thrown away up to this size or this long; past either, the connection closes as it is. */
export const REFUSED_BODY_DISCARD_MAX_BYTES = 256 * 1024 * 1024;
export const REFUSED_BODY_DISCARD_MAX_MS = 5 * 60 * 1000;

/** Resolves once the request's body has all arrived (and been thrown away), or a cap is reached. */
function discardRestOfBody(raw: IncomingMessage): Promise<void> {
  if (raw.complete || raw.readableEnded || raw.destroyed) return Promise.resolve();
  const declared = Number(raw.headers['content-length']);
  if (declared > REFUSED_BODY_DISCARD_MAX_BYTES) return Promise.resolve();
  return new Promise((resolve) => {
    let discarded = 0;
    const done = () => {
      clearTimeout(timer);
      raw.off('data', onData).off('end', done).off('error', done).off('close', done);
      resolve();
    };
    const onData = (chunk: Buffer) => {
      discarded += chunk.length;
      if (discarded > REFUSED_BODY_DISCARD_MAX_BYTES) done();
    };
    const timer = setTimeout(done, REFUSED_BODY_DISCARD_MAX_MS);
    raw.on('data', onData).once('end', done).once('error', done).once('close', done);
    raw.resume();
  });
}

export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config, db, mailer } = deps;

  const app = Fastify({
    logger: loggerOptions(config, deps.logger),
    bodyLimit: MAX_BODY_BYTES,
    // The router's and Node's own refusals in the Djoser shape, without the request in them.
    frameworkErrors: frameworkErrorReply,
    clientErrorHandler: clientErrorReply,
    trustProxy:
      typeof config.trustProxy === 'number'
        ? ((hops: number) => (_address: string, hop: number) => hop < hops)(config.trustProxy)
        : config.trustProxy,
    ajv: {
      // DRF-like validation: no silent type coercion, every field's problems at once, and
      // the offending values available to the error formatter.
      customOptions: { coerceTypes: false, allErrors: true, verbose: true, allowUnionTypes: true },
      // The contract's string formats (contract/schemas/common.ts): every string field has one.
      plugins: [
        (ajv) => {
          ajv.addKeyword(INVALID_MESSAGE_KEYWORD);
          for (const [name, validate] of Object.entries(STRING_FORMATS)) ajv.addFormat(name, { type: 'string', validate });
          return ajv;
        },
      ],
    },
  });


  // JSON is the only body the API accepts (anything else: 415). An empty body is an empty
  // object, as in DRF, so a bare POST gets "This field is required." per field; a body of
  // whitespace is not JSON (DRF: "JSON parse error").
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = body as string;
    if (text === '') return done(null, {});
    let parsed: unknown;
    try {
      parsed = JSON.parse(text, (key, value) => (key === '__proto__' ? undefined : value));
    } catch (error) {
      const parseError = new Error(`JSON parse error - ${(error as Error).message}`) as Error & { code: string; statusCode: number };
      parseError.code = JSON_PARSE_ERROR;
      parseError.statusCode = 400;
      return done(parseError, undefined);
    }
    // One rule for every text field of every route: a broken character is named, never stored.
    const broken = fieldsWithBrokenText(parsed);
    if (broken.length > 0) return done(new ApiError(400, Object.fromEntries(broken.map((field) => [field, [MESSAGES.brokenText]]))), undefined);
    return done(null, parsed);
  });
  app.addHook('preValidation', async (request) => {
    if (request.body === undefined && request.routeOptions.schema?.body) request.body = {};
  });

  // A body over the limit is refused (413) before it has all arrived. Closing the connection then,
  // with the rest of it still coming, resets it, and a client that streams its body (a phone, Node's
  // fetch, Chromium) loses the answer: read the rest and throw it away first, up to a cap.
  app.addHook('onSend', async (request, reply, payload) => {
    if (reply.statusCode === 413) await discardRestOfBody(request.raw);
    return payload;
  });

  app.addHook('onSend', async (request, reply, payload) => {
    reply.header('x-content-type-options', 'nosniff');
    // Reset and activation links carry tokens in the path: never send them to other sites.
    reply.header('referrer-policy', 'same-origin');
    if (request.url.startsWith('/api/') && !reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
    return payload;
  });

  const spa = createSpa(config.distDir);
  installErrorHandling(app, { fallback: spa ? spa.fallback : undefined });

  const services =
    deps.services ??
    createServices({
      config,
      db,
      mailer,
      log: app.log,
      now: deps.now,
      sessionCacheTtlMs: deps.sessionCacheTtlMs,
      sessionListenerTimings: deps.sessionListenerTimings,
      funnelRuntime: deps.funnelRuntime,
      deliveries: deps.deliveries,
    });
  app.decorate('settle', () => services.background.settle());
  app.addHook('onClose', async () => {
    await app.settle();
  });

  const { sessions } = services;
  app.decorate('sessions', sessions);
  // PostgreSQL: LISTEN for other processes' logouts and profile changes before serving.
  app.addHook('onReady', () => sessions.start());
  app.addHook('onClose', () => sessions.close());

  const healthSchema = { type: 'object', properties: { status: { type: 'string' } } } as const;
  app.get('/api/health', { schema: { response: { 200: healthSchema, 503: healthSchema } } }, async (_request, reply) => {
    try {
      await db.query('select 1');
      return { status: 'ok' };
    } catch {
      return reply.code(503).send({ status: 'unavailable' });
    }
  });

  await app.register(authRoutes({ ...services, config }));
  app.decorate('funnelRuntime', services.runtime);
  await app.register(productApi(services, config));
  if (services.testClock) await app.register(testClockRoutes({ ...services, testClock: services.testClock }));
  if (deps.funnelWebhooks) await app.register(webhookRoutes({ secretKey: config.secretKey, webhooks: deps.funnelWebhooks }));
  if (spa) await spa.register(app);
  return app;
}
