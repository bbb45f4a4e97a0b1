// The one segmented control (src/ui/SegmentedTabs.tsx) on the four screens that have it: a funnel's
// periods, a person's history scope (this bot / all bots), the partner's periods and the admin's
// withdrawals filter. On a 360 px phone, in both languages, every tab's label stays whole on one
// line (the track scrolls rather than wrap or cut a word) and the page is no wider than the phone.
// Screenshots at 390x844 in the light and dark themes and in Telegram's dark theme go to
// test-results/screens/tabs-*.png.
import { AUTH_COOKIE, LANGUAGE_COOKIE } from '../contract/constants';
import { FUNNELS_API, type PeoplePage } from '../contract/funnels';
import { ROUTES } from '../contract/routes';
import { adminToken } from './support/api';
import { FAKE, fakeBot, signIn } from './support/builder';
import { BASE_URL, E2E_ADMIN_EMAIL } from './support/env';
import { DARK_THEME } from './support/telegram';
import { expect, test, type APIRequestContext, type Page } from './support/test';

type Headers = Record<string, string>;

/** A running funnel with one stage; `from` presses Start in it. */
async function runningFunnel(request: APIRequestContext, headers: Headers, name: string, from: { id: number; first_name: string }): Promise<number> {
  const bot = await fakeBot(request, 'e2e_tabs');
  const funnel = (await (await request.post(FUNNELS_API.funnels, { headers, data: { bot_token: bot.token, name } })).json()) as { id: number };
  const stage = (await (await request.post(FUNNELS_API.stages(funnel.id), { headers, data: { title: 'Welcome' } })).json()) as { id: number };
  await request.put(FUNNELS_API.stageMessage(stage.id), { headers, data: { text: 'Welcome!', media_id: null, buttons: [], next_button: null } });
  expect((await request.post(FUNNELS_API.run(funnel.id), { headers })).ok()).toBe(true);
  await request.post(`${FAKE}/control/bots/${bot.token}/messages`, { data: { from, text: '/start' } });
  await expect.poll(async () => ((await (await request.get(FUNNELS_API.people(funnel.id), { headers })).json()) as PeoplePage).count, { timeout: 30_000 }).toBe(1);
  return funnel.id;
}

/** Telegram's theme as the Mini App puts it on <html> (src/telegram/theme.ts), for a browser session. */
async function applyTelegramTheme(page: Page): Promise<void> {
  await page.evaluate((theme) => {
    for (const [key, value] of Object.entries(theme)) document.documentElement.style.setProperty(`--tg-theme-${key.replace(/_/g, '-')}`, value);
  }, DARK_THEME);
}

/** Each tab whose label wraps onto a second line or is cut off. */
async function brokenTabs(page: Page): Promise<string[]> {
  return page.getByRole('tab').evaluateAll((tabs) =>
    tabs.flatMap((tab) => {
      const range = document.createRange();
      range.selectNodeContents(tab);
      const lines = new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size;
      const problems: string[] = [];
      if (lines > 1) problems.push(`"${tab.textContent}" wraps onto ${lines} lines`);
      if (tab.scrollWidth > tab.clientWidth + 1) problems.push(`"${tab.textContent}" is cut (${tab.scrollWidth} > ${tab.clientWidth})`);
      return problems;
    }),
  );
}

test('the segmented tabs fit a phone on their four screens, in both languages, light, dark and Telegram themes', async ({ page, request, context }) => {
  test.setTimeout(240_000);
  const key = await signIn(page, request, 'tabs');
  const headers = { Authorization: `Token ${key}` };
  const ann = { id: 7_000_000 + Math.floor(Math.random() * 1_000_000), first_name: 'Ann' };
  const coffee = await runningFunnel(request, headers, 'Coffee', ann);
  await runningFunnel(request, headers, 'Books', ann);
  const annInCoffee = ((await (await request.get(FUNNELS_API.people(coffee), { headers })).json()) as PeoplePage).results[0]?.id;
  const admin = await adminToken(request, E2E_ADMIN_EMAIL);

  const screens = [
    { name: 'funnel', path: `/content/funnels/${coffee}/`, token: key },
    { name: 'person', path: `/content/people/${annInCoffee}/`, token: key },
    { name: 'partner-statistics', path: ROUTES.partnerStatistics, token: key },
    { name: 'admin-withdrawals', path: '/settings/withdrawals/', token: admin },
  ];
  for (const language of ['en', 'ru'] as const) {
    for (const theme of ['light', 'dark', 'telegram'] as const) {
      await page.emulateMedia({ colorScheme: theme === 'light' ? 'light' : 'dark' });
      for (const screen of screens) {
        await context.clearCookies();
        await context.addCookies([
          { name: AUTH_COOKIE, value: screen.token, url: BASE_URL },
          { name: LANGUAGE_COOKIE, value: language, url: BASE_URL },
        ]);
        const name = `${screen.name}-${language}-${theme}`;
        await page.setViewportSize({ width: 360, height: 740 });
        await page.goto(screen.path);
        if (theme === 'telegram') await applyTelegramTheme(page);
        await expect(page.getByRole('tablist')).toBeVisible();
        await expect(page.getByRole('tab', { selected: true })).toHaveCount(1);
        await expect(page.getByRole('status', { name: /Loading|Загрузка/ })).toHaveCount(0);
        expect(await brokenTabs(page), name).toEqual([]);
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        expect(overflow, `${name} is wider than a 360 px phone`).toBeLessThanOrEqual(0);
        await page.setViewportSize({ width: 390, height: 844 });
        await page.screenshot({ path: `test-results/screens/tabs-${name}.png` });
      }
    }
  }
});
