// Every service of the server, built once: main.ts builds them for the process and hands them to
// buildApp (tests that give none get them from buildApp, built the same way), benches take them
// from here too. The HTTP plugins only call them; the bot runtime and the delivery engine are
// told of changes through the ports given here.
import type { Config } from './config';
import type { Db } from './db';
import { loggableError } from './db/errors';
import type { ListenerTimings } from './db/listener';
import { createAccountService } from './accounts/accounts';
import { createBillingService } from './billing/billing';
import { createCardPayments } from './billing/card/card';
import { createStripeProvider } from './billing/card/stripe';
import { graceNoticeSender, paymentFailedNoticeSender, subscriptionActiveNoticeSender } from './billing/notices';
import { createStarsService } from './billing/stars';
import { starsCancelPort } from './billing/stars-cancel';
import { createRateLimiter } from './accounts/rate-limit';
import { createSessions } from './accounts/sessions';
import { createContactsService } from './contacts/contacts';
import { createCrmService } from './crm/crm';
import { createDashboardService } from './funnels/dashboard';
import { createFunnelService } from './funnels/funnels';
import { createInboxService } from './funnels/inbox';
import { createMediaService } from './funnels/media';
import { createPeopleService } from './funnels/people';
import { idleFunnelRuntime, type FunnelRuntimePort } from './funnels/runtime-port';
import { createKeywordService } from './funnels/keywords';
import { createStageService } from './funnels/stages';
import { createStatsService } from './funnels/stats';
import { createSourcesService } from './funnels/sources';
import { createTimerService } from './funnels/timers';
import { createInboundService } from './funnels/inbound';
import { createWebhookService } from './funnels/webhooks';
import { createPaymentService } from './funnels/payments';
import { createFieldService } from './funnels/fields';
import { LetterScheduler } from './outbox/letter-scheduler';
import { createSeriesService } from './letters/series';
import { createTestClock } from './letters/test-clock';
import type { Mailer } from './mail/mailer';
import { createMailingService } from './mailings/mailings';
import { interactiveBotApi } from './telegram/client';
import { createTemplateService } from './templates/templates';
import { createPartnerService } from './partner/partner';

/** Where the services log (the app's logger, or a child of it). */
export interface ServiceLog {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
  error(object: object, message: string): void;
}

export interface ServiceDeps {
  config: Config;
  db: Db;
  mailer: Mailer;
  log: ServiceLog;
  /** The clock for tokens, init data, rate-limit windows and the services' timestamps (tests move it). */
  now?: () => Date;
  /** Seconds-long reuse of looked-up sessions; 0 disables (see accounts/sessions.ts). */
  sessionCacheTtlMs?: number;
  /** The session cache's LISTEN connection: heartbeat and reconnect delays (tests shorten them). */
  sessionListenerTimings?: Partial<ListenerTimings>;
  /** The bot runtime, told of every funnel state change (a no-op when omitted: API-only tests). */
  funnelRuntime?: FunnelRuntimePort;
  /** The delivery engine, woken when a mailing starts or resumes (it also looks by itself). */
  deliveries?: { wake(): void };
}

/** Work started now and finished after the answer is sent (mail that must not reveal whether an account exists). */
export interface BackgroundTasks {
  run(task: () => Promise<void>): void;
  /** Resolves when every task started so far (and any they started) has finished. */
  settle(): Promise<void>;
}

function createBackgroundTasks(log: ServiceLog): BackgroundTasks {
  const pending = new Set<Promise<void>>();
  return {
    run(task) {
      const running = task()
        .catch((error: unknown) => log.error({ error: loggableError(error) }, 'background task failed'))
        .finally(() => pending.delete(running));
      pending.add(running);
    },
    async settle() {
      while (pending.size > 0) await Promise.allSettled([...pending]);
    },
  };
}

export function createServices(deps: ServiceDeps) {
  const { config, db, mailer, log } = deps;
  const now = deps.now ?? (() => new Date());
  const runtime = deps.funnelRuntime ?? idleFunnelRuntime;
  const background = createBackgroundTasks(log);
  const sessions = createSessions(db, {
    botToken: config.telegramBotToken,
    now,
    cacheTtlMs: deps.sessionCacheTtlMs,
    log,
    listenerTimings: deps.sessionListenerTimings,
  });
  const botApi = (token: string) => interactiveBotApi(token, config.telegramApiRoot);
  // Billing first: the funnels, mailings and series services call its gate. The partner
  // programme's hooks and the card method's port are given to it where those are built.
  const serviceBot = config.telegramBotToken ? interactiveBotApi(config.telegramBotToken, config.telegramApiRoot) : null;
  // Before billing: every applied payment and refund is told to it (billing's PartnerHooks).
  const partner = createPartnerService({ db, config, now });
  const billing = createBillingService({
    db,
    config,
    now,
    log,
    runtime,
    wake: () => deps.deliveries?.wake(),
    paymentMethods: { stars: starsCancelPort({ db, serviceBot }) },
    graceNotice: graceNoticeSender({ db, serviceBot, mailer, log }),
    activeNotice: subscriptionActiveNoticeSender({ db, serviceBot, mailer, log }),
    background: (task) => background.run(task),
    partnerHooks: partner,
  });
  // Card payments (Stripe, or its local fake): off without STRIPE_SECRET_KEY.
  const card = createCardPayments({
    db,
    publicUrl: config.publicUrl,
    secretKey: config.secretKey,
    provider: config.stripe ? createStripeProvider(config.stripe) : null,
    billing,
    log,
    paymentFailedNotice: paymentFailedNoticeSender({ db, serviceBot, mailer, log }),
    background: (task) => background.run(task),
  });
  billing.registerPaymentMethod('card', card.paymentMethod);
  const stages = createStageService({ db, runtime });
  return {
    /** The services' clock (tests move it). */
    now,
    background,
    /** The bot runtime as the domain sees it (server/funnels/runtime-port.ts). */
    runtime,
    sessions,
    limiter: createRateLimiter(db, config.rateLimit.windowS, now),
    accounts: createAccountService({ db, config, mailer, sessions, now, background: (task) => background.run(task) }),
    billing,
    card,
    /** Telegram Stars: invoices, the service bot's pre-checkouts and payments, admin refunds. */
    stars: createStarsService({ db, api: serviceBot, billing }),
    funnels: createFunnelService({ db, config, now, botApi, runtime, gate: billing }),
    stages,
    /** Stages' waits (timed moves). */
    timers: createTimerService({ db, stages, runtime }),
    payments: createPaymentService({ db, config, stages, botApi, runtime }),
    fields: createFieldService({ db, stages, runtime }),
    keywords: createKeywordService({ db, runtime }),
    people: createPeopleService({ db, now, runtime }),
    media: createMediaService({ db }),
    dashboard: createDashboardService({ db, now }),
    stats: createStatsService({ db, now }),
    sources: createSourcesService({ db, now }),
    /** Outgoing webhooks and the incoming URL, as the owner manages them. */
    webhooks: createWebhookService({ db, publicUrl: config.publicUrl, secretKey: config.secretKey, allowLocal: config.webhooksAllowLocal }),
    /** The incoming webhook's actions (no session: its URL's secret). */
    inbound: createInboundService({ db, secretKey: config.secretKey }),
    inbox: createInboxService({ db, config, botApi }),
    mailings: createMailingService({ db, now, sendRate: config.sendRate, wake: () => deps.deliveries?.wake(), gate: billing }),
    series: createSeriesService({ db, now, gate: billing }),
    letterScheduler: new LetterScheduler(db),
    templates: createTemplateService({ db, now }),
    contacts: createContactsService({ db }),
    crm: createCrmService({ db, now }),
    /** The partner programme: links, attribution, commissions (told by billing's PartnerHooks), withdrawals. */
    partner,
    /** Only with TEST_CLOCK=1: no route can move anyone's schedule otherwise. */
    testClock: config.testClock ? createTestClock({ db }) : null,
  };
}

export type Services = ReturnType<typeof createServices>;
