// How the Mini App opens: the structure of its requests, not their times (bench:open measures
// those). The panel's data is asked for together with the current user, not once the guard has it,
// and the panel's code comes from the HTML's preloads, not import after import. Outside Telegram
// the Mini App's address is a plain sign-in, with no Telegram SDK error in the console.
import { originalPositionFor, TraceMap } from '@jridgewell/trace-mapping';
import { expect, test, type Page } from './support/test';
import { API } from '../contract/auth';
import { FUNNELS_API } from '../contract/funnels';
import { openAsMiniApp, signedInitData, telegramUser } from './support/telegram';

interface Seen {
  event: 'sent' | 'ended';
  path: string;
}

/** Every request of the page, in the order the browser sent them and their answers ended. */
function recordRequests(page: Page): Seen[] {
  const seen: Seen[] = [];
  page.on('request', (request) => seen.push({ event: 'sent', path: new URL(request.url()).pathname }));
  page.on('requestfinished', (request) => seen.push({ event: 'ended', path: new URL(request.url()).pathname }));
  return seen;
}

const at = (seen: Seen[], event: Seen['event'], path: string | RegExp) =>
  seen.findIndex((entry) => entry.event === event && (typeof path === 'string' ? entry.path === path : path.test(entry.path)));

test('the Mini App asks for the panel’s funnels together with the user, and has the panel’s code preloaded', async ({ page }) => {
  const seen = recordRequests(page);
  await openAsMiniApp(page, '/', signedInitData(telegramUser()));
  await expect(page).toHaveURL(/\/content\/panel\//);
  await expect(page.getByText('No funnels yet: connect a bot to start.')).toBeVisible();

  // The funnels are asked for before the answer about the user has arrived: not one after the other.
  const funnelsSent = at(seen, 'sent', FUNNELS_API.funnels);
  const meEnded = at(seen, 'ended', API.me);
  expect(funnelsSent).toBeGreaterThanOrEqual(0);
  expect(meEnded).toBeGreaterThanOrEqual(0);
  expect(funnelsSent).toBeLessThan(meEnded);
  // And those answers are what the guard and the panel used: neither is asked for a second time.
  const sentTimes = (path: string) => seen.filter((entry) => entry.event === 'sent' && entry.path === path).length;
  expect(sentTimes(API.me)).toBe(1);
  expect(sentTimes(FUNNELS_API.funnels)).toBe(1);

  // The data, the panel's code with every file it imports, and the strings were all asked for by
  // the HTML (index.html's boot script), before the app's own code had even arrived: not
  // discovered once the entry ran, nor once the guard had let the panel load.
  const entryEnded = at(seen, 'ended', /^\/assets\/index-[\w-]+\.js$/);
  expect(entryEnded).toBeGreaterThanOrEqual(0);
  expect(at(seen, 'sent', API.me), 'the user is asked for before the entry has arrived').toBeLessThan(entryEnded);
  expect(funnelsSent, 'the funnels are asked for before the entry has arrived').toBeLessThan(entryEnded);
  const panelChunk = seen.find((entry) => /^\/assets\/panel-[\w-]+\.js$/.test(entry.path))?.path;
  expect(panelChunk).toBeDefined();
  const panelSource = await (await page.request.get(panelChunk ?? '')).text();
  const imports = [...panelSource.matchAll(/from"\.\/([\w-]+\.js)"/g)].map((match) => `/assets/${match[1]}`);
  const strings = seen.filter((entry) => entry.event === 'sent' && /^\/assets\/en-(common|panel)-[\w-]+\.js$/.test(entry.path)).map((entry) => entry.path);
  expect(strings).toHaveLength(2);
  for (const file of [panelChunk ?? '', ...imports, ...strings]) {
    const sent = at(seen, 'sent', file);
    expect(sent, `${file} is asked for before the entry has arrived`).toBeGreaterThanOrEqual(0);
    expect(sent, `${file} is asked for before the entry has arrived`).toBeLessThan(entryEnded);
  }
});

test("the Mini App's address opened in a plain browser signs in as a browser, without the Telegram SDK or an error in the console", async ({ page }) => {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(`${error.name}: ${error.message}`));
  const seen = recordRequests(page);
  // The address as Telegram gives it, launch parameters and all, but no init data and no Telegram around.
  const launch = new URLSearchParams({ tgWebAppVersion: '8.0', tgWebAppPlatform: 'weba', tgWebAppThemeParams: '{"bg_color":"#17212b"}' });
  await page.goto(`/#${launch.toString()}`);
  await expect(page).toHaveURL(/\/sign-in\//);
  await expect(page.getByLabel('Email')).toBeVisible();
  // The work after the first paint has run (main.tsx asks for the Telegram shell there, before the
  // preloads of the next screens): no Telegram shell, hence no SDK, was asked for.
  await expect.poll(() => at(seen, 'ended', /^\/assets\/preloadScreens-[\w-]+\.js$/)).toBeGreaterThanOrEqual(0);
  expect(at(seen, 'sent', /^\/assets\/(shell|sdk)-[\w-]+\.js$/)).toBe(-1);
  expect(errors).toEqual([]);
});

test('the entry is marked for eager compilation, and its source map still points at the source', async ({ page }) => {
  const html = await (await page.request.get('/')).text();
  const entry = /<script type="module" crossorigin src="(\/assets\/index-[\w-]+\.js)">/.exec(html)?.[1];
  expect(entry, 'the HTML loads the entry').toBeDefined();
  const code = await (await page.request.get(entry ?? '')).text();
  // V8's explicit compile hint (Chrome 136+): on the file's first line, or it is not read.
  expect(code.split('\n')[0]).toBe('//# allFunctionsCalledOnLoad');
  // An error in the entry (Sentry's report, the console) still names the line of the source it came from.
  const map = new TraceMap(await (await page.request.get(`${entry}.map`)).text());
  const needle = '#app is missing from index.html';
  const at = code.indexOf(needle);
  expect(at).toBeGreaterThan(0);
  const lines = code.slice(0, at).split('\n');
  const original = originalPositionFor(map, { line: lines.length, column: (lines.at(-1) ?? '').length });
  expect(original.source).toMatch(/src\/main\.tsx$/);
  const sourceLine = map.sourcesContent?.[map.sources.indexOf(original.source)]?.split('\n')[(original.line ?? 0) - 1];
  expect(sourceLine).toContain(needle);
});
