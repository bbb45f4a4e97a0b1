// The screens of branches (choice buttons, keywords, where people went next) on a phone: the
// message editor with two choice buttons and a broken one, the stage screen with its buttons (one
// broken) and the keywords that lead to it, the keywords screen with its add form, the funnel's
// results with "where people went next", and the delete-stage confirmation naming what breaks.
// In both languages and the light, dark and Telegram themes, nothing is wider than a 360 px phone
// and no text runs past its screen's edge; the texts are in the chosen language and the broken
// button is marked. Screenshots at 390x844 go to test-results/screens/branch-*.png.
import { AUTH_COOKIE, LANGUAGE_COOKIE } from '../contract/constants';
import { CHOICE_CALLBACK_PREFIX, FUNNELS_API } from '../contract/funnels';
import { botMessages, FAKE, fakeBot, signIn, type FakeBot, type FakeMessage } from './support/builder';
import { BASE_URL } from './support/env';
import { DARK_THEME } from './support/telegram';
import { expect, test, type APIRequestContext, type Page } from './support/test';

type Headers = Record<string, string>;
type Subscriber = { id: number; first_name: string };

/** Telegram's theme as the Mini App puts it on <html> (src/telegram/theme.ts), for a browser session. */
async function applyTelegramTheme(page: Page): Promise<void> {
  await page.evaluate((theme) => {
    for (const [key, value] of Object.entries(theme)) document.documentElement.style.setProperty(`--tg-theme-${key.replace(/_/g, '-')}`, value);
  }, DARK_THEME);
}

/** Each visible text-bearing element that runs past the viewport's edges or is cut inside its own box. */
async function cutTexts(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const problems: string[] = [];
    for (const element of document.querySelectorAll<HTMLElement>('h1, h2, p, li, label, button, a, .row-title, .row-description, option')) {
      if (element.tagName === 'OPTION') continue;
      const rect = element.getBoundingClientRect();
      if (rect.width === 0 || rect.height === 0 || !element.textContent?.trim()) continue;
      if (rect.left < -1 || rect.right > width + 1) problems.push(`"${element.textContent.trim().slice(0, 40)}" runs past the edge (${Math.round(rect.left)}..${Math.round(rect.right)})`);
      const style = getComputedStyle(element);
      if (style.overflowX !== 'visible' && style.overflowX !== 'auto' && style.overflowX !== 'scroll' && element.scrollWidth > element.clientWidth + 1)
        problems.push(`"${element.textContent.trim().slice(0, 40)}" is cut (${element.scrollWidth} > ${element.clientWidth})`);
    }
    return problems;
  });
}

/** A subscriber presses Start, then the choice button `button`, and gets `expected`. */
async function choose(request: APIRequestContext, bot: FakeBot, stageId: number, subscriber: Subscriber, button: string, expected: string): Promise<void> {
  await request.post(`${FAKE}/control/bots/${bot.token}/messages`, { data: { from: subscriber, text: '/start' } });
  let first: FakeMessage | undefined;
  await expect.poll(async () => (first = (await botMessages(request, bot, subscriber.id))[0])?.text).toBe('Choose your course');
  const pressed = first!.reply_markup!.inline_keyboard.flat().find((b) => b.text === button)!;
  expect(pressed.callback_data?.startsWith(`${CHOICE_CALLBACK_PREFIX}${stageId}:`)).toBe(true);
  await request.post(`${FAKE}/control/bots/${bot.token}/callback-queries`, { data: { from: subscriber, message_id: first!.message_id, callback_data: pressed.callback_data } });
  await expect.poll(async () => (await botMessages(request, bot, subscriber.id)).map((m) => m.text)).toEqual(['Choose your course', expected]);
}

test('the branch screens fit a phone in both languages, light, dark and Telegram themes, and mark the broken button', async ({ page, request, context }) => {
  test.setTimeout(300_000);
  const key = await signIn(page, request, 'bscreens');
  const headers: Headers = { Authorization: `Token ${key}` };
  const bot = await fakeBot(request, 'e2e_bscreens');
  const funnel = (await (await request.post(FUNNELS_API.funnels, { headers, data: { bot_token: bot.token, name: 'Online courses' } })).json()) as { id: number };
  const ids: Record<string, number> = {};
  for (const title of ['Choose a course', 'Basic course for beginners', 'Professional course with mentoring', 'Old offer']) {
    const stage = (await (await request.post(FUNNELS_API.stages(funnel.id), { headers, data: { title } })).json()) as { id: number };
    ids[title] = stage.id;
  }
  const choose1 = ids['Choose a course']!;
  const basic = ids['Basic course for beginners']!;
  const pro = ids['Professional course with mentoring']!;
  const old = ids['Old offer']!;
  for (const [id, text] of [[basic, 'Basic!'], [pro, 'Pro!'], [old, 'Old!']] as const) {
    await request.put(FUNNELS_API.stageMessage(id), { headers, data: { text, media_id: null, buttons: [], next_button: null } });
  }
  const saved = await request.put(FUNNELS_API.stageMessage(choose1), {
    headers,
    data: {
      text: 'Choose your course',
      media_id: null,
      buttons: [],
      next_button: null,
      choices: [
        { text: 'Basic course, self-paced', stage_id: basic },
        { text: 'Professional course with a mentor', stage_id: pro },
        { text: 'Last year’s special offer', stage_id: old },
      ],
    },
  });
  expect(saved.ok()).toBe(true);
  for (const [phrase, stageId] of [['price list', pro], ['mentor', pro]] as const) {
    expect((await request.post(FUNNELS_API.keywords(funnel.id), { headers, data: { phrase, stage_id: stageId } })).ok()).toBe(true);
  }

  // Two subscribers take different branches, for "where people went next".
  expect((await request.post(FUNNELS_API.run(funnel.id), { headers })).ok()).toBe(true);
  const base = 8_900_000 + Math.floor(Math.random() * 90_000);
  await choose(request, bot, choose1, { id: base + 1, first_name: 'Ann' }, 'Basic course, self-paced', 'Basic!');
  await choose(request, bot, choose1, { id: base + 2, first_name: 'Bob' }, 'Professional course with a mentor', 'Pro!');
  expect((await request.post(FUNNELS_API.stop(funnel.id), { headers })).ok()).toBe(true);
  // "Old offer" goes: its button is now broken.
  expect((await request.delete(FUNNELS_API.stage(old), { headers })).ok()).toBe(true);

  const texts = {
    en: { broken: 'Leads to a deleted stage', choiceBroken: '“Last year’s special offer” leads to a deleted stage', keyword: '“price list” → this stage', went: '→ Basic course for beginners: 1 by the button “Basic course, self-paced”', breaks: '“Professional course with a mentor” on “Choose a course”', keywordsTitle: 'Keywords', addTitle: 'New keyword' },
    ru: { broken: 'Ведёт на удалённый этап', choiceBroken: '«Last year’s special offer» ведёт на удалённый этап', keyword: '«price list» → этот этап', went: '→ Basic course for beginners: 1', breaks: 'Choose a course', keywordsTitle: 'Ключевые слова', addTitle: 'Новое ключевое слово' },
  } as const;

  const screens = [
    {
      name: 'editor',
      path: `/content/funnels/${funnel.id}/stages/${choose1}/message/`,
      check: async (language: 'en' | 'ru') => {
        await expect(page.getByTestId('choice-3-broken')).toHaveText(texts[language].broken);
        await expect(page.getByTestId('message-preview')).toContainText('Professional course with a mentor');
        // Each choice button's text and stage get a line of their own, wide enough to read whole.
        for (const label of ['Text of choice button 2', 'Stage of choice button 2', 'Stage of choice button 3'].map((label) => (language === 'en' ? label : label.replace('Text of choice button', 'Текст кнопки выбора').replace('Stage of choice button', 'Этап кнопки выбора')))) {
          const box = await page.getByLabel(label).boundingBox();
          expect(box?.width ?? 0, `${label} is ${box?.width} px wide`).toBeGreaterThan(250);
        }
      },
    },
    {
      name: 'stage',
      path: `/content/funnels/${funnel.id}/stages/${choose1}/`,
      check: async (language: 'en' | 'ru') => {
        await expect(page.getByTestId('choice-broken')).toHaveText(texts[language].choiceBroken);
        await expect(page.getByTestId('choice-targets').locator('li')).toHaveCount(3);
      },
    },
    {
      name: 'stage-keywords',
      path: `/content/funnels/${funnel.id}/stages/${pro}/`,
      check: async (language: 'en' | 'ru') => {
        await expect(page.getByTestId('stage-keyword')).toHaveText([texts[language].keyword, texts[language].keyword.replace('price list', 'mentor')]);
        await expect(page.getByTestId('stage-keywords-link')).toBeVisible();
      },
    },
    {
      name: 'keywords',
      path: `/content/funnels/${funnel.id}/keywords/`,
      check: async (language: 'en' | 'ru') => {
        await expect(page.getByRole('heading', { name: texts[language].keywordsTitle, exact: true }).first()).toBeVisible();
        await expect(page.getByTestId('keyword-row')).toHaveCount(2);
        await expect(page.getByRole('heading', { name: texts[language].addTitle })).toBeVisible();
        await expect(page.getByTestId('keyword-stage')).toBeVisible();
      },
    },
    {
      name: 'results',
      path: `/content/funnels/${funnel.id}/`,
      check: async (language: 'en' | 'ru') => {
        await expect(page.getByTestId('stage-move').first()).toContainText(texts[language].went);
        await expect(page.getByTestId('stage-move')).toHaveCount(2);
      },
    },
    {
      name: 'delete',
      path: `/content/funnels/${funnel.id}/stages/${pro}/`,
      check: async (language: 'en' | 'ru') => {
        await page.getByRole('button', { name: language === 'en' ? 'Delete the stage' : 'Удалить этап' }).click();
        await expect(page.getByTestId('delete-breaks-buttons')).toContainText(texts[language].breaks);
        await expect(page.getByTestId('delete-breaks-keywords')).toContainText('price list');
      },
    },
  ];

  for (const language of ['en', 'ru'] as const) {
    for (const theme of ['light', 'dark', 'telegram'] as const) {
      await page.emulateMedia({ colorScheme: theme === 'light' ? 'light' : 'dark' });
      for (const screen of screens) {
        await context.clearCookies();
        await context.addCookies([
          { name: AUTH_COOKIE, value: key, url: BASE_URL },
          { name: LANGUAGE_COOKIE, value: language, url: BASE_URL },
        ]);
        const name = `${screen.name}-${language}-${theme}`;
        await page.setViewportSize({ width: 360, height: 740 });
        await page.goto(screen.path);
        if (theme === 'telegram') await applyTelegramTheme(page);
        await expect(page.getByRole('status', { name: /Loading|Загрузка/ })).toHaveCount(0);
        await screen.check(language);
        expect(await cutTexts(page), name).toEqual([]);
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        expect(overflow, `${name} is wider than a 360 px phone`).toBeLessThanOrEqual(0);
        await page.setViewportSize({ width: 390, height: 844 });
        // The results are far down a long screen: the shot shows them, not the whole page.
        if (screen.name === 'results') await page.getByTestId('stage-moves').first().evaluate((moves) => moves.scrollIntoView({ block: 'center' }));
        await page.screenshot({ path: `test-results/screens/branch-${name}.png`, fullPage: screen.name !== 'delete' && screen.name !== 'results' });
      }
    }
  }
});
