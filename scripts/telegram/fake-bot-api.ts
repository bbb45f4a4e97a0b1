// A local server that speaks the Telegram Bot API's HTTP interface, for tests and for playing a
// subscriber by hand (Telegram cannot be reached from the development machines).
//
//   in tests:  const fake = await startFakeBotApi();            // port 0 = any free port
//              const { token } = fake.addBot({ username: 'shop_bot' });
//              const bot = new Bot(token, { client: { apiRoot: fake.url } });
//              fake.sendUserMessage(token, { from: { id: 42, first_name: 'Ann' }, text: '/start' });
//              const reply = await fake.waitForBotMessage(token, 42);
//              await fake.close();
//   by hand:   npx tsx scripts/telegram/fake-bot-api.ts --port 8081 [--bot shop_bot[=TOKEN]] [--state FILE]
//              then open http://127.0.0.1:8081/ and point TELEGRAM_API_ROOT at the same URL.
//              With --state, bots, chats and update offsets are kept in FILE across restarts.
//
// Bot API:   /bot<token>/<method> (GET or POST; JSON, urlencoded or multipart), /file/bot<token>/<path>
// Control:   JSON under /control/ (see CONTROL_ROUTES below); the page at / uses it.
// Payments:  POST /fake/payInvoice {link, user_id}, /fake/payInvoiceMessage {token, chat_id, message_id},
//            /fake/renewSubscription {charge_id},
//            /fake/refundPayment {charge_id}: the person's (and Telegram's) side of Stars payments;
//            the answer is the outcome itself, e.g. { status: 'paid', chargeId }.
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import { ControlError, FakeTelegram, type FakeTelegramOptions, type Subscriber } from './fake-bot-api/fake-telegram';
import { ApiError, parseParams, readBody } from './fake-bot-api/request-body';
import { signInitData } from './init-data';

export {
  ControlError,
  FakeTelegram,
  type ApiCall,
  type BotStateSnapshot,
  type BotSummary,
  type CallbackAnswer,
  type ChatEntry,
  type ChatSnapshot,
  type FailureSpec,
  type Subscriber,
  type WaitForBotMessageOptions,
} from './fake-bot-api/fake-telegram';
export {
  PRE_CHECKOUT_TIMEOUT_MS,
  STAR_SUBSCRIPTION_MAX_PRICE,
  STAR_SUBSCRIPTION_PERIOD_S,
  type PaymentOutcome,
} from './fake-bot-api/payments';

export interface FakeBotApiOptions extends FakeTelegramOptions {
  /** 0 (default) picks a free port. */
  port?: number;
  host?: string;
  /** Load the state from this JSON file at start and keep saving it there (the CLI's --state). */
  stateFile?: string;
}

/** The running fake: every control operation of FakeTelegram, plus where it listens. */
export interface FakeBotApi extends FakeTelegram {
  /** The apiRoot to give a Bot API client, e.g. http://127.0.0.1:8081 (no trailing slash). */
  readonly url: string;
  readonly port: number;
  /**
   * Telegram unreachable: the port is closed (connections refused, open ones cut) for `ms`, then
   * listens again on the same port with everything as it was. Resolves once it listens again.
   */
  refuseConnectionsFor(ms: number): Promise<void>;
  close(): Promise<void>;
}

const PAGE_PATH = new URL('./fake-bot-api/page.html', import.meta.url);
/** The longest a control long poll (the web page waiting for news) may wait. */
const CONTROL_WAIT_LIMIT_S = 30;

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  if (res.writableEnded || res.destroyed) return;
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const body = await readBody(req, 1024 * 1024);
  if (body.length === 0) return {};
  try {
    const parsed = JSON.parse(body.toString('utf8')) as unknown;
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
  } catch {
    // fall through
  }
  throw new ControlError(400, 'The body must be a JSON object');
}

const NEVER_ABORTED = new AbortController().signal;

function abortOnDisconnect(res: ServerResponse): AbortSignal {
  const controller = new AbortController();
  res.on('close', () => {
    if (!res.writableEnded) controller.abort();
  });
  return controller.signal;
}

type ControlHandler = (ctx: {
  telegram: FakeTelegram;
  params: string[];
  query: URLSearchParams;
  body: () => Promise<Record<string, unknown>>;
  signal: AbortSignal;
}) => unknown;

/** Control API: JSON in, `{ ok: true, result }` or `{ ok: false, description }` out. */
const CONTROL_ROUTES: Array<[method: string, pattern: RegExp, handler: ControlHandler]> = [
  ['GET', /^\/control\/bots$/, ({ telegram }) => telegram.listBots()],
  [
    'POST',
    /^\/control\/bots$/,
    async ({ telegram, body }) => {
      const b = await body();
      return telegram.addBot({ token: b.token as string | undefined, username: b.username as string, first_name: b.first_name as string | undefined });
    },
  ],
  ['GET', /^\/control\/bots\/([^/]+)$/, ({ telegram, params }) => telegram.botState(params[0])],
  ['GET', /^\/control\/bots\/([^/]+)\/calls$/, ({ telegram, params, query }) => telegram.calls(params[0], query.get('method') ?? undefined)],
  [
    'POST',
    /^\/control\/bots\/([^/]+)\/messages$/,
    async ({ telegram, params, body }) => {
      const b = await body();
      return telegram.sendUserMessage(params[0], { from: b.from as Subscriber, text: b.text as string });
    },
  ],
  [
    'POST',
    /^\/control\/bots\/([^/]+)\/reply-buttons$/,
    async ({ telegram, params, body }) => {
      const b = await body();
      return telegram.pressReplyButton(params[0], { from: b.from as Subscriber, text: b.text as string, phone_number: b.phone_number as string | undefined });
    },
  ],
  [
    'POST',
    /^\/control\/bots\/([^/]+)\/callback-queries$/,
    async ({ telegram, params, body }) => {
      const b = await body();
      return telegram.pressButton(params[0], {
        from: b.from as Subscriber,
        message_id: Number(b.message_id),
        callback_data: b.callback_data as string,
      });
    },
  ],
  [
    'GET',
    /^\/control\/bots\/([^/]+)\/chats\/(\d+)$/,
    async ({ telegram, params, query, signal }) => {
      // ?after=<version>&wait=<seconds>: long poll until something changed after that version.
      const after = Number(query.get('after') ?? -1);
      const wait = Math.min(Number(query.get('wait') ?? 0) || 0, CONTROL_WAIT_LIMIT_S);
      if (wait > 0 && telegram.version <= after) {
        await new Promise<void>((resolve) => {
          const done = () => {
            clearTimeout(timer);
            telegram.events.off('change', done);
            telegram.events.off('close', done);
            signal.removeEventListener('abort', done);
            resolve();
          };
          const timer = setTimeout(done, wait * 1000);
          telegram.events.on('change', done);
          telegram.events.on('close', done);
          signal.addEventListener('abort', done);
        });
      }
      const chatId = Number(params[1]);
      const state = telegram.botState(params[0]);
      const known = state.chats.some((c) => c.id === chatId);
      return {
        version: telegram.version,
        bot: state,
        chat: known ? telegram.chatSnapshot(params[0], chatId) : null,
      };
    },
  ],
  ['GET', /^\/control\/bots\/([^/]+)\/chats\/(\d+)\/bot-messages$/, ({ telegram, params }) => telegram.botMessages(params[0], Number(params[1]))],
  [
    'POST',
    /^\/control\/bots\/([^/]+)\/chats\/(\d+)\/block$/,
    async ({ telegram, params, body }) => {
      const b = await body();
      return telegram.setBlocked(params[0], Number(params[1]), b.blocked !== false) ?? null;
    },
  ],
  ['GET', /^\/control\/bots\/([^/]+)\/limits$/, ({ telegram, params }) => telegram.limitStats(params[0])],
  ['POST', /^\/control\/bots\/([^/]+)\/new-token$/, ({ telegram, params }) => telegram.newToken(params[0])],
  [
    'POST',
    /^\/control\/bots\/([^/]+)\/revoke$/,
    ({ telegram, params }) => {
      telegram.revokeToken(params[0]);
      return true;
    },
  ],
  [
    'POST',
    /^\/control\/bots\/([^/]+)\/rate-limit$/,
    async ({ telegram, params, body }) => {
      const b = await body();
      telegram.rateLimit(params[0], {
        calls: Number(b.calls ?? 1),
        retryAfter: Number(b.retry_after ?? 1),
        methods: b.methods as string[] | undefined,
      });
      return true;
    },
  ],
  [
    'POST',
    /^\/control\/bots\/([^/]+)\/failures$/,
    async ({ telegram, params, body }) => {
      const b = await body();
      const failure = {
        error_code: Number(b.error_code),
        description: b.description as string,
        parameters: b.parameters as { retry_after?: number } | undefined,
        methods: b.methods as string[] | undefined,
      };
      // `ms`: every matching call fails for that long (an outage), instead of the next `count`.
      if (b.ms !== undefined) telegram.failCallsFor(params[0], { ...failure, ms: Number(b.ms) });
      else telegram.failNextCalls(params[0], { ...failure, count: Number(b.count ?? 1) });
      return true;
    },
  ],
  [
    'POST',
    /^\/control\/bots\/([^/]+)\/web-app-url$/,
    async ({ telegram, params, body }) => {
      // What a Telegram client does when a person opens a Mini App: the app's URL with signed
      // init data and theme in the hash, so the app runs "inside Telegram" on this machine.
      const b = await body();
      return webAppLaunchUrl(telegram, params[0], String(b.url ?? ''), b.from as Subscriber);
    },
  ],
  [
    'POST',
    /^\/control\/reset$/,
    ({ telegram }) => {
      telegram.reset();
      return true;
    },
  ],
];

/** Telegram's light theme, as a client passes it to a Mini App. */
const LIGHT_THEME = {
  bg_color: '#ffffff',
  text_color: '#000000',
  hint_color: '#999999',
  link_color: '#2481cc',
  button_color: '#2481cc',
  button_text_color: '#ffffff',
  secondary_bg_color: '#efeff3',
  header_bg_color: '#ffffff',
  accent_text_color: '#2481cc',
  section_bg_color: '#ffffff',
  section_header_text_color: '#6d6d72',
  subtitle_text_color: '#999999',
  destructive_text_color: '#ff3b30',
};

function webAppLaunchUrl(telegram: FakeTelegram, token: string, url: string, from: Subscriber): string {
  if (!/^https?:\/\//.test(url)) throw new ControlError(400, 'url must be an http(s) URL');
  if (!from || !Number.isSafeInteger(from.id) || !from.first_name) throw new ControlError(400, 'from must be a person');
  telegram.botState(token); // 404 for an unknown bot
  const initData = signInitData({ botToken: token, user: from });
  const hash = new URLSearchParams({
    tgWebAppData: initData,
    tgWebAppVersion: '8.0',
    tgWebAppPlatform: 'weba',
    tgWebAppThemeParams: JSON.stringify(LIGHT_THEME),
  });
  return `${url.split('#')[0]}#${hash.toString()}`;
}

/** The person's and Telegram's side of a Stars payment, for e2e tests and dev play. */
async function handleFakePayments(telegram: FakeTelegram, req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
  if (req.method !== 'POST') return sendJson(res, 405, { ok: false, description: 'Method Not Allowed' });
  const b = await readJson(req);
  if (url.pathname === '/fake/payInvoice') {
    return sendJson(res, 200, await telegram.payInvoice({ link: String(b.link ?? ''), userId: Number(b.user_id) }));
  }
  if (url.pathname === '/fake/payInvoiceMessage') {
    return sendJson(res, 200, await telegram.payInvoiceMessage({ token: String(b.token ?? ''), chatId: Number(b.chat_id), messageId: Number(b.message_id) }));
  }
  if (url.pathname === '/fake/renewSubscription') {
    return sendJson(res, 200, telegram.renewSubscription({ chargeId: String(b.charge_id ?? '') }));
  }
  if (url.pathname === '/fake/refundPayment') {
    telegram.refundPayment({ chargeId: String(b.charge_id ?? '') });
    return sendJson(res, 200, { status: 'refunded' });
  }
  sendJson(res, 404, { ok: false, description: 'Not Found' });
}

async function handleControl(telegram: FakeTelegram, req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
  const fileMatch = /^\/control\/files\/([^/]+)$/.exec(url.pathname);
  if (req.method === 'GET' && fileMatch) {
    const file = telegram.fileById(decodeURIComponent(fileMatch[1]));
    if (!file) return sendJson(res, 404, { ok: false, description: 'No such file' });
    if (file.data) {
      res.writeHead(200, { 'content-type': file.contentType, 'content-length': file.data.length });
      res.end(file.data);
    } else {
      res.writeHead(302, { location: file.url });
      res.end();
    }
    return;
  }
  for (const [method, pattern, handler] of CONTROL_ROUTES) {
    const match = pattern.exec(url.pathname);
    if (!match || req.method !== method) continue;
    const result = await handler({
      telegram,
      params: match.slice(1).map((p) => decodeURIComponent(p)),
      query: url.searchParams,
      body: () => readJson(req),
      signal: abortOnDisconnect(res),
    });
    return sendJson(res, method === 'POST' && pattern.source === '^\\/control\\/bots$' ? 201 : 200, { ok: true, result });
  }
  sendJson(res, 404, { ok: false, description: 'Not Found' });
}

async function handleBotApi(telegram: FakeTelegram, req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
  const match = /^\/bot([^/]+)\/([^/]*)$/.exec(url.pathname);
  if (!match) return sendJson(res, 404, { ok: false, error_code: 404, description: 'Not Found' });
  const token = decodeURIComponent(match[1]);
  // Only a long poll waits, and only it needs to know when its caller hangs up.
  const signal = match[2].toLowerCase() === 'getupdates' ? abortOnDisconnect(res) : NEVER_ABORTED;
  const params = parseParams(url, req.headers['content-type'], await readBody(req));
  const outcome = await telegram.callMethod(token, match[2], params, signal);
  sendJson(res, outcome.ok ? 200 : outcome.error_code, outcome);
}

function handleDownload(telegram: FakeTelegram, res: ServerResponse, url: URL): void {
  const match = /^\/file\/bot([^/]+)\/(.+)$/.exec(url.pathname);
  const file = match ? telegram.download(decodeURIComponent(match[1]), decodeURIComponent(match[2])) : undefined;
  if (!file?.data) return sendJson(res, 404, { ok: false, error_code: 404, description: 'Not Found' });
  res.writeHead(200, { 'content-type': file.contentType, 'content-length': file.data.length });
  res.end(file.data);
}

/** Starts the fake on host:port (127.0.0.1, any free port by default). */
export async function startFakeBotApi(options: FakeBotApiOptions = {}): Promise<FakeBotApi> {
  const telegram = new FakeTelegram(options);
  const savedState = options.stateFile ? telegram.keepStateIn(options.stateFile) : undefined;
  const page = readFileSync(PAGE_PATH);
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake.local');
    const work = async () => {
      if (url.pathname === '/' && req.method === 'GET') {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-length': page.length });
        res.end(page);
      } else if (url.pathname.startsWith('/fake/')) {
        await handleFakePayments(telegram, req, res, url);
      } else if (url.pathname.startsWith('/control/')) {
        await handleControl(telegram, req, res, url);
      } else if (url.pathname.startsWith('/file/bot')) {
        handleDownload(telegram, res, url);
      } else {
        await handleBotApi(telegram, req, res, url);
      }
    };
    work().catch((error: unknown) => {
      if (error instanceof ApiError) {
        return sendJson(res, error.code, { ok: false, error_code: error.code, description: error.description });
      }
      if (error instanceof ControlError) return sendJson(res, error.status, { ok: false, description: error.message });
      console.error('fake Bot API: unexpected failure', error);
      sendJson(res, 500, { ok: false, error_code: 500, description: 'Internal Server Error' });
    });
  });
  server.keepAliveTimeout = 65_000;
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const urlHost = host.includes(':') ? `[${host}]` : host === '0.0.0.0' ? '127.0.0.1' : host;
  let closing: Promise<void> | undefined;
  return Object.assign(telegram, {
    url: `http://${urlHost}:${port}`,
    port,
    async refuseConnectionsFor(ms: number): Promise<void> {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await new Promise((resolve) => setTimeout(resolve, ms));
      if (closing) return;
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => {
          server.off('error', reject);
          resolve();
        });
      });
    },
    close(): Promise<void> {
      closing ??= new Promise<void>((resolve) => {
        savedState?.flush();
        telegram.shutdown();
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closing;
    },
  });
}

// ------------------------------------------------------------------ CLI

interface CliArgs {
  port: number;
  host: string;
  bots: Array<{ username: string; token?: string }>;
  stateFile?: string;
}

function parseArgs(argv: string[]): CliArgs {
  const out: CliArgs = { port: 8081, host: '127.0.0.1', bots: [] };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = () => {
      const next = argv[++i];
      if (next === undefined) throw new Error(`${arg} needs a value`);
      return next;
    };
    if (arg === '--port') out.port = Number(value());
    else if (arg === '--host') out.host = value();
    else if (arg === '--state') out.stateFile = value();
    else if (arg === '--bot') {
      const [username, token] = value().split('=');
      out.bots.push({ username, ...(token ? { token } : {}) });
    } else if (arg === '--help' || arg === '-h') {
      console.log('Usage: tsx scripts/telegram/fake-bot-api.ts [--port 8081] [--host 127.0.0.1] [--bot name_bot[=TOKEN]]... [--state FILE]');
      process.exit(0);
    } else throw new Error(`Unknown argument ${arg} (try --help)`);
  }
  if (!Number.isInteger(out.port) || out.port < 0) throw new Error('--port must be a whole number');
  return out;
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const fake = await startFakeBotApi({ port: args.port, host: args.host, ...(args.stateFile ? { stateFile: args.stateFile } : {}) });
  if (args.stateFile) console.log(`State kept in ${args.stateFile} (${fake.listBots().length} bots loaded)`);
  for (const bot of args.bots) {
    // With a state file the bot may be there already, chats and all.
    const known = fake.listBots().find((saved) => (bot.token ? saved.token === bot.token : saved.username === bot.username));
    const created = known ?? fake.addBot({ username: bot.username, token: bot.token });
    console.log(`bot @${created.username}  token ${created.token}`);
  }
  console.log(`Fake Telegram Bot API on ${fake.url}`);
  console.log(`  play a subscriber:   ${fake.url}/`);
  console.log(`  point the server at: TELEGRAM_API_ROOT=${fake.url}`);
  // Stopped by process group, a signal comes from the group and another from the parent passing
  // its own on: the second must not kill the process before the state file is written.
  const stop = () => {
    void fake.close().then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
