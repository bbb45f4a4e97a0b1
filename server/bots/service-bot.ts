// The service bot (TELEGRAM_BOT_TOKEN): the door into the Mini App. Its menu button opens the
// app at PUBLIC_URL and /start answers with a button that does the same. Updates come by long
// polling, or by webhook when PUBLIC_URL is https. Telegram being down or the token being wrong
// is logged and never stops the server from serving the API.
import { createHmac } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { type BotError, Composer, type Context, GrammyError, InlineKeyboard, webhookCallback } from 'grammy';
import type { Config } from '../config';
import type { PartnerService } from '../partner/partner';
import { createBot, describeBotApiError, isTransientBotApiError } from '../telegram/client';
import { SERVICE_BOT_MESSAGES, serviceBotLanguage, type ServiceBotLanguage } from './service-bot-messages';

/** Where Telegram delivers the service bot's updates in webhook mode (under PUBLIC_URL). */
export const SERVICE_BOT_WEBHOOK_PATH = '/telegram/service-bot';
/** The service bot only needs what people write to it. */
const SERVICE_BOT_UPDATES = ['message'] as const;
/** How long start-up waits for Telegram's first answer before the server goes on without it. */
export const SERVICE_BOT_STARTUP_WAIT_MS = 10_000;
/** Backoff between set-up attempts while Telegram cannot be reached. */
const FIRST_RETRY_MS = 5_000;
const MAX_RETRY_MS = 5 * 60_000;
/** Per-request timeout: above the 30 s long poll, far below grammY's default of 500 s. */
const API_TIMEOUT_S = 60;

export interface ServiceBot {
  stop(): Promise<void>;
}

/** The webhook's secret_token: derived from SECRET_KEY, so every server process agrees on it. */
export function serviceBotWebhookSecret(secretKey: string): string {
  return createHmac('sha256', secretKey).update('telegram service bot webhook').digest('base64url');
}

/** The Mini App's address: the SPA's root under PUBLIC_URL. */
export function miniAppUrl(config: Pick<Config, 'publicUrl'>): string {
  return `${config.publicUrl}/`;
}

function webAppMenuButton(language: ServiceBotLanguage, url: string) {
  return { type: 'web_app' as const, text: SERVICE_BOT_MESSAGES[language].menuButton, web_app: { url } };
}

/** What the service bot tells the partner programme (server/partner). */
export type ServiceBotPartnerPort = Pick<PartnerService, 'recordBotStart' | 'setServiceBotUsername'>;

/** /start in a private chat: a welcome in the person's language with a button into the app. */
export function serviceBotBehaviour(appUrl: string, partner?: ServiceBotPartnerPort): Composer<Context> {
  const behaviour = new Composer();
  // Telegram allows web_app buttons in private chats only.
  behaviour.chatType('private').command('start', async (ctx) => {

    const language = serviceBotLanguage(ctx.from.language_code);
    const messages = SERVICE_BOT_MESSAGES[language];
    await ctx.reply(messages.welcome, { reply_markup: new InlineKeyboard().webApp(messages.openApp, appUrl) });
    // The default menu button is English; give this chat one in the person's own language.
    // (ctx.setChatMenuButton does not fill in chat_id: it would change everyone's default.)
    if (language !== 'en') {
      await ctx.api.setChatMenuButton({ chat_id: ctx.chat.id, menu_button: webAppMenuButton(language, appUrl) });
    }
    // /start ref_<uid>: a partner's bot link (a click, and a referral kept until the person signs
    // up). After the welcome: a failure here is logged and never costs the person their answer.
    if (partner && ctx.match) await partner.recordBotStart(ctx.from.id, ctx.match);
  });
  return behaviour;
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });

export async function startServiceBot({
  app,
  config,
  partner,
  startupWaitMs = SERVICE_BOT_STARTUP_WAIT_MS,
}: {
  app: FastifyInstance;
  config: Config;
  /** The partner programme: /start ref_<uid>, and the bot's @username for the partner links. */
  partner?: ServiceBotPartnerPort;
  /** Tests shorten this; the server uses the default. */
  startupWaitMs?: number;
}): Promise<ServiceBot> {
  const log = app.log.child({ component: 'service-bot' });
  const token = config.telegramBotToken;
  if (!token) {
    log.info('TELEGRAM_BOT_TOKEN is not set: no service bot');
    return { stop: async () => {} };
  }
  const describe = (error: unknown) => describeBotApiError(error, token);
  const appUrl = miniAppUrl(config);
  const useWebhook = config.publicUrl.startsWith('https://');
  const bot = createBot(token, { apiRoot: config.telegramApiRoot, timeoutSeconds: API_TIMEOUT_S });

  const onUpdateError = (error: BotError) =>
    log.error({ update_id: error.ctx.update.update_id }, `Service bot could not answer an update: ${describe(error.error)}`);
  bot.errorBoundary(onUpdateError, serviceBotBehaviour(appUrl, partner));
  bot.catch(onUpdateError);

  if (useWebhook) {
    // Registered now: Fastify takes no routes once the server listens.
    const secretToken = serviceBotWebhookSecret(config.secretKey);
    app.post(SERVICE_BOT_WEBHOOK_PATH, webhookCallback(bot, 'fastify', { secretToken, onTimeout: 'return' }));
  }

  const abort = new AbortController();
  const { signal } = abort;
  // grammY types its signal parameter with an AbortController polyfill; Node's is the same thing.
  const apiSignal = signal as unknown as Parameters<typeof bot.api.getMe>[0];
  let stopping = false;
  let polling: Promise<void> | undefined;
  let reportFirstOutcome = () => {};
  const firstOutcome = new Promise<void>((resolve) => (reportFirstOutcome = resolve));

  /** One set-up step: retried while Telegram is unreachable, logged and given up when refused. */
  async function step<T>(what: string, call: () => Promise<T>): Promise<T | undefined> {
    for (let delay = FIRST_RETRY_MS; !signal.aborted; delay = Math.min(delay * 2, MAX_RETRY_MS)) {
      try {
        return await call();
      } catch (error) {
        if (signal.aborted) return undefined;
        if (!isTransientBotApiError(error)) {
          const badToken = error instanceof GrammyError && (error.error_code === 401 || error.error_code === 404);
          log.error(
            `Service bot could not ${what}: ${describe(error)}` +
              (badToken ? '. Telegram does not accept TELEGRAM_BOT_TOKEN; the menu button and /start stay off until it is fixed' : ''),
          );
          return undefined;
        }
        log.warn(`Service bot could not ${what}: ${describe(error)}; no answer from ${config.telegramApiRoot}, retrying in ${delay / 1000} s`);
        reportFirstOutcome();
        await sleep(delay, signal);
      }
    }
    return undefined;
  }

  const setUp = (async () => {
    const me = await step('connect to Telegram (getMe)', () => bot.api.getMe(apiSignal));
    if (!me) return;
    bot.botInfo = me;
    partner?.setServiceBotUsername(me.username);
    await step('set its commands', async () => {
      for (const language of ['en', 'ru'] as const) {
        const commands = [{ command: 'start', description: SERVICE_BOT_MESSAGES[language].startCommand }];
        await bot.api.setMyCommands(commands, language === 'en' ? {} : { language_code: language }, apiSignal);
      }
    });
    await step('set its menu button', () => bot.api.setChatMenuButton({ menu_button: webAppMenuButton('en', appUrl) }, apiSignal));
    if (signal.aborted) return;
    if (useWebhook) {
      const url = `${config.publicUrl}${SERVICE_BOT_WEBHOOK_PATH}`;
      const secret_token = serviceBotWebhookSecret(config.secretKey);
      const set = await step('set its webhook', () =>
        bot.api.setWebhook(url, { secret_token, allowed_updates: [...SERVICE_BOT_UPDATES], drop_pending_updates: false }, apiSignal),
      );
      if (set) log.info(`Service bot @${me.username} is ready: updates by webhook at ${url}, the app at ${appUrl}`);
      return;
    }
    polling = bot
      .start({
        allowed_updates: [...SERVICE_BOT_UPDATES],
        drop_pending_updates: false,
        onStart: () => log.info(`Service bot @${me.username} is ready: updates by long polling, the app at ${appUrl}`),
      })
      .catch((error: unknown) => {
        if (stopping) return;
        const conflict = error instanceof GrammyError && error.error_code === 409;
        log.error(
          `Service bot stopped receiving updates: ${describe(error)}` +
            (conflict ? '. Another process is receiving this bot’s updates (or a webhook is set); one bot token serves one server' : ''),
        );
      });
  })()
    .catch((error: unknown) => log.error(`Service bot set-up failed: ${describe(error)}`))
    .finally(() => reportFirstOutcome());

  // Wait for Telegram's first answer (or the first failure) so the log tells the story in order,
  // but never hold up the server for long: set-up goes on in the background if it must.
  let waitTimer: NodeJS.Timeout | undefined;
  await Promise.race([firstOutcome, new Promise<void>((resolve) => (waitTimer = setTimeout(resolve, startupWaitMs)))]);
  clearTimeout(waitTimer);

  return {
    async stop() {
      stopping = true;
      abort.abort();
      await setUp;
      if (bot.isRunning()) {
        await bot.stop().catch((error: unknown) => log.warn(`Service bot did not stop cleanly: ${describe(error)}`));
      }
      await polling;
    },
  };
}
