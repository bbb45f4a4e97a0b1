// Layout points of issue 22 at phone width (390 px) in Russian, where they were seen: the letter
// schedule's select shows its whole text, the editor hint never splits "{ } Имя", the contacts
// count stays on one line, a success notice covers no title, a conversation opens at its latest
// message, and the stage and template pages fill {first_name|…} as the editor preview does.
import { expect, test, type APIRequestContext, type Locator, type Page } from './support/test';
import { AUTH_COOKIE, LANGUAGE_COOKIE } from '../contract/constants';
import { FUNNELS_API } from '../contract/funnels';
import { LETTERS_API } from '../contract/letters';
import { TEMPLATES_API } from '../contract/templates';
import { createActiveUser, loginToken, newUser, type TestUser } from './support/api';
import { botMessages, FAKE, fakeBot, signIn } from './support/builder';
import { BASE_URL, E2E_ADMIN_EMAIL } from './support/env';

test.use({ viewport: { width: 390, height: 844 } });

type Headers = Record<string, string>;

async function inRussian(page: Page) {
  await page.context().addCookies([{ name: LANGUAGE_COOKIE, value: 'ru', url: BASE_URL }]);
}

async function newFunnel(request: APIRequestContext, headers: Headers, prefix: string) {
  const bot = await fakeBot(request, prefix);
  const funnel = (await (await request.post(FUNNELS_API.funnels, { headers, data: { bot_token: bot.token } })).json()) as { id: number };
  return { bot, funnel };
}

async function addStage(request: APIRequestContext, headers: Headers, funnelId: number, text: string) {
  const stage = (await (await request.post(FUNNELS_API.stages(funnelId), { headers, data: { title: 'Приветствие' } })).json()) as { id: number };
  const put = await request.put(FUNNELS_API.stageMessage(stage.id), { headers, data: { text, media_id: null, buttons: [], next_button: null } });
  expect(put.ok(), await put.text()).toBe(true);
  return stage;
}

const boxOf = async (locator: Locator) => {
  const box = await locator.boundingBox();
  expect(box, 'the element is on screen').not.toBeNull();
  return box!;
};

test('the letter schedule shows the whole "Once, after" in its select', async ({ page, request }) => {
  const key = await signIn(page, request, 'layout-select');
  const headers = { Authorization: `Token ${key}` };
  await inRussian(page);
  const { funnel } = await newFunnel(request, headers, 'e2e_layout_select');
  const series = (await (await request.post(LETTERS_API.series(funnel.id), { headers, data: { name: 'Прогрев', time_zone: 'UTC' } })).json()) as { id: number };
  await page.goto(`/content/funnels/${funnel.id}/series/${series.id}/letters/new/`);
  await page.getByTestId('time-set').check();
  const kind = page.getByTestId('time-kind');
  await expect(kind).toHaveValue('through');
  // The selected option's text, in the select's own font, fits between its paddings (the arrow's room).
  const room = await kind.evaluate((select: HTMLSelectElement) => {
    const style = getComputedStyle(select);
    const probe = document.createElement('span');
    probe.textContent = select.selectedOptions[0].text;
    probe.style.font = style.font;
    probe.style.letterSpacing = style.letterSpacing;
    probe.style.position = 'absolute';
    probe.style.whiteSpace = 'pre';
    document.body.append(probe);
    const text = probe.getBoundingClientRect().width;
    probe.remove();
    return { text, inner: select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight), label: select.selectedOptions[0].text };
  });
  expect(room.label).toBe('Один раз, через');
  expect(room.text, 'the text of the select fits it').toBeLessThanOrEqual(room.inner);
});

test('the editor hint never splits "{ } Имя" across lines', async ({ page, request }) => {
  const key = await signIn(page, request, 'layout-hint');
  const headers = { Authorization: `Token ${key}` };
  await inRussian(page);
  const { funnel } = await newFunnel(request, headers, 'e2e_layout_hint');
  const stage = await addStage(request, headers, funnel.id, 'Привет');
  await page.goto(`/content/funnels/${funnel.id}/stages/${stage.id}/message/`);
  const hint = page.locator('.field-hint').filter({ hasText: 'Имя подставит' });
  await expect(hint).toBeVisible();
  // Every width from a small phone to a desktop: the token's characters all sit on one line.
  for (let width = 280; width <= 1280; width += width < 480 ? 1 : 10) {
    await page.setViewportSize({ width, height: 844 });
    const lines = await hint.evaluate((element) => {
      const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
      const nodes: Text[] = [];
      for (let node = walker.nextNode(); node; node = walker.nextNode()) nodes.push(node as Text);
      const whole = nodes.map((node) => node.data).join('');
      const start = whole.indexOf('{ } Имя');
      const tops = new Set<number>();
      let offset = 0;
      for (const node of nodes) {
        for (let i = 0; i < node.data.length; i++, offset++) {
          if (offset < start || offset >= start + '{ } Имя'.length || node.data[i] === ' ') continue;
          const range = document.createRange();
          range.setStart(node, i);
          range.setEnd(node, i + 1);
          tops.add(Math.round(range.getBoundingClientRect().top));
        }
      }
      return tops.size;
    });
    expect(lines, `"{ } Имя" at ${width} px`).toBe(1);
  }
});

test('the filtered contacts count stays on one line', async ({ page, request }) => {
  test.setTimeout(90_000);
  const key = await signIn(page, request, 'layout-count');
  const headers = { Authorization: `Token ${key}` };
  await inRussian(page);
  const { bot, funnel } = await newFunnel(request, headers, 'e2e_layout_count');
  await addStage(request, headers, funnel.id, 'Привет');
  expect((await request.post(FUNNELS_API.run(funnel.id), { headers })).ok()).toBe(true);
  const subscriber = { id: 7_100_000 + Math.floor(Math.random() * 800_000), first_name: 'Анна' };
  await request.post(`${FAKE}/control/bots/${bot.token}/messages`, { data: { from: subscriber, text: '/start' } });
  await expect.poll(async () => (await botMessages(request, bot, subscriber.id)).length).toBe(1);

  await page.goto('/content/contacts/?q=%D0%90%D0%BD%D0%BD%D0%B0');
  const count = page.getByTestId('contacts-count');
  await expect(count).toHaveText('1 человек');
  await expect(page.getByTestId('save-segment')).toBeVisible();
  const lines = await count.evaluate((element) => element.getBoundingClientRect().height / parseFloat(getComputedStyle(element).lineHeight || '16'));
  expect(lines, 'the count is one line high').toBeLessThan(1.5);
});

test('a success notice does not cover the page title', async ({ page, request }) => {
  const key = await signIn(page, request, 'layout-notice');
  const headers = { Authorization: `Token ${key}` };
  await inRussian(page);
  const { funnel } = await newFunnel(request, headers, 'e2e_layout_notice');
  const series = (await (await request.post(LETTERS_API.series(funnel.id), { headers, data: { name: 'Прогрев', time_zone: 'UTC' } })).json()) as { id: number };
  await page.goto(`/content/funnels/${funnel.id}/series/${series.id}/`);
  await page.getByTestId('join-on').selectOption('manual');
  const notice = page.getByTestId('top-notice');
  await expect(notice).toHaveText('Сохранено');
  const title = page.getByRole('heading', { level: 1, name: 'Прогрев' });
  // The page moves down while the notice shows: wait for it to settle, then compare the boxes.
  await expect.poll(async () => (await boxOf(title)).y > (await boxOf(notice)).y + (await boxOf(notice)).height).toBe(true);
  const [titleBox, noticeBox] = [await boxOf(title), await boxOf(notice)];
  expect(titleBox.y, 'the title starts below the notice').toBeGreaterThanOrEqual(noticeBox.y + noticeBox.height);
});

test('a conversation opens at its latest message', async ({ page, request }) => {
  test.setTimeout(120_000);
  const key = await signIn(page, request, 'layout-chat');
  const headers = { Authorization: `Token ${key}` };
  await inRussian(page);
  const { bot, funnel } = await newFunnel(request, headers, 'e2e_layout_chat');
  await addStage(request, headers, funnel.id, 'Привет!');
  expect((await request.post(FUNNELS_API.run(funnel.id), { headers })).ok()).toBe(true);
  const subscriber = { id: 7_900_000 + Math.floor(Math.random() * 90_000), first_name: 'Дана' };
  await request.post(`${FAKE}/control/bots/${bot.token}/messages`, { data: { from: subscriber, text: '/start' } });
  await expect.poll(async () => (await botMessages(request, bot, subscriber.id)).length).toBe(1);
  for (let i = 1; i <= 24; i++) await request.post(`${FAKE}/control/bots/${bot.token}/messages`, { data: { from: subscriber, text: `Вопрос номер ${i}` } });
  await expect
    .poll(async () => ((await (await request.get(FUNNELS_API.inbox(funnel.id), { headers })).json()) as { unread_total: number }).unread_total, { timeout: 30_000 })
    .toBe(24);

  await page.goto(`/content/funnels/${funnel.id}/inbox/`);
  await page.getByTestId('conversation').click();
  await expect(page.getByTestId('chat-message').last()).toContainText('Вопрос номер 24');
  await expect(page.getByTestId('chat-message').last()).toBeInViewport();
});

test('"Run the bot" on a funnel that never ran', async ({ page, request }) => {
  const key = await signIn(page, request, 'layout-run');
  const headers = { Authorization: `Token ${key}` };
  const { funnel } = await newFunnel(request, headers, 'e2e_layout_run');
  await addStage(request, headers, funnel.id, 'Hello');
  await page.goto(`/content/funnels/${funnel.id}/`);
  await expect(page.getByRole('button', { name: 'Run the bot', exact: true })).toBeVisible();
});

/** The admin of ADMIN_EMAILS: made once per server, signed in again when it exists. */
async function adminToken(request: APIRequestContext): Promise<string> {
  const admin: TestUser = { ...newUser('admin'), email: E2E_ADMIN_EMAIL };
  const login = await request.post('/api/token/login/', { data: { email: admin.email, password: admin.password } });
  if (login.ok()) return ((await login.json()) as { auth_token: string }).auth_token;
  await createActiveUser(request, admin);
  return loginToken(request, admin);
}

test('the stage and template pages fill {first_name|друг} as the editor preview does', async ({ page, request }) => {
  const key = await adminToken(request);
  const headers = { Authorization: `Token ${key}` };
  await page.context().addCookies([{ name: AUTH_COOKIE, value: key, url: BASE_URL }]);
  await inRussian(page);
  const { funnel } = await newFunnel(request, headers, 'e2e_layout_fields');
  const stage = await addStage(request, headers, funnel.id, 'Привет, {first_name|друг}! Рады видеть, {last_name|}.');

  await page.goto(`/content/funnels/${funnel.id}/stages/${stage.id}/message/`);
  await expect(page.getByTestId('message-preview')).toContainText('Привет, Анна! Рады видеть, Смирнова.');
  await page.goto(`/content/funnels/${funnel.id}/stages/${stage.id}/`);
  await expect(page.getByTestId('message-preview')).toContainText('Привет, Анна! Рады видеть, Смирнова.');
  await expect(page.getByTestId('message-preview')).not.toContainText('{first_name');

  const created = await request.post(TEMPLATES_API.templates, { headers, data: { funnel_id: funnel.id, name: 'Шаблон' } });
  expect(created.ok(), await created.text()).toBe(true);
  await page.goto(`/templates/${((await created.json()) as { id: number }).id}/`);
  await expect(page.getByTestId('message-preview').first()).toContainText('Привет, Анна! Рады видеть, Смирнова.');
});

test('date and time fields follow the app language, not the browser', async ({ page, request }) => {
  // An English browser with the app in Russian: dates read 26.11.2026, times 24-hour.
  const key = await signIn(page, request, 'layout-dates');
  const headers = { Authorization: `Token ${key}` };
  await inRussian(page);
  await page.goto('/content/contacts/');
  const from = page.getByTestId('contacts-from');
  await expect(from).toHaveAttribute('placeholder', '26.11.2026');
  await from.fill('26.11.2026');
  await expect.poll(() => new URL(page.url()).searchParams.get('from')).toBe('2026-11-26');
  await page.reload();
  await expect(page.getByTestId('contacts-from')).toHaveValue('26.11.2026');

  const { funnel } = await newFunnel(request, headers, 'e2e_layout_dates');
  const series = (await (await request.post(LETTERS_API.series(funnel.id), { headers, data: { name: 'Прогрев', time_zone: 'UTC' } })).json()) as { id: number };
  await page.goto(`/content/funnels/${funnel.id}/series/${series.id}/letters/new/`);
  await page.getByTestId('time-set').check();
  await page.getByTestId('time-unit').selectOption('days');
  const timeOfDay = page.getByTestId('time-of-day');
  await expect(timeOfDay).toHaveValue('10:00');
  await timeOfDay.fill('22:30');
  await timeOfDay.blur();
  await expect(timeOfDay).toHaveValue('22:30');
  await expect(page.getByTestId('next-moments').locator('li').first()).toContainText('22:30');

  // The same screen in English reads the time the English way.
  await page.context().addCookies([{ name: LANGUAGE_COOKIE, value: 'en', url: BASE_URL }]);
  await page.reload();
  await page.getByTestId('time-set').check();
  await page.getByTestId('time-unit').selectOption('days');
  await expect(page.getByTestId('time-of-day')).toHaveValue('10:00 AM');
});
