// The funnel's diagram on a phone and a desktop: a funnel with a next step, a choice between two
// branches (and one back up, and one to a deleted stage) and a keyword. The diagram shows each
// button and keyword with its label and where it leads, an arrow into each stage led to, the
// broken button marked; the page never scrolls sideways at 390 px; tapping a stage opens it. In
// both languages and the light, dark and Telegram themes; screenshots at 390 and 1280 px go to
// test-results/screens/diagram-*.png.
import { AUTH_COOKIE, LANGUAGE_COOKIE } from '../contract/constants';
import { FUNNELS_API } from '../contract/funnels';
import { fakeBot, signIn } from './support/builder';
import { BASE_URL } from './support/env';
import { DARK_THEME } from './support/telegram';
import { expect, test, type Page } from './support/test';

/** Telegram's theme as the Mini App puts it on <html> (src/telegram/theme.ts), for a browser session. */
async function applyTelegramTheme(page: Page): Promise<void> {
  await page.evaluate((theme) => {
    for (const [key, value] of Object.entries(theme)) document.documentElement.style.setProperty(`--tg-theme-${key.replace(/_/g, '-')}`, value);
  }, DARK_THEME);
}

test('the diagram shows every button and keyword with its label and target, fits a phone, and opens a stage on tap', async ({ page, request, context }) => {
  test.setTimeout(240_000);
  const key = await signIn(page, request, 'diagram');
  const headers = { Authorization: `Token ${key}` };
  const bot = await fakeBot(request, 'e2e_diagram');
  const funnel = (await (await request.post(FUNNELS_API.funnels, { headers, data: { bot_token: bot.token, name: 'Online courses' } })).json()) as { id: number };
  const ids: Record<string, number> = {};
  for (const title of ['Welcome', 'Choose a course', 'Basic course for complete beginners, self-paced', 'Pro course', 'Old offer']) {
    ids[title] = ((await (await request.post(FUNNELS_API.stages(funnel.id), { headers, data: { title } })).json()) as { id: number }).id;
  }
  const basic = ids['Basic course for complete beginners, self-paced']!;
  const pro = ids['Pro course']!;
  const message = (text: string, extra: object = {}) => ({ text, media_id: null, buttons: [], next_button: null, ...extra });
  const put = async (stageId: number, body: object) => expect((await request.put(FUNNELS_API.stageMessage(stageId), { headers, data: body })).ok()).toBe(true);
  await put(ids.Welcome!, message('Hello!', { next_button: { text: 'Show me the courses' } }));
  await put(
    ids['Choose a course']!,
    message('Choose your course', {
      choices: [
        { text: 'Basic course, at my own pace with recorded lessons', stage_id: basic },
        { text: 'Pro', stage_id: pro },
        { text: 'Start over', stage_id: ids.Welcome },
        { text: 'Last year’s offer', stage_id: ids['Old offer'] },
      ],
    }),
  );
  expect((await request.post(FUNNELS_API.keywords(funnel.id), { headers, data: { phrase: 'price', stage_id: pro } })).ok()).toBe(true);
  // "Old offer" goes: its button is now broken.
  expect((await request.delete(FUNNELS_API.stage(ids['Old offer']!), { headers })).ok()).toBe(true);

  const texts = {
    en: { title: 'Diagram', quote: ['“', '”'], nowhere: 'leads nowhere', stage: 'Stage' },
    ru: { title: 'Схема', quote: ['«', '»'], nowhere: 'никуда не ведёт', stage: 'Этап' },
  } as const;

  // From the funnel's screen, in English first: the whole check.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/content/funnels/${funnel.id}/`);
  await page.getByTestId('diagram-link').click();
  await expect(page.getByRole('heading', { name: 'Diagram', level: 1 })).toBeVisible();
  await expect(page.getByTestId('diagram-stage')).toHaveCount(4);
  const edges = page.getByTestId('diagram-edge');
  await expect(edges).toHaveText([
    '“price”→ Pro course',
    '“Show me the courses”→ Choose a course',
    '“Basic course, at my own pace with recorded lessons”→ Basic course for complete beginners, self-paced',
    '“Pro”→ Pro course',
    '“Start over”→ Welcome',
    '“Last year’s offer”→ leads nowhere',
  ]);
  await expect(edges.nth(0)).toHaveAttribute('data-kind', 'keyword');
  await expect(edges.nth(1)).toHaveAttribute('data-kind', 'next');
  await expect(edges.nth(2)).toHaveAttribute('data-kind', 'choice');
  await expect(edges.nth(5)).toHaveAttribute('data-broken', 'true');
  // A long label is clipped on a phone, and whole in its tooltip.
  await expect(edges.nth(2)).toHaveAttribute('title', 'Choice button “Basic course, at my own pace with recorded lessons” → Basic course for complete beginners, self-paced');
  // One arrow into each stage something leads to (the keyword and "Pro" share Pro's); none for the broken one.
  const arrows = page.getByTestId('diagram-arrow');
  await expect(arrows).toHaveCount(4);
  expect((await arrows.evaluateAll((groups) => groups.map((group) => Number(group.getAttribute('data-to'))))).sort((a, b) => a - b)).toEqual(
    [ids.Welcome!, ids['Choose a course']!, basic, pro].sort((a, b) => a - b),
  );
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow, 'the diagram is wider than a 390 px phone').toBeLessThanOrEqual(0);
  // Every stage's card is inside the screen, beside its lanes.
  for (const box of await page.getByTestId('diagram-stage').evaluateAll((links) => links.map((link) => link.getBoundingClientRect().toJSON() as DOMRect))) {
    expect(box.left).toBeGreaterThan(0);
    expect(box.right).toBeLessThanOrEqual(390);
  }

  await page.getByTestId('diagram-stage').filter({ hasText: 'Pro course' }).click();
  await expect(page).toHaveURL(new RegExp(`/content/funnels/${funnel.id}/stages/${pro}/$`));
  await expect(page.getByRole('heading', { name: 'Pro course', level: 1 })).toBeVisible();
  // The stage screen says what leads to it (a button of another stage, as a link, and the keyword)…
  await expect(page.getByTestId('stage-entrance')).toHaveText(['“Pro” on Choose a course']);
  await expect(page.getByTestId('stage-keyword')).toHaveText(['“price” → this stage']);
  await page.getByTestId('stage-entrance').getByRole('link', { name: 'Choose a course' }).click();
  // …and where each of a stage's buttons leads, the broken one marked; a target opens on tap.
  await expect(page.getByRole('heading', { name: 'Choose a course', level: 1 })).toBeVisible();
  await expect(page.getByTestId('choice-target')).toHaveText([
    '“Basic course, at my own pace with recorded lessons” → Basic course for complete beginners, self-paced',
    '“Pro” → Pro course',
    '“Start over” → Welcome',
  ]);
  await expect(page.getByTestId('choice-broken')).toHaveText('“Last year’s offer” leads to a deleted stage');
  await expect(page.getByTestId('stage-entrance')).toHaveText(['Next step “Show me the courses” on Welcome']);
  await page.getByTestId('choice-target').getByRole('link', { name: 'Welcome' }).click();
  await expect(page.getByRole('heading', { name: 'Welcome', level: 1 })).toBeVisible();
  await expect(page.getByTestId('next-target')).toHaveText('Next step “Show me the courses” → Choose a course');
  await expect(page.getByTestId('stage-entrance')).toHaveText(['/start: the first stage', '“Start over” on Choose a course']);

  for (const language of ['en', 'ru'] as const) {
    for (const theme of ['light', 'dark', 'telegram'] as const) {
      await page.emulateMedia({ colorScheme: theme === 'light' ? 'light' : 'dark' });
      await context.clearCookies();
      await context.addCookies([
        { name: AUTH_COOKIE, value: key, url: BASE_URL },
        { name: LANGUAGE_COOKIE, value: language, url: BASE_URL },
      ]);
      for (const width of [390, 1280]) {
        const name = `${language}-${theme}-${width}`;
        await page.setViewportSize({ width, height: 844 });
        await page.goto(`/content/funnels/${funnel.id}/diagram/`);
        if (theme === 'telegram') await applyTelegramTheme(page);
        await expect(page.getByRole('heading', { name: texts[language].title, level: 1 })).toBeVisible();
        const [open, close] = texts[language].quote;
        await expect(page.getByTestId('diagram-edge').last()).toHaveText(`${open}Last year’s offer${close}→ ${texts[language].nowhere}`);
        const wider = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        expect(wider, `${name} scrolls sideways`).toBeLessThanOrEqual(0);
        await page.screenshot({ path: `test-results/screens/diagram-${name}.png`, fullPage: true });
      }
    }
  }
});
