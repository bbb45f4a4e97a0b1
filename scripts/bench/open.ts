#!/usr/bin/env -S npx tsx
// `npm run bench:open`: how long the built app takes to open, on a mid-range phone profile, and
// how long its chain of requests is. Against `npm start` (the built dist/, SKIP_BUILD=1: run
// `npx vite build` first), its own data folder and port, and a local fake Bot API for the service
// bot (Mini App init data is signed with its token; the funnel's bot is one of its bots).
//
// Profile: Chromium (/usr/bin/chromium) at 390x844, CPU slowed down 4× (Emulation.setCPUThrottlingRate),
// network 9 Mbit/s down, 1.5 Mbit/s up, 60 ms latency (Network.emulateNetworkConditions), a new
// browser context for each cold open (empty cache, no cookies, empty sessionStorage).
//
// Scenarios (5 opens each; the median and every value are printed):
//   a) the Mini App panel: the menu button's URL (/) with a Telegram launch in the hash (signed
//      tgWebAppData, platform, version, theme) and Telegram's native bridge, cold; the user is a
//      Telegram user with one funnel, in a new browser context each time (a first visit, as far as
//      the browser knows). Done when a funnel of the panel's list is on the page.
//      Warm: the same, opened again in the context of a cold open (a returning user: code cached).
//   b) the browser's /sign-in/, cold, no session. Done when the form's e-mail field is on the page.
//   c) a funnel's screen by URL (/content/funnels/<id>/) with a session cookie, cold. Done when its
//      stage list is on the page.
// Time: from the navigation's start (performance.timeOrigin) to the moment the landing screen's
// data is on the page (a MutationObserver installed before the page's own scripts stamps
// performance.now() when the selector first matches).
//
// Chain depth: the number of network round trips one after another, counted from the HTML
// (level 0). Each request's parent is the request whose response ended last before it was sent
// (the one it most plausibly waited for: a script that had to arrive and run before it could
// ask); its level is its parent's + 1, or the same as its parent's when it was answered from the
// browser's cache (no round trip). Printed: the level of the first /api/ request ("first data"),
// of the landing screen's own data request ("landing data": /api/funnels/ for the panel, the
// stages for a funnel), the deepest level of what had ended before the screen was shown
// ("shown"), and that chain for the first open. From what Chromium reports over CDP (Network
// domain): sent and finished timestamps, and whether the answer came from the cache.
import { loadavg } from 'node:os';
import { chromium, type Browser, type BrowserContext, type CDPSession, type Page } from 'playwright-core';
import { startFakeBotApi } from '../telegram/fake-bot-api';
import { signInitData } from '../telegram/init-data';
import { activeUserToken, CHROMIUM_ARGS, startServer } from './support.mjs';

const OPENS = Number(process.env.OPENS ?? 5);
/** BENCH_OPEN_TIMELINE=1: each open's requests, when they were sent and ended, and their size on the wire. */
const TIMELINE = process.env.BENCH_OPEN_TIMELINE === '1';
const PORT = Number(process.env.BENCH_OPEN_PORT ?? 3230);
const SERVICE_BOT_TOKEN = '4242:bench-open-service-bot-token';
const TELEGRAM_USER = { id: 5550042, first_name: 'Bench', language_code: 'en' };
const TELEGRAM_THEME = { bg_color: '#17212b', text_color: '#f5f5f5', hint_color: '#708499', link_color: '#6ab3f3', button_color: '#5288c1', button_text_color: '#ffffff', secondary_bg_color: '#232e3c' };
const PROFILE = { cpuSlowdown: 4, latencyMs: 60, downBytesPerS: 9e6 / 8, upBytesPerS: 1.5e6 / 8 };
const OPEN_TIMEOUT_MS = 60_000;

interface RequestRecord {
  id: string;
  url: string;
  sentAt: number;
  endedAt: number | null;
  cached: boolean;
  bytes: number;
}

interface Open {
  ms: number;
  firstDataLevel: number | null;
  landingDataLevel: number | null;
  shownLevel: number;
  chain: string[];
}

const fake = await startFakeBotApi();
fake.addBot({ username: 'bench_open_service_bot', token: SERVICE_BOT_TOKEN });
const server = await startServer({
  port: PORT,
  env: { TELEGRAM_BOT_TOKEN: SERVICE_BOT_TOKEN, TELEGRAM_API_ROOT: fake.url, PUBLIC_URL: `http://127.0.0.1:${PORT}` },
  startSeconds: 180,
});

async function api<T>(method: string, urlPath: string, authorization: string, body?: unknown): Promise<T> {
  const response = await fetch(server.base + urlPath, {
    method,
    headers: { authorization, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${urlPath}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

/** A funnel on a new bot of the fake, with three stages, owned by whoever `authorization` is. */
async function funnelWithStages(authorization: string, username: string): Promise<number> {
  const bot = fake.addBot({ username, first_name: 'Bench Shop' });
  const funnel = await api<{ id: number }>('POST', '/api/funnels/', authorization, { bot_token: bot.token });
  for (const title of ['Welcome', 'Offer', 'Paid']) await api('POST', `/api/funnels/${funnel.id}/stages/`, authorization, { title });
  return funnel.id;
}

// The Telegram user ("Start here" on an earlier open) and an e-mail user, a funnel each.
const initData = signInitData({ botToken: SERVICE_BOT_TOKEN, user: TELEGRAM_USER });
const started = await fetch(`${server.base}/api/users/telegram/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ init_data: initData }) });
// Before the first-open question (issue 22), the first request with init data made the account.
if (started.status === 404) await api('GET', '/api/users/me/', `TG ${initData}`);
else if (started.status !== 201) throw new Error(`Start here: ${started.status} ${await started.text()}`);
await funnelWithStages(`TG ${initData}`, 'bench_open_tg_bot');
const token = await activeUserToken(server);
const funnelId = await funnelWithStages(`Token ${token}`, 'bench_open_mail_bot');
const telegramHash = '#' + new URLSearchParams({ tgWebAppData: initData, tgWebAppVersion: '8.0', tgWebAppPlatform: 'android', tgWebAppThemeParams: JSON.stringify(TELEGRAM_THEME) }).toString();

const browser: Browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });

/** Chromium's requests of one page, as CDP reports them. */
interface Recorder {
  /** The page's CDP session (it also waits for the landing: see openOnce). */
  cdp: CDPSession;
  requests: Map<string, RequestRecord>;
  /** Wall-clock seconds minus CDP's monotonic seconds (to place the page's own times among the requests). */
  wallClockOffset: number;
  reset(): void;
}

function recordRequests(cdp: CDPSession): Recorder {
  const requests = new Map<string, RequestRecord>();
  const recorder: Recorder = { cdp, requests, wallClockOffset: 0, reset: () => requests.clear() };
  cdp.on('Network.requestWillBeSent', (event) => {
    if (event.request.url.startsWith('data:')) return;
    if (event.type === 'Document') recorder.wallClockOffset = event.wallTime - event.timestamp;
    requests.set(event.requestId, { id: event.requestId, url: event.request.url, sentAt: event.timestamp, endedAt: null, cached: false, bytes: 0 });
  });
  const ended = (event: { requestId: string; timestamp: number; encodedDataLength?: number }) => {
    const request = requests.get(event.requestId);
    if (request) {
      request.endedAt = event.timestamp;
      request.bytes = event.encodedDataLength ?? 0;
    }
  };
  cdp.on('Network.loadingFinished', ended);
  cdp.on('Network.requestServedFromCache', (event) => {
    const request = requests.get(event.requestId);
    if (request) request.cached = true;
  });
  cdp.on('Network.responseReceived', (event) => {
    const request = requests.get(event.requestId);
    if (request && (event.response.fromDiskCache || event.response.fromPrefetchCache)) request.cached = true;
  });
  cdp.on('Network.loadingFailed', ended);
  return recorder;
}

/** Levels as defined in the header: the HTML is 0, anything else its parent's + 1. */
function levels(requests: RequestRecord[]): Map<RequestRecord, { level: number; parent: RequestRecord | null }> {
  const sorted = [...requests].sort((a, b) => a.sentAt - b.sentAt);
  const result = new Map<RequestRecord, { level: number; parent: RequestRecord | null }>();
  for (const request of sorted) {
    let parent: RequestRecord | null = null;
    for (const earlier of result.keys()) {
      if (earlier.endedAt !== null && earlier.endedAt <= request.sentAt && (!parent || earlier.endedAt > (parent.endedAt ?? 0))) parent = earlier;
    }
    result.set(request, { level: parent ? (result.get(parent)?.level ?? 0) + (request.cached ? 0 : 1) : 0, parent });
  }
  return result;
}

const shortName = (url: string) => {
  const { pathname } = new URL(url);
  return pathname.startsWith('/assets/') ? pathname.slice('/assets/'.length).replace(/-[\w-]{8}\.js$/, '.js') : pathname;
};

async function newPhoneContext(): Promise<BrowserContext> {
  return browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });
}

/**
 * Stamps `__landedAt` (performance.now()) when `selector` first matches, and resolves the promise
 * `__landed` with it: installed before any page script runs.
 */
function watchFor(selector: string): string {
  return `(() => {
    let resolveLanded;
    window.__landed = new Promise((resolve) => { resolveLanded = resolve; });
    const check = () => {
      if (window.__landedAt === undefined && document.querySelector(${JSON.stringify(selector)})) {
        window.__landedAt = performance.now();
        resolveLanded(window.__landedAt);
        observer.disconnect();
      }
    };
    const observer = new MutationObserver(check);
    observer.observe(document, { childList: true, subtree: true, attributes: true });
  })();`;
}

async function openOnce(page: Page, recorder: Recorder, url: string, landingData: RegExp): Promise<Open> {
  recorder.reset();
  await page.goto(url, { waitUntil: 'commit' });
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(String(error)));
  // Awaited over CDP, not with page.waitForFunction: that one first runs Playwright's injected
  // script in the page (~70 ms of main thread at 4× slowdown, in the middle of the load), which
  // the measured open would then include and a user's never does.
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`not shown within ${OPEN_TIMEOUT_MS} ms`)), OPEN_TIMEOUT_MS);
  });
  const landed = recorder.cdp.send('Runtime.evaluate', { expression: 'window.__landed', awaitPromise: true, returnByValue: true });
  const ms = await Promise.race([landed, timeout])
    .then(({ result, exceptionDetails }) => {
      if (exceptionDetails || typeof result.value !== 'number') throw new Error(exceptionDetails?.text ?? `landed: ${JSON.stringify(result)}`);
      return result.value;
    })
    .catch((error: unknown) => {
      throw new Error(`${url}: the screen was not shown (${String(error)}); at ${page.url()}, console: ${problems.join(' | ')}`);
    })
    .finally(() => clearTimeout(timer));
  // CDP timestamps are seconds of a monotonic clock; the page's navigation start on the same clock.
  const shownAt = ((await page.evaluate(() => performance.timeOrigin)) + ms) / 1000 - recorder.wallClockOffset;
  // Let the requests in flight end, so that their levels are known.
  await page.waitForTimeout(300);
  const all = [...recorder.requests.values()];
  const levelOf = levels(all);
  const ordered = [...levelOf.keys()];
  const firstData = ordered.find((request) => new URL(request.url).pathname.startsWith('/api/'));
  const landing = ordered.find((request) => landingData.test(new URL(request.url).pathname));
  const shownLevel = Math.max(0, ...ordered.filter((request) => request.endedAt !== null && request.endedAt <= shownAt).map((request) => levelOf.get(request)?.level ?? 0));
  if (TIMELINE) {
    const start = Math.min(...all.map((request) => request.sentAt));
    const at = (seconds: number) => ((seconds - start) * 1000).toFixed(0).padStart(5);
    console.log(`    open of ${ms.toFixed(0)} ms, shown at ${at(shownAt)} ms after the HTML was asked for:`);
    for (const request of [...all].sort((a, b) => a.sentAt - b.sentAt)) {
      console.log(`    ${at(request.sentAt)} → ${request.endedAt === null ? '    -' : at(request.endedAt)} ms  ${request.cached ? 'cache' : `${(request.bytes / 1024).toFixed(1).padStart(5)} KB`}  ${shortName(request.url)}`);
    }
  }
  const chain: string[] = [];
  for (let at: RequestRecord | null = landing ?? null; at; at = levelOf.get(at)?.parent ?? null) chain.unshift(`${levelOf.get(at)?.level} ${shortName(at.url)}`);
  return {
    ms,
    firstDataLevel: firstData ? (levelOf.get(firstData)?.level ?? null) : null,
    landingDataLevel: landing ? (levelOf.get(landing)?.level ?? null) : null,
    shownLevel,
    chain,
  };
}

async function preparePage(context: BrowserContext, selector: string, telegram: boolean): Promise<{ page: Page; recorder: Recorder }> {
  if (telegram) await context.addInitScript(() => {
    (globalThis as unknown as { TelegramWebviewProxy: unknown }).TelegramWebviewProxy = { postEvent() {} };
  });
  await context.addInitScript(watchFor(selector));
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: PROFILE.cpuSlowdown });
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: PROFILE.latencyMs, downloadThroughput: PROFILE.downBytesPerS, uploadThroughput: PROFILE.upBytesPerS });
  return { page, recorder: recordRequests(cdp) };
}

interface Scenario {
  label: string;
  url: string;
  selector: string;
  landingData: RegExp;
  telegram?: boolean;
  cookie?: string;
  warm?: boolean;
}

async function run(scenario: Scenario): Promise<void> {
  const opens: Open[] = [];
  for (let i = 0; i < OPENS; i++) {
    const context = await newPhoneContext();
    if (scenario.cookie) await context.addCookies([{ name: 'auth_token', value: scenario.cookie, url: server.base }]);
    const { page, recorder } = await preparePage(context, scenario.selector, scenario.telegram ?? false);
    if (scenario.warm) {
      // The first visit fills the cache; the open measured is the next one, as a returning user's.
      await openOnce(page, recorder, server.base + scenario.url, scenario.landingData);
      await page.goto('about:blank');
    }
    opens.push(await openOnce(page, recorder, server.base + scenario.url, scenario.landingData));
    await context.close();
  }
  const sorted = opens.map((open) => open.ms).sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)];
  const levelsText = (pick: (open: Open) => number | null) => opens.map((open) => pick(open) ?? '-').join(' ');
  // The machine's load while it ran: the same build opens several hundred ms slower on a busy host.
  console.log(`${scenario.label} (load ${loadavg()[0].toFixed(2)})`);
  console.log(`  median ${median.toFixed(0)} ms; opens ${opens.map((open) => open.ms.toFixed(0)).join(', ')} ms`);
  console.log(`  chain depth (HTML = 0): first data request at level ${levelsText((open) => open.firstDataLevel)}; landing data at ${levelsText((open) => open.landingDataLevel)}; shown after ${levelsText((open) => open.shownLevel)}`);
  if (opens[0].chain.length > 1) console.log(`  chain of the first open: ${opens[0].chain.join(' → ')}`);
}

const scenarios: Scenario[] = [
  { label: 'a) Mini App panel (/ with a Telegram launch), cold', url: `/${telegramHash}`, selector: '[data-testid="panel-funnel"]', landingData: /^\/api\/funnels\/$/, telegram: true },
  { label: 'a) Mini App panel (/ with a Telegram launch), warm (returning)', url: `/${telegramHash}`, selector: '[data-testid="panel-funnel"]', landingData: /^\/api\/funnels\/$/, telegram: true, warm: true },
  { label: 'b) /sign-in/ in a browser, cold', url: '/sign-in/', selector: 'form input[type="email"]', landingData: /^\/api\// },
  { label: `c) a funnel's screen by URL (/content/funnels/${funnelId}/) with a session, cold`, url: `/content/funnels/${funnelId}/`, selector: '[data-testid="stage-list"]', landingData: new RegExp(`^/api/funnels/${funnelId}/stages/$`), cookie: token },
];

console.log(`bench:open: CPU ${PROFILE.cpuSlowdown}× slower, ${PROFILE.downBytesPerS * 8 / 1e6} Mbit/s down, ${PROFILE.upBytesPerS * 8 / 1e6} up, ${PROFILE.latencyMs} ms latency; ${OPENS} opens each`);
try {
  for (const scenario of process.argv[2] ? scenarios.filter((s) => s.label.startsWith(process.argv[2])) : scenarios) await run(scenario);
} finally {
  await browser.close();
  await server.stop();
  await fake.close();
}
