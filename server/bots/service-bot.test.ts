// The service bot against the fake Bot API: what a person sees in Telegram (menu button, the
// /start welcome and its button), both transports, and trouble that must not take the server down.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startFakeBotApi, type FakeBotApi } from '../../scripts/telegram/fake-bot-api';
import { loadConfig, type Config } from '../config';
import { until as eventually } from '../test/eventually';
import { SERVICE_BOT_WEBHOOK_PATH, serviceBotWebhookSecret, startServiceBot, type ServiceBot, type ServiceBotPartnerPort } from './service-bot';
import { SERVICE_BOT_MESSAGES } from './service-bot-messages';

const PUBLIC_URL = 'http://127.0.0.1:3999';
const ann = { id: 7001, first_name: 'Ann', language_code: 'en' };
const ivan = { id: 7002, first_name: 'Иван', language_code: 'ru' };

let fake: FakeBotApi;
let dataDir: string;
let counter = 0;
const cleanups: Array<() => Promise<unknown>> = [];

interface LogLine {
  level: number;
  msg: string;
}

interface Harness {
  app: FastifyInstance;
  config: Config;
  token: string;
  logs: LogLine[];
  rawLogs: string[];
  start(startupWaitMs?: number): Promise<ServiceBot>;
}

/** A minimal Fastify app with captured logs, and a Config as the server would load it. */
function harness({ publicUrl = PUBLIC_URL, token, apiRoot, partner }: { publicUrl?: string; token?: string; apiRoot?: string; partner?: ServiceBotPartnerPort } = {}): Harness {
  counter += 1;
  const botToken = token ?? fake.addBot({ username: `funnels${counter}_bot`, first_name: 'Funnels' }).token;
  const rawLogs: string[] = [];
  const logs: LogLine[] = [];
  const app = Fastify({
    logger: {
      level: 'debug',
      stream: {
        write(line: string) {
          rawLogs.push(line);
          logs.push(JSON.parse(line) as LogLine);
        },
      },
    },
  });
  const config = loadConfig({
    DATA_DIR: dataDir,
    SECRET_KEY: 'service-bot-test-secret',
    TELEGRAM_BOT_TOKEN: botToken,
    TELEGRAM_API_ROOT: apiRoot ?? fake.url,
    PUBLIC_URL: publicUrl,
  });
  cleanups.push(() => app.close());
  return {
    app,
    config,
    token: botToken,
    logs,
    rawLogs,
    async start(startupWaitMs?: number) {
      const serviceBot = await startServiceBot({ app, config, partner, ...(startupWaitMs ? { startupWaitMs } : {}) });
      cleanups.unshift(() => serviceBot.stop());
      return serviceBot;
    },
  };
}

function expectTokenNeverLogged(h: Harness): void {
  const secretPart = h.token.split(':')[1];
  for (const line of h.rawLogs) expect(line).not.toContain(secretPart);
}

beforeAll(async () => {
  fake = await startFakeBotApi({ port: 0 });
  dataDir = mkdtempSync(path.join(tmpdir(), 'service-bot-test-'));
});

afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

afterAll(async () => {
  await fake.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('service bot on long polling', () => {
  it('sets the menu button to open the app at PUBLIC_URL, and /start in the command list in both languages', async () => {
    const h = harness();
    await h.start();
    const state = fake.botState(h.token);
    expect(state.default_menu_button).toEqual({ type: 'web_app', text: 'Open app', web_app: { url: `${PUBLIC_URL}/` } });
    expect(state.commands['default|']).toEqual([{ command: 'start', description: SERVICE_BOT_MESSAGES.en.startCommand }]);
    expect(state.commands['default|ru']).toEqual([{ command: 'start', description: SERVICE_BOT_MESSAGES.ru.startCommand }]);
    expect(state.webhook.url).toBe('');
    await fake.waitForBotState(h.token, (s) => s.polling);
    expect(h.logs.some((l) => l.msg.includes('is ready: updates by long polling'))).toBe(true);
    expectTokenNeverLogged(h);
  });

  it('answers /start from an English speaker with the welcome and a button that opens the app', async () => {
    const h = harness();
    await h.start();
    fake.sendUserMessage(h.token, { from: ann, text: '/start' });
    const reply = await fake.waitForBotMessage(h.token, ann.id);
    expect(reply.text).toBe(SERVICE_BOT_MESSAGES.en.welcome);
    expect(reply.reply_markup?.inline_keyboard).toEqual([[{ text: 'Open the app', web_app: { url: `${PUBLIC_URL}/` } }]]);

    const german = { id: 7003, first_name: 'Jan', language_code: 'de' };
    fake.sendUserMessage(h.token, { from: german, text: '/start from-a-link' });
    expect((await fake.waitForBotMessage(h.token, german.id)).text).toBe(SERVICE_BOT_MESSAGES.en.welcome);
  });

  it('tells the partner programme its @username and each /start ref_<uid> (after the welcome, which a failure there never costs)', async () => {
    const starts: Array<[number, string]> = [];
    const usernames: Array<string | null> = [];
    const partner: ServiceBotPartnerPort = {
      recordBotStart: async (telegramId, payload) => {
        starts.push([telegramId, payload]);
        if (payload === 'ref_broken') throw new Error('database down');
      },
      setServiceBotUsername: (username) => usernames.push(username),
    };
    const h = harness({ partner });
    await h.start();
    expect(usernames).toEqual([`funnels${counter}_bot`]);
    fake.sendUserMessage(h.token, { from: ann, text: '/start ref_AbC123xyz0' });
    expect((await fake.waitForBotMessage(h.token, ann.id)).text).toBe(SERVICE_BOT_MESSAGES.en.welcome);
    await eventually(() => starts.length === 1, 'the bot click recorded');
    expect(starts).toEqual([[ann.id, 'ref_AbC123xyz0']]);
    const bob = { id: 7005, first_name: 'Bob', language_code: 'en' };
    fake.sendUserMessage(h.token, { from: bob, text: '/start ref_broken' });
    expect((await fake.waitForBotMessage(h.token, bob.id)).text).toBe(SERVICE_BOT_MESSAGES.en.welcome);
    await eventually(() => starts.length === 2, 'the second bot click tried');
    expect(starts[1]).toEqual([bob.id, 'ref_broken']);
  });

  it('answers /start from a Russian speaker in Russian, and gives that chat a Russian menu button', async () => {
    const h = harness();
    await h.start();
    fake.sendUserMessage(h.token, { from: ivan, text: '/start' });
    const reply = await fake.waitForBotMessage(h.token, ivan.id);
    expect(reply.text).toBe(SERVICE_BOT_MESSAGES.ru.welcome);
    expect(reply.reply_markup?.inline_keyboard).toEqual([[{ text: 'Открыть приложение', web_app: { url: `${PUBLIC_URL}/` } }]]);
    await fake.waitForCall(h.token, 'setChatMenuButton', { predicate: (c) => c.params.chat_id === ivan.id });
    expect(fake.chatSnapshot(h.token, ivan.id).menu_button).toEqual({ type: 'web_app', text: 'Открыть', web_app: { url: `${PUBLIC_URL}/` } });
    expect(fake.botState(h.token).default_menu_button).toMatchObject({ text: 'Open app' });
    fake.sendUserMessage(h.token, { from: ann, text: '/start' });
    await fake.waitForBotMessage(h.token, ann.id);
    expect(fake.chatSnapshot(h.token, ann.id).menu_button).toMatchObject({ text: 'Open app' });
  });

  it('keeps answering after one reply fails, and logs the failure', async () => {
    const h = harness();
    await h.start();
    fake.failNextCalls(h.token, { count: 1, error_code: 403, description: 'Forbidden: bot was blocked by the user', methods: ['sendMessage'] });
    fake.sendUserMessage(h.token, { from: ann, text: '/start' });
    await eventually(() => h.logs.some((l) => l.level >= 50 && l.msg.includes('403 Forbidden: bot was blocked by the user')), 'the error log');
    fake.sendUserMessage(h.token, { from: ann, text: '/start' });
    expect((await fake.waitForBotMessage(h.token, ann.id)).text).toBe(SERVICE_BOT_MESSAGES.en.welcome);
  });

  it('stop() ends long polling: later messages wait in Telegram unanswered', async () => {
    const h = harness();
    const serviceBot = await h.start();
    await fake.waitForBotState(h.token, (s) => s.polling);
    await serviceBot.stop();
    expect(fake.botState(h.token).polling).toBe(false);

    const getUpdatesBefore = fake.calls(h.token, 'getUpdates').length;
    fake.sendUserMessage(h.token, { from: ann, text: '/start' });
    // The positive signal: the message is queued at Telegram, where only a getUpdates can take it.
    await fake.waitForBotState(h.token, (s) => s.pending_update_count === 1);
    expect(fake.calls(h.token, 'getUpdates')).toHaveLength(getUpdatesBefore);
    expect(fake.botMessages(h.token, ann.id)).toEqual([]);
  });
});

describe('service bot on a webhook (https PUBLIC_URL)', () => {
  const HTTPS_URL = 'https://funnels.invalid';

  it('registers its webhook with a secret and answers updates that carry it, refusing others', async () => {
    const h = harness({ publicUrl: HTTPS_URL });
    await h.start();
    const secret = serviceBotWebhookSecret(h.config.secretKey);
    expect(secret).toMatch(/^[A-Za-z0-9_-]{32,256}$/);
    const state = fake.botState(h.token);
    expect(state.webhook.url).toBe(`${HTTPS_URL}${SERVICE_BOT_WEBHOOK_PATH}`);
    expect(state.webhook.secret_token).toBe(secret);
    expect(state.default_menu_button).toEqual({ type: 'web_app', text: 'Open app', web_app: { url: `${HTTPS_URL}/` } });
    expect(fake.calls(h.token, 'getUpdates')).toEqual([]);

    // Telegram would POST this update to PUBLIC_URL; deliver it by hand.
    const update = fake.sendUserMessage(h.token, { from: ann, text: '/start' });
    const wrong = await h.app.inject({
      method: 'POST',
      url: SERVICE_BOT_WEBHOOK_PATH,
      headers: { 'x-telegram-bot-api-secret-token': 'not-the-secret' },
      payload: update,
    });
    expect(wrong.statusCode).toBe(401);
    const missing = await h.app.inject({ method: 'POST', url: SERVICE_BOT_WEBHOOK_PATH, payload: update });
    expect(missing.statusCode).toBe(401);
    expect(fake.botMessages(h.token, ann.id)).toEqual([]);

    const right = await h.app.inject({
      method: 'POST',
      url: SERVICE_BOT_WEBHOOK_PATH,
      headers: { 'x-telegram-bot-api-secret-token': secret },
      payload: update,
    });
    expect(right.statusCode).toBe(200);
    const [reply] = fake.botMessages(h.token, ann.id);
    expect(reply.text).toBe(SERVICE_BOT_MESSAGES.en.welcome);
    expect(reply.reply_markup?.inline_keyboard[0][0]).toEqual({ text: 'Open the app', web_app: { url: `${HTTPS_URL}/` } });
    expectTokenNeverLogged(h);
  });

  it('derives the same secret in every process from SECRET_KEY, and a different one for another key', () => {
    expect(serviceBotWebhookSecret('key-a')).toBe(serviceBotWebhookSecret('key-a'));
    expect(serviceBotWebhookSecret('key-a')).not.toBe(serviceBotWebhookSecret('key-b'));
  });
});

describe('service bot in trouble, server unharmed', () => {
  it('a token Telegram refuses is logged clearly; the server still serves and stop() works', async () => {
    const h = harness({ token: '4242424242:AAnot-a-token-telegram-knows-about' });
    h.app.get('/health', async () => ({ ok: true }));
    const serviceBot = await h.start();
    const error = h.logs.find((l) => l.level >= 50);
    expect(error?.msg).toContain('getMe answered 401 Unauthorized');
    expect(error?.msg).toContain('TELEGRAM_BOT_TOKEN');
    expect((await h.app.inject({ method: 'GET', url: '/health' })).json()).toEqual({ ok: true });
    await serviceBot.stop();
    expectTokenNeverLogged(h);
  });

  it('a token revoked while polling: logged, polling ends, the server lives on', async () => {
    const h = harness();
    const serviceBot = await h.start();
    await fake.waitForBotState(h.token, (s) => s.polling);
    fake.revokeToken(h.token);
    await eventually(
      () => h.logs.some((l) => l.level >= 50 && l.msg.includes('stopped receiving updates') && l.msg.includes('401 Unauthorized')),
      'the revoked-token error',
    );
    await serviceBot.stop();
    expectTokenNeverLogged(h);
  });

  it('Telegram unreachable: warns and retries in the background without holding up start-up', async () => {
    const h = harness({ token: '5151515151:AAunreachable-test-token-secret', apiRoot: 'http://127.0.0.1:1' });
    const started = Date.now();
    const serviceBot = await h.start(3000);
    expect(Date.now() - started).toBeLessThan(2500);
    const warning = h.logs.find((l) => l.level === 40);
    expect(warning?.msg).toContain('could not connect to Telegram');
    expect(warning?.msg).toContain('ECONNREFUSED');
    expect(warning?.msg).toContain('retrying in 5 s');
    const stopping = Date.now();
    await serviceBot.stop();
    expect(Date.now() - stopping).toBeLessThan(1000);
    expectTokenNeverLogged(h);
  });
});
