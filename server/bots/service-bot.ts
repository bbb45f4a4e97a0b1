// The service bot (TELEGRAM_BOT_TOKEN): the door into the Mini App. Its menu button opens the
// app at PUBLIC_URL and /start answers with a button that does the same. Updates come by long
// polling, or by webhook when PUBLIC_URL is https. Telegram being down or the token being wrong
// is logged and never stops the server from serving the API.
import { createHmac } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { type BotError, Composer, type Context, GrammyError, InlineKeyboard, webhookCallback } from 'grammy';
import type { StarsService } from '../billing/stars';
import type { Config } from '../config';
import type { PartnerService } from '../partner/partner';
import { createBot, describeBotApiError, isTransientBotApiError } from '../telegram/client';
import { SERVICE_BOT_MESSAGES, serviceBotLanguage, type ServiceBotLanguage } from './service-bot-messages';

/** Where Telegram delivers the service bot's updates in webhook mode (under PUBLIC_URL). */
export const SERVICE_BOT_WEBHOOK_PATH = '/telegram/service-bot';
/**
 * What people write to it (successful_payment and refunded_payment come as messages too), and
 * Stars pre-checkouts, which Telegram sends only to a bot that asks for them.
 */
export const SERVICE_BOT_UPDATES = ['message', 'pre_checkout_query'] as const;
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

/** Work the bot started and has not finished (pre-checkout answers); stop() waits for it. */
export interface InFlight {
  run(task: () => Promise<void>): void;
  settle(): Promise<void>;
}

function inFlightTasks(onError: (error: unknown) => void): InFlight {
  const pending = new Set<Promise<void>>();
  return {
    run(task) {
      const running = task()
        .catch(onError)
        .finally(() => pending.delete(running));
      pending.add(running);
    },
    async settle() {
      while (pending.size > 0) await Promise.allSettled([...pending]);
    },
  };
}

/**
 * Pre-checkout answers on the wire at once. A burst of a thousand would otherwise open a thousand
 * connections to Telegram together (each a TLS handshake there), and the last ones in would wait
 * for all the others; a few dozen warm keep-alive connections carry them faster.
 */
export const PRE_CHECKOUT_ANSWERS_IN_FLIGHT = 32;

/** Runs at most `limit` of the calls given to it at once; the others wait their turn, in order. */
function concurrencyLimit(limit: number): <T>(call: () => Promise<T>) => Promise<T> {
  let running = 0;
  const queue: Array<() => void> = [];
  return async (call) => {
    if (running >= limit) await new Promise<void>((resolve) => queue.push(resolve));
    running += 1;
    try {
      return await call();
    } finally {
      running -= 1;
      queue.shift()?.();
    }
  };
}

/** Backoff while the database cannot take a payment: the update stays unconfirmed meanwhile. */
const RECORD_RETRY_MS = [250, 500, 1000, 2000, 4000, 8000, 15_000];

/**
 * Records a payment, retrying while the database fails (a restart, a lost connection), so that
 * the update is confirmed to Telegram only once it is in the ledger. Gives up (throws) when the
 * bot stops or after about half a minute: by webhook, Telegram then delivers it again.
 */
async function untilRecorded(record: () => Promise<unknown>, signal: AbortSignal): Promise<void> {
  for (const delay of [...RECORD_RETRY_MS, -1]) {
    try {
      await record();
      return;
    } catch (error) {
      if (delay < 0 || signal.aborted) throw error;
      await sleep(delay, signal);
    }
  }
}

/**
 * Stars payments. A pre-checkout is answered from its own task, so a burst of them is checked at
 * once rather than one after another within Telegram's 10 s (losing one to a crash only fails
 * that payment). A successful_payment or refunded_payment is recorded before the handler
 * returns: polling confirms the update only after that, and the ledger's key makes a second
 * delivery change nothing.
 */
export function serviceBotPayments(stars: StarsService, inFlight: InFlight, signal: AbortSignal = new AbortController().signal): Composer<Context> {
  const behaviour = new Composer();
  const answerSlot = concurrencyLimit(PRE_CHECKOUT_ANSWERS_IN_FLIGHT);
  behaviour.on('pre_checkout_query', (ctx) => {
    const query = ctx.preCheckoutQuery;
    inFlight.run(async () => {
      const refused = SERVICE_BOT_MESSAGES[serviceBotLanguage(query.from.language_code)].paymentRefused;
      let decision;
      try {
        decision = await stars.checkPreCheckout(query);
      } catch (error) {
        await answerSlot(() => ctx.answerPreCheckoutQuery(false, { error_message: refused.try_again }));
        throw error;
      }
      if (decision.ok) await answerSlot(() => ctx.answerPreCheckoutQuery(true));
      else await answerSlot(() => ctx.answerPreCheckoutQuery(false, { error_message: refused[decision.reason] }));
    });
  });
  behaviour.on('message:successful_payment', async (ctx) => {
    await untilRecorded(() => stars.recordPayment(ctx.message.successful_payment), signal);
  });
  behaviour.on('message:refunded_payment', async (ctx) => {
    await untilRecorded(() => stars.recordRefund(ctx.message.refunded_payment), signal);
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
  stars,
  startupWaitMs = SERVICE_BOT_STARTUP_WAIT_MS,
}: {
  app: FastifyInstance;
  config: Config;
  /** The partner programme: /start ref_<uid>, and the bot's @username for the partner links. */
  partner?: ServiceBotPartnerPort;
  /** Stars payments (services.stars); without it the bot takes no payments. */
  stars?: StarsService;
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
  const inFlight = inFlightTasks((error) => log.error(`Service bot could not answer a pre-checkout: ${describe(error)}`));
  const abort = new AbortController();
  const { signal } = abort;
  // No error boundary: a payment that could not be recorded fails the update, so that a webhook
  // answers 500 and Telegram delivers it again.
  if (stars) bot.use(serviceBotPayments(stars, inFlight, signal));
  bot.catch(onUpdateError);

  if (useWebhook) {
    // Registered now: Fastify takes no routes once the server listens.
    const secretToken = serviceBotWebhookSecret(config.secretKey);
    app.post(SERVICE_BOT_WEBHOOK_PATH, webhookCallback(bot, 'fastify', { secretToken, onTimeout: 'return' }));
  }

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
      await inFlight.settle();
    },
  };
}
