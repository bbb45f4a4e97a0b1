// server/telegram/client.ts: every Bot API client of this server is made here (the funnel bots,
// the service bot, the delivery engine). The Bot API root is injectable (tests and local
// development point it at scripts/telegram/fake-bot-api.ts), 429s are waited out per bot, and
// calls go through the lean fetch below.
//
// The `fetch` grammY's API client uses in this server: a lean one on node:http(s), in place of
// grammY's default node-fetch. grammY only POSTs (a JSON string, or a multipart stream for
// uploads) and reads the answer with `res.json()`, so that is all this implements. On loopback it
// costs about 50 µs of CPU per call where node-fetch cost 120–140 µs: node-fetch builds WHATWG
// Request/Headers/Body objects per call. Node's own fetch was slower still here and cannot send
// grammY's streamed multipart body without `duplex: 'half'`; undici's `request` measured no
// better than this inside the bot runtime (`npm run bench:bots`), so no dependency for it.
//
// Keep-alive connections are pooled per API host in one roomy agent: with hundreds of bots long
// polling one host, Node's default of 256 idle sockets made every call past it open a new one.
import { Agent as HttpAgent, type IncomingHttpHeaders, request as httpRequest, type OutgoingHttpHeaders } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { pipeline, type Readable } from 'node:stream';
import { autoRetry } from '@grammyjs/auto-retry';
import { Api, type ApiClientOptions, Bot, GrammyError, HttpError, InputFile, type Transformer } from 'grammy';
import type { UserFromGetMe } from 'grammy/types';
import { type BotApiCallSent, botApiCallSent } from './diagnostics';

/** Idle keep-alive connections kept per Bot API host. */
export const MAX_IDLE_CONNECTIONS = 4096;

/** The part of an AbortSignal this needs (grammY passes its polyfill's signals). */
interface SignalLike {
  readonly aborted: boolean;
  addEventListener(type: 'abort', listener: () => void): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}

export interface BotApiRequestInit {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array | Readable | AsyncIterable<Uint8Array>;
  signal?: SignalLike | null;
  /** Fails the call when its connection is silent this long (grammY keeps its own timer). */
  timeoutMs?: number;
}

/** What grammY reads of a fetch response (and a little more, for errors and tests). */
export interface BotApiResponse {
  readonly status: number;
  readonly ok: boolean;
  readonly headers: IncomingHttpHeaders;
  text(): Promise<string>;
  json(): Promise<unknown>;
}

export type BotApiFetch = (url: string, init?: BotApiRequestInit) => Promise<BotApiResponse>;

/** The error a call ends with when its signal aborts it (fetch's name for it). */
export class AbortError extends Error {
  override readonly name = 'AbortError';
  constructor() {
    super('The operation was aborted.');
  }
}

interface Origin {
  https: boolean;
  hostname: string;
  port: number;
  agent: HttpAgent;
}

/** Parsed once per API root: every call of every bot goes to the same one or two hosts. */
const origins = new Map<string, Origin>();

function originOf(href: string): { origin: Origin; path: string } {
  const slash = href.indexOf('/', href.indexOf('//') + 2);
  const key = slash === -1 ? href : href.slice(0, slash);
  const path = slash === -1 ? '/' : href.slice(slash);
  let origin = origins.get(key);
  if (!origin) {
    const url = new URL(key);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TypeError(`Only http(s) URLs are supported: ${url.protocol}`);
    const https = url.protocol === 'https:';
    const options = { keepAlive: true, maxFreeSockets: MAX_IDLE_CONNECTIONS };
    origin = {
      https,
      hostname: url.hostname.replace(/^\[|\]$/g, ''),
      port: Number(url.port) || (https ? 443 : 80),
      agent: https ? new HttpsAgent(options) : new HttpAgent(options),
    };
    origins.set(key, origin);
  }
  return { origin, path };
}

function isStream(body: unknown): body is Readable | AsyncIterable<Uint8Array> {
  return typeof body === 'object' && body !== null && !(body instanceof Uint8Array);
}

/** One POST (or GET) to the Bot API: the whole answer is read before the promise settles. */
export const botApiFetch: BotApiFetch = (href, init = {}) =>
  new Promise<BotApiResponse>((resolve, reject) => {
    const { signal, body } = init;
    if (signal?.aborted) return reject(new AbortError());
    let target: ReturnType<typeof originOf>;
    try {
      target = originOf(href);
    } catch (error) {
      return reject(error);
    }
    const { origin, path } = target;
    const headers: OutgoingHttpHeaders = { ...init.headers };
    const streamed = isStream(body);
    if (body !== undefined && !streamed) headers['content-length'] = typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength;

    let settled = false;
    const finish = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener('abort', onAbort);
      outcome();
    };
    const onAbort = () => {
      const error = new AbortError();
      req.destroy(error);
      finish(() => reject(error));
    };
    const req = (origin.https ? httpsRequest : httpRequest)(
      { hostname: origin.hostname, port: origin.port, path, method: init.method ?? 'GET', headers, agent: origin.agent },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', (error) => finish(() => reject(error)));
        res.on('end', () => {
          const text = chunks.length === 1 ? chunks[0].toString('utf8') : Buffer.concat(chunks).toString('utf8');
          const status = res.statusCode ?? 0;
          finish(() =>
            resolve({
              status,
              ok: status >= 200 && status < 300,
              headers: res.headers,
              text: async () => text,
              json: async () => JSON.parse(text) as unknown,
            }),
          );
        });
      },
    );
    req.on('error', (error) => finish(() => reject(error)));
    if (init.timeoutMs) {
      req.setTimeout(init.timeoutMs, () => req.destroy(new Error(`The Bot API did not answer for ${init.timeoutMs! / 1000} s`)));
    }
    signal?.addEventListener('abort', onAbort);
    if (streamed) {
      // An upload: chunked, as node-fetch sends it. A failing body stream fails the call.
      pipeline(body as Readable, req, (error) => {
        if (error) finish(() => reject(error));
      });
    } else {
      req.end(body);
    }
  });

const JSON_HEADERS = { 'content-type': 'application/json' } as const;

/** grammY's rule for JSON payloads: null fields are left out. */
const withoutNulls = (_key: string, value: unknown) => value ?? undefined;

/** JSON.stringify with grammY's rule; the replacer (a call per field) only when a null is there. */
function jsonOf(payload: unknown): string {
  const text = JSON.stringify(payload);
  return text.includes('null') ? JSON.stringify(payload, withoutNulls) : text;
}

/** Does the payload carry a file to upload (grammY then sends multipart/form-data)? */
function carriesUpload(value: unknown, depth = 0): boolean {
  if (value instanceof InputFile) return true;
  if (typeof value !== 'object' || value === null || depth > 3) return false;
  for (const item of Array.isArray(value) ? value : Object.values(value)) if (carriesUpload(item, depth + 1)) return true;
  return false;
}

/**
 * A grammY transformer that makes JSON calls itself: straight to botApiFetch, with what grammY's
 * client does around each call (an AbortController polyfill, a timeout timer and a promise race
 * per call) folded into the request. It must be installed first, under every other transformer
 * (auto-retry wraps it). Uploads go on down to grammY's own multipart code (through botApiFetch).
 * What it returns and throws is what grammY's client would: the Bot API's answer as it came
 * (callApi turns ok: false into a GrammyError), and an HttpError when the network fails.
 */
export function directJsonCalls(apiRoot: string, token: string, timeoutSeconds: number): Transformer {
  const base = `${apiRoot}/bot${token}/`;
  const timeoutMs = timeoutSeconds * 1000;
  const botId = Number(token.split(':')[0]);
  return async (prev, method, payload, signal) => {
    if (carriesUpload(payload)) return prev(method, payload, signal);
    if (botApiCallSent.hasSubscribers) {
      const sent: BotApiCallSent = { botId, method, chatId: (payload as { chat_id?: unknown } | undefined)?.chat_id, at: performance.now() };
      botApiCallSent.publish(sent);
    }
    try {
      const res = await botApiFetch(base + method, {
        method: 'POST',
        headers: JSON_HEADERS,
        body: jsonOf(payload ?? {}),
        signal: signal as unknown as SignalLike | undefined,
        timeoutMs,
      });
      return (await res.json()) as Awaited<ReturnType<typeof prev>>;
    } catch (error) {
      throw new HttpError(`Network request for '${method}' failed!`, error);
    }
  };
}

/** A 429 asking to wait longer than this fails the call instead of stalling it. */
export const MAX_RATE_LIMIT_WAIT_S = 60;
/** Retries of one call after 429s (auto-retry); Telegram's 5xx are retried by the caller. */
export const MAX_API_RETRIES = 3;

export interface CreateBotOptions {
  /** TELEGRAM_API_ROOT, without a trailing slash. */
  apiRoot: string;
  /** Known bot identity (skips getMe on start). */
  botInfo?: UserFromGetMe;
  /** Per-request timeout; must exceed the long polling timeout (30 s). grammY's default is 500 s. */
  timeoutSeconds?: number;
  /** Run around every attempt, inside auto-retry (a retried call passes through them again). */
  perAttempt?: Transformer[];
}

/** grammY's own per-request timeout. */
const DEFAULT_TIMEOUT_S = 500;

export function createBot(token: string, { apiRoot, botInfo, timeoutSeconds = DEFAULT_TIMEOUT_S, perAttempt = [] }: CreateBotOptions): Bot {
  const bot = new Bot(token, {
    client: {
      apiRoot,
      // grammY types `fetch` as node-fetch's; it only calls it with (url, {method, headers, body, signal}).
      fetch: botApiFetch as unknown as NonNullable<ApiClientOptions['fetch']>,
      timeoutSeconds,
    },
    ...(botInfo ? { botInfo } : {}),
  });
  // auto-retry waits out 429s (retry_after, per bot) and nothing else. Network failures and
  // Telegram's 5xx are rethrown at once: the caller retries them in one place with its own short
  // backoff (callForPerson for replies, the polling and set-up loops for the rest), instead of
  // auto-retry's 3 s doubling backoff multiplying with the caller's retries.
  bot.api.config.use(
    directJsonCalls(apiRoot, token, timeoutSeconds),
    ...perAttempt,
    autoRetry({
      maxRetryAttempts: MAX_API_RETRIES,
      maxDelaySeconds: MAX_RATE_LIMIT_WAIT_S,
      rethrowHttpErrors: true,
      rethrowInternalServerErrors: true,
    }),
  );
  return bot;
}

/**
 * A bare Bot API client for the delivery engine: no auto-retry, since the engine writes a 429's
 * wait into the row and its bot's rate limiter instead of holding a slot while it waits.
 */
export function createApi(token: string, { apiRoot, timeoutSeconds }: { apiRoot: string; timeoutSeconds: number }): Api {
  const api = new Api(token, {
    apiRoot,
    fetch: botApiFetch as unknown as NonNullable<ApiClientOptions['fetch']>,
    timeoutSeconds,
  });
  api.config.use(directJsonCalls(apiRoot, token, timeoutSeconds));
  return api;
}

/** How long a Bot API call made while the user waits (connect, descriptions, a reply from the inbox) may take. */
export const INTERACTIVE_TIMEOUT_S = 10;

/**
 * The client for calls made while the user waits: one attempt with a short timeout and no
 * retries (the user retries, not the server). The domain takes it through its port
 * (server/funnels/bot-api.ts), handed in by server/services.ts.
 */
export function interactiveBotApi(token: string, apiRoot: string): Api {
  return new Api(token, { apiRoot, timeoutSeconds: INTERACTIVE_TIMEOUT_S });
}

/** The network error under an HttpError (its code, e.g. ECONNREFUSED), if any. */
function networkErrorCode(error: HttpError): string | undefined {
  const inner = error.error as { code?: unknown; cause?: { code?: unknown } } | undefined;
  const code = inner?.code ?? inner?.cause?.code;
  return typeof code === 'string' ? code : undefined;
}

/** Network failures that happen before a request leaves: it surely never reached Telegram. */
const NEVER_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

/**
 * A failure after which the message surely was not delivered, so sending it again cannot make a
 * duplicate: Telegram's 5xx answer, or a connection that was never made. A timeout or a reset
 * mid-request may have delivered it: that is not one of these.
 */
export function surelyNotDelivered(error: unknown): boolean {
  if (error instanceof GrammyError) return error.error_code >= 500;
  if (error instanceof HttpError) {
    const code = networkErrorCode(error);
    return code !== undefined && NEVER_SENT_CODES.has(code);
  }
  return false;
}

/** Failures worth retrying later: the network, Telegram's 5xx, and 429s auto-retry gave up on. */
export function isTransientBotApiError(error: unknown): boolean {
  return error instanceof HttpError || (error instanceof GrammyError && (error.error_code >= 500 || error.error_code === 429));
}

/**
 * A Bot API failure in words safe for logs. Never the token: grammY keeps it out of its own
 * messages, but the network error underneath carries the request URL, which contains it.
 */
export function describeBotApiError(error: unknown, token: string): string {
  let text: string;
  if (error instanceof GrammyError) {
    text = `${error.method} answered ${error.error_code} ${error.description}`;
  } else if (error instanceof HttpError) {
    const code = networkErrorCode(error);
    text = `${error.message}${code ? ` (${code})` : ''}`;
  } else {
    text = error instanceof Error ? error.message : String(error);
  }
  return text.split(token).join('<token>');
}
