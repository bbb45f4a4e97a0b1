#!/usr/bin/env node
// `npm run bench:bundle`: gzipped JavaScript the built app loads for the first paint of /sign-in/
// and /content/panel/, in a plain browser and inside Telegram, measured in Chromium against
// `npm start`; then Lighthouse's mobile performance score of /sign-in/.
// Budget: /sign-in/ ≤ 122 KB in a plain browser (the script exits non-zero above it, after
// printing every figure); goals: ≤ 140 KB inside Telegram, Lighthouse ≥ 95.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { signInitData } from '../telegram/init-data.ts';
import { activeUserToken, CHROMIUM_ARGS, startServer } from './support.mjs';

const BOT_TOKEN = '42:bench-service-bot-token';
/** The first paint of /sign-in/ in a plain browser may not fetch more gzipped JavaScript than this. */
const SIGN_IN_BUDGET_KB = 122;
const server = await startServer({ port: 3210, env: { TELEGRAM_BOT_TOKEN: BOT_TOKEN, TELEGRAM_API_ROOT: 'http://127.0.0.1:9' }, startSeconds: 180 });
const gz = new Map();
const gzSize = (urlPath) => {
  if (!gz.has(urlPath)) gz.set(urlPath, gzipSync(readFileSync(path.join('dist', urlPath)), { level: 9 }).length);
  return gz.get(urlPath);
};

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
const token = await activeUserToken(server);
const initData = signInitData({ botToken: BOT_TOKEN, user: { id: 5550001, first_name: 'Bench' } });
// The Telegram user has an account ("Start here" on an earlier open): the Mini App opens the panel.
const started = await fetch(`${server.base}/api/users/telegram/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ init_data: initData }) });
if (started.status !== 201) throw new Error(`Start here: ${started.status} ${await started.text()}`);
const tgHash = '#' + new URLSearchParams({ tgWebAppData: initData, tgWebAppVersion: '8.0', tgWebAppPlatform: 'android', tgWebAppThemeParams: '{"bg_color":"#17212b","text_color":"#f5f5f5"}' });

async function measure(label, urlPath, { cookie, telegram } = {}) {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true });
  if (cookie) await context.addCookies([{ name: 'auth_token', value: cookie, url: server.base }]);
  if (telegram) await context.addInitScript(() => { globalThis.TelegramWebviewProxy = { postEvent() {} }; });
  const page = await context.newPage();
  await page.goto(server.base + urlPath + (telegram ? tgHash : ''), { waitUntil: 'networkidle' });
  await page.waitForSelector('h1, h2');
  await page.waitForTimeout(1500); // let after-first-paint work (SDK, error reporting) load
  const { fcp, scripts } = await page.evaluate(() => ({
    fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? Infinity,
    scripts: performance.getEntriesByType('resource').concat(performance.getEntriesByType('navigation'))
      .filter((e) => e.name.endsWith('.js')).map((e) => ({ url: e.name, start: e.startTime })),
  }));
  const ownJs = scripts.filter((s) => s.url.startsWith(server.base));
  const sizeOf = (list) => list.reduce((n, s) => n + gzSize(new URL(s.url).pathname), 0);
  const first = ownJs.filter((s) => s.start < fcp);
  const line = `${label.padEnd(40)} first paint ${(sizeOf(first) / 1024).toFixed(1).padStart(6)} KB gz (${first.length} files)   all loaded ${(sizeOf(ownJs) / 1024).toFixed(1).padStart(6)} KB gz   FCP ${fcp.toFixed(0)} ms   ended at ${new URL(page.url()).pathname}`;
  console.log(line);
  // BENCH_FILES=1 lists what the first paint fetched, to see what to trim.
  if (process.env.BENCH_FILES) for (const s of first) console.log(`    ${(gzSize(new URL(s.url).pathname) / 1024).toFixed(1).padStart(6)} KB  ${new URL(s.url).pathname}`);
  await context.close();
  return sizeOf(first) / 1024;
}

console.log('Gzipped JavaScript (level 9) of the built app:');
const signInKb = await measure('/sign-in/, plain browser', '/sign-in/');
await measure('/content/panel/, plain browser', '/content/panel/', { cookie: token });
await measure('/sign-in/, inside Telegram', '/sign-in/', { telegram: true });
await measure('/content/panel/, inside Telegram', '/content/panel/', { telegram: true });
await browser.close();

if (!process.argv.includes('--no-lighthouse')) {
  const { default: lighthouse } = await import('lighthouse');
  const chromeLauncher = await import('chrome-launcher');
  const chrome = await chromeLauncher.launch({ chromePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', chromeFlags: ['--headless=new', ...CHROMIUM_ARGS] });
  for (const urlPath of ['/sign-in/']) {
    const result = await lighthouse(server.base + urlPath, { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: ['performance'] });
    const audits = result.lhr.audits;
    console.log(`Lighthouse mobile performance of ${urlPath}: ${Math.round(result.lhr.categories.performance.score * 100)} (FCP ${audits['first-contentful-paint'].displayValue}, LCP ${audits['largest-contentful-paint'].displayValue}, TBT ${audits['total-blocking-time'].displayValue}, CLS ${audits['cumulative-layout-shift'].displayValue})`);
  }
  await chrome.kill();
}
await server.stop();
if (signInKb > SIGN_IN_BUDGET_KB) {
  console.error(`Over budget: the first paint of /sign-in/ is ${signInKb.toFixed(1)} KB gz, the budget ${SIGN_IN_BUDGET_KB} KB.`);
  process.exitCode = 1;
}
