// The funnel builder end to end: connect a bot (made in the fake Bot API), build three stages
// with messages, run it, play a subscriber through the fake's control API and watch the people
// counts per stage change in the app; reordering is refused after the run; archive, return,
// delete. Then the funnel screens at phone size, light and dark, and inside Telegram.
import { expect, failedRequest, test, type APIRequestContext, type Page } from './support/test';
import { FUNNELS_API, NEXT_STEP_CALLBACK_PREFIX } from '../contract/funnels';
import { MAILINGS_API } from '../contract/mailings';
import { LETTERS_API } from '../contract/letters';
import { botMessages, FAKE, fakeBot, signIn, stageCounts, stageRows, typeMessage, type FakeBot, type FakeMessage, type Segment } from './support/builder';
import { DARK_THEME, openAsMiniApp, signedInitData, startAsTelegramUser, telegramUser } from './support/telegram';

async function addStage(page: Page, title: string, segments: Segment[], preview: string, nextButton: boolean, extra?: () => Promise<void>) {
  await page.getByRole('link', { name: 'Add a stage' }).click();
  await expect(page.getByRole('heading', { name: 'New stage' })).toBeVisible();
  await page.getByLabel('Title').fill(title);
  await page.getByRole('button', { name: 'Add the stage' }).click();
  // A new stage goes straight to its message.
  await expect(page.getByRole('heading', { name: 'Message' })).toBeVisible();
  await typeMessage(page, segments);
  if (nextButton) await page.getByRole('switch', { name: /Next-step button/ }).check();
  await expect(page.getByTestId('message-preview')).toContainText(preview);
  await extra?.();
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('heading', { name: title })).toBeVisible();
  await page.getByRole('link', { name: /Back|Coffee Shop/ }).first().click();
  await expect(page.getByRole('heading', { name: 'Stages' })).toBeVisible();
}

test('a stage is deleted from its screen and from its edit form, after a confirmation', async ({ page, request }) => {
  const key = await signIn(page, request, 'delstage');
  const bot = await fakeBot(request, 'delstage');
  const headers = { Authorization: `Token ${key}` };
  const funnel = await (await request.post(FUNNELS_API.funnels, { headers, data: { bot_token: bot.token } })).json();
  for (const title of ['Welcome', 'Offer']) {
    expect((await request.post(FUNNELS_API.stages(funnel.id), { headers, data: { title } })).status()).toBe(201);
  }
  const stages: Array<{ id: number; title: string }> = await (await request.get(FUNNELS_API.stages(funnel.id), { headers })).json();

  // From the stage's own screen; cancelling first keeps it.
  await page.goto(`/content/funnels/${funnel.id}/stages/${stages[0].id}/`);
  await page.getByRole('button', { name: 'Delete the stage' }).click();
  const dialog = page.getByRole('alertdialog');
  await expect(dialog).toContainText('“Welcome” and its message are deleted.');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toHaveCount(0);
  await page.getByRole('button', { name: 'Delete the stage' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Delete the stage' }).click();
  await expect(page).toHaveURL(new RegExp(`/content/funnels/${funnel.id}/$`));
  await expect(stageRows(page)).toHaveCount(1);
  await expect(stageRows(page)).toContainText('Offer');

  // From the edit form.
  await page.goto(`/content/funnels/${funnel.id}/stages/${stages[1].id}/edit/`);
  await page.getByRole('button', { name: 'Delete the stage' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Delete the stage' }).click();
  await expect(page).toHaveURL(new RegExp(`/content/funnels/${funnel.id}/$`));
  await expect(stageRows(page)).toHaveCount(0);
  expect(await (await request.get(FUNNELS_API.stages(funnel.id), { headers })).json()).toEqual([]);
});

test('connect a bot, build three stages, run it, watch a subscriber move, archive and delete', async ({ allowConsoleError, page, request }) => {
  allowConsoleError(failedRequest(400, FUNNELS_API.funnels)); // tokens refused on purpose
  test.setTimeout(120_000);
  const authToken = await signIn(page, request, 'funnels');
  const bot = await fakeBot(request, 'e2e_funnel');

  await page.goto('/content/panel/');
  await page.getByRole('link', { name: /My funnels/ }).first().click();
  await expect(page).toHaveURL(/\/content\/funnels\/$/);
  await expect(page.getByRole('heading', { name: 'No funnels yet' })).toBeVisible();
  await page.getByRole('link', { name: 'Add a funnel' }).click();
  await expect(page.getByRole('heading', { name: 'Connect a bot' })).toBeVisible();
  // 'Create' explains the @BotFather steps and links to it.
  await expect(page.getByText('send /newbot')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Create' })).toHaveAttribute('href', 'https://t.me/BotFather');

  // Each kind of bad token gets its own clear message.
  const tokenField = page.getByLabel('Bot token');
  await tokenField.fill('not a token');
  await page.getByRole('button', { name: 'Connect' }).click();
  await expect(page.getByText('This is not a bot token.')).toBeVisible();
  await tokenField.fill('987654321:AAunknownTokenNobodyHas_000000000');
  await page.getByRole('button', { name: 'Connect' }).click();
  await expect(page.getByText('Telegram does not know this token.')).toBeVisible();

  await tokenField.fill(bot.token);
  await page.getByRole('button', { name: 'Connect' }).click();
  await expect(page.getByText(`@${bot.username}`).first()).toBeVisible();
  await expect(page.getByTestId('funnel-state').first()).toHaveText('Draft');
  const funnelUrl = new URL(page.url()).pathname;
  const funnelId = Number(funnelUrl.split('/').filter(Boolean).pop());

  // The same bot again is refused.
  await page.goto('/content/funnels/new/');
  await page.getByLabel('Bot token').fill(bot.token);
  await page.getByRole('button', { name: 'Connect' }).click();
  await expect(page.getByText('This bot is already connected.')).toBeVisible();
  await page.goto(funnelUrl);

  // Formatting is typed, not written as HTML; "<" and "&" are just text; the name is a chip the
  // preview fills with a sample.
  await addStage(page, 'Welcome', [{ bold: 'Tom & Jerry <3' }, ', ', { field: 'First name' }, '! Glad you came.'], 'Tom & Jerry <3, Anna! Glad you came.', true, async () => {
    await expect(page.getByTestId('message-text').locator('strong')).toHaveText('Tom & Jerry <3');
    await expect(page.getByTestId('message-text').locator('.editor-chip')).toHaveText('First name');
  });
  await addStage(page, 'Offer', ['Prices < 100 rub & more'], 'Prices < 100 rub & more', true, async () => {
    // Leaving with unsaved changes asks first; staying keeps the text.
    await page.getByRole('link', { name: 'Back' }).first().click();
    const leave = page.getByRole('alertdialog', { name: 'Leave without saving?' });
    await leave.getByRole('button', { name: 'Keep editing' }).click();
    await expect(leave).toHaveCount(0);
    await expect(page.getByTestId('message-text')).toHaveText('Prices < 100 rub & more');
    // A link button with no text and a bad address shows both problems, under the button, until fixed.
    await page.getByRole('button', { name: 'Add a link button' }).click();
    await page.getByLabel('Address of button 1').fill('not a link');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByTestId('button-1-error')).toHaveText('Button text: This field may not be blank. Address: Enter a valid address: http://, https:// or tg://.');
    await page.getByLabel('Text of button 1').fill('Prices');
    await expect(page.getByTestId('button-1-error')).toHaveText('Address: Enter a valid address: http://, https:// or tg://.');
    await page.getByLabel('Address of button 1').fill('https://example.com/prices');
    await expect(page.getByTestId('button-1-error')).toHaveCount(0);
  });
  await addStage(page, 'Thanks', ['Thank you!'], 'Thank you!', false);
  await expect(stageRows(page)).toHaveCount(3);
  await expect(stageRows(page)).toContainText(['Welcome', 'Offer', 'Thanks']);

  // Before the run the order can change: with the buttons, and by dragging the handle.
  await page.getByRole('button', { name: 'Move “Thanks” up' }).click();
  await expect(stageRows(page)).toContainText(['Welcome', 'Thanks', 'Offer']);
  const handle = page.getByTestId('stage-handle').nth(2);
  const target = await stageRows(page).nth(1).boundingBox();
  const from = await handle.boundingBox();
  await page.mouse.move(from!.x + from!.width / 2, from!.y + from!.height / 2);
  await page.mouse.down();
  await page.mouse.move(from!.x + from!.width / 2, target!.y + 5, { steps: 8 });
  await page.mouse.up();
  await expect(stageRows(page)).toContainText(['Welcome', 'Offer', 'Thanks']);
  await page.reload();
  await expect(stageRows(page)).toContainText(['Welcome', 'Offer', 'Thanks']);

  // Run: 'Are you sure?' with the warning about the order.
  await page.getByRole('button', { name: 'Run the bot' }).click();
  const dialog = page.getByRole('alertdialog', { name: 'Are you sure?' });
  await expect(dialog).toContainText("stages can't be swapped");
  await dialog.getByRole('button', { name: 'Run the bot' }).click();
  await expect(page.getByTestId('funnel-state').first()).toHaveText('Running');

  // After the run the order is locked, and the screen says why.
  await expect(page.getByTestId('order-locked')).toHaveText('Stop the bot to change the order of stages.');
  await expect(page.getByTestId('stage-handle')).toHaveCount(0);
  await expect(page.getByRole('button', { name: /Move “/ })).toHaveCount(0);
  const stages = (await (await request.get(FUNNELS_API.stages(funnelId), { headers: { Authorization: `Token ${authToken}` } })).json()) as Array<{ id: number }>;
  const refused = await request.post(FUNNELS_API.stageOrder(funnelId), {
    headers: { Authorization: `Token ${authToken}` },
    data: { stage_ids: stages.map((s) => s.id).reverse() },
  });
  expect(refused.status()).toBe(409);
  expect(await stageCounts(page)).toEqual([0, 0, 0]);

  // A subscriber presses /start: they are in the first stage.
  const subscriber = { id: 5_000_000 + Math.floor(Math.random() * 1_000_000), first_name: 'Bob', last_name: 'Stone', username: 'bob_stone' };
  const sent = await request.post(`${FAKE}/control/bots/${bot.token}/messages`, { data: { from: subscriber, text: '/start' } });
  expect(sent.ok(), await sent.text()).toBe(true);
  await expect.poll(() => stageCounts(page), { timeout: 15_000 }).toEqual([1, 0, 0]);
  await expect(page.getByTestId('funnel-people')).toHaveText('1 person');

  // …then the next-step button on the bot's message: the second stage.
  let welcome: FakeMessage | undefined;
  await expect
    .poll(async () => {
      welcome = (await botMessages(request, bot, subscriber.id)).find((m) => m.reply_markup?.inline_keyboard.flat().some((b) => b.callback_data?.startsWith(NEXT_STEP_CALLBACK_PREFIX)));
      return Boolean(welcome);
    })
    .toBe(true);
  // The subscriber gets it formatted, with their own name.
  expect(welcome!.text).toBe('Tom & Jerry <3, Bob! Glad you came.');
  expect(welcome!.entities).toEqual([{ type: 'bold', offset: 0, length: 14 }]);
  const next = welcome!.reply_markup!.inline_keyboard.flat().find((b) => b.callback_data?.startsWith(NEXT_STEP_CALLBACK_PREFIX))!;
  const pressed = await request.post(`${FAKE}/control/bots/${bot.token}/callback-queries`, {
    data: { from: subscriber, message_id: welcome!.message_id, callback_data: next.callback_data },
  });
  expect(pressed.ok(), await pressed.text()).toBe(true);
  await expect.poll(() => stageCounts(page), { timeout: 15_000 }).toEqual([0, 1, 0]);

  // The person is listed in the stage, with their history.
  await stageRows(page).nth(1).getByRole('link').click();
  await expect(page.getByTestId('person-row')).toContainText('Bob Stone');
  await expect(page.getByTestId('person-row')).toContainText('@bob_stone');
  await page.getByTestId('person-row').click();
  await expect(page.getByRole('heading', { name: 'Bob Stone' })).toBeVisible();
  await expect(page.getByTestId('history')).toContainText('Sent: Offer');
  // Read like a chat: what the person did first is at the top, the latest message at the bottom.
  await expect(page.getByTestId('history').locator('li').last()).toContainText('Sent: Offer');

  // The dashboard shows the same people per stage, with a bar only where there are people.
  await page.goto('/content/dashboard/');
  const dashboardStages = page.getByTestId('dashboard-stage');
  await expect(dashboardStages).toHaveCount(3);
  await expect(dashboardStages.getByTestId('stage-reached')).toHaveText(['1', '1', '0']);
  await expect(dashboardStages.getByTestId('stage-moved-on')).toHaveText(['1 moved on from here', 'nobody moved on from here', 'nobody moved on from here']);
  await page.goto(funnelUrl);

  // Stop (after a confirmation), and run again.
  await page.getByRole('button', { name: 'Stop' }).click();
  await page.getByRole('alertdialog', { name: 'Stop the bot?' }).getByRole('button', { name: 'Stop' }).click();
  await expect(page.getByTestId('funnel-state').first()).toHaveText('Stopped');
  // Stopped, the order can change again, with a word about the people already in it; a stage
  // goes in between others.
  await expect(page.getByTestId('order-warning')).toContainText('people stay in the stages they are in');
  await expect(page.getByRole('button', { name: 'Move “Thanks” up' })).toBeVisible();
  await page.getByRole('link', { name: 'Add a stage' }).click();
  await page.getByLabel('Title').fill('Bonus');
  await page.getByLabel('Place').selectOption({ label: 'After “Welcome”' });
  await expect(page.getByTestId('place-warning')).toBeVisible();
  await page.getByRole('button', { name: 'Add the stage' }).click();
  await typeMessage(page, ['A bonus for you']);
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('heading', { name: 'Bonus' })).toBeVisible();
  await page.getByRole('link', { name: /Back|Coffee Shop/ }).first().click();
  await expect(stageRows(page)).toContainText(['Welcome', 'Bonus', 'Offer', 'Thanks']);
  await page.getByRole('button', { name: 'Run again' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Run again' }).click();
  await expect(page.getByTestId('funnel-state').first()).toHaveText('Running');

  // Archive (the bot stops), return, archive again and delete for good.
  await page.getByRole('button', { name: 'Archive the funnel' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Archive the funnel' }).click();
  await expect(page).toHaveURL(/\/content\/funnels\/$/);
  await expect(page.getByTestId('funnel-card')).toHaveCount(0);
  await page.getByRole('link', { name: /Archive/ }).click();
  const archived = page.getByTestId('archived-funnel');
  await expect(archived).toContainText(`@${bot.username}`);
  await archived.getByRole('button', { name: 'Return to funnels' }).click();
  await expect(archived).toHaveCount(0);
  await page.goto('/content/funnels/');
  await expect(page.getByTestId('funnel-card')).toContainText('Stopped');

  await page.goto(funnelUrl);
  await page.getByRole('button', { name: 'Archive the funnel' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Archive the funnel' }).click();
  await page.goto('/content/archive/');
  await archived.getByRole('button', { name: 'Delete' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Are you sure you want to remove the funnel?' });
  await expect(confirm).toContainText('The data cannot be restored.');
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByRole('heading', { name: 'The archive is empty' })).toBeVisible();
  const gone = await request.get(FUNNELS_API.funnel(funnelId), { headers: { Authorization: `Token ${authToken}` } });
  expect(gone.status()).toBe(404);
});

/** A funnel with tags, three stages with messages and one subscriber, made through the API. */
async function seedFunnel(request: APIRequestContext, headers: Record<string, string>) {
  const bot = await fakeBot(request, 'e2e_shots');
  const created = await request.post(FUNNELS_API.funnels, { headers, data: { bot_token: bot.token } });
  expect(created.status(), await created.text()).toBe(201);
  const funnel = (await created.json()) as { id: number };
  const tag = async (title: string, color: string) =>
    ((await (await request.post(FUNNELS_API.tags(funnel.id), { headers, data: { title, color } })).json()) as { id: number }).id;
  const hot = await tag('Hot lead', '#ff3b30');
  await tag('Paid', '#34c759');
  // The longest title there can be, with no space to break at: it wraps inside its row.
  await tag('Subscribed-to-the-weekly-newsletter-and-the-autumn-webinar-2026', '#5ac8fa');
  const stage = async (title: string, icon: string, color: string, tagId: number | null) =>
    ((await (await request.post(FUNNELS_API.stages(funnel.id), { headers, data: { title, icon, color, tag_id: tagId } })).json()) as { id: number }).id;
  const ids = [await stage('Welcome', 'flag', '#2481cc', null), await stage('Free lesson', 'video', '#af52de', hot), await stage('Offer', 'cart', '#ff9500', null)];
  const message = (text: string, next: boolean) => ({
    text,
    media_id: null,
    buttons: [{ text: 'Our website', url: 'https://example.com' }],
    next_button: next ? { text: 'Next →' } : null,
  });
  await request.put(FUNNELS_API.stageMessage(ids[0]), { headers, data: message('Hi, {first_name|friend}! <b>Welcome</b> to the <i>coffee</i> club.\n<blockquote>Here is what you get: <tg-spoiler>a free lesson</tg-spoiler></blockquote>', true) });
  await request.put(FUNNELS_API.stageMessage(ids[1]), { headers, data: message('Your <u>free lesson</u> is ready.', true) });
  await request.put(FUNNELS_API.stageMessage(ids[2]), { headers, data: message('Join the club for <b>$9</b> a month.', false) });
  expect((await request.post(FUNNELS_API.run(funnel.id), { headers })).ok()).toBe(true);
  const subscriber = { id: 6_000_000 + Math.floor(Math.random() * 1_000_000), first_name: 'Maria', last_name: 'Lopez', username: 'maria_l' };
  await request.post(`${FAKE}/control/bots/${bot.token}/messages`, { data: { from: subscriber, text: '/start' } });
  let personId = 0;
  await expect
    .poll(async () => {
      const page = (await (await request.get(FUNNELS_API.people(funnel.id), { headers })).json()) as { results: Array<{ id: number }> };
      personId = page.results[0]?.id ?? 0;
      return personId;
    })
    .toBeGreaterThan(0);
  await request.post(`${FAKE}/control/bots/${bot.token}/messages`, { data: { from: subscriber, text: 'Hi! Is the first lesson really free? And how long is it?' } });
  await expect
    .poll(async () => ((await (await request.get(FUNNELS_API.inbox(funnel.id), { headers })).json()) as { unread_total: number }).unread_total)
    .toBe(1);
  // A mailing sent (to Maria) and a draft for the Hot leads, all but those who paid.
  const mailing = async (title: string, audience: Record<string, number[]>) =>
    ((await (
      await request.post(MAILINGS_API.mailings(funnel.id), {
        headers,
        data: { title, message: { text: 'Hi {first_name|friend}! The <b>autumn webinar</b> starts tomorrow at 19:00.', buttons: [{ text: 'Join', url: 'https://example.com/webinar' }] }, audience: { stages_in: [], stages_out: [], tags_in: [], tags_out: [], ...audience } },
      })
    ).json()) as { id: number }).id;
  const sent = await mailing('Autumn webinar reminder', {});
  expect((await request.post(MAILINGS_API.send(sent), { headers, data: {} })).ok()).toBe(true);
  await expect.poll(async () => ((await (await request.get(MAILINGS_API.mailing(sent), { headers })).json()) as { state: string }).state, { timeout: 20_000 }).toBe('finished');
  const draft = await mailing('Hot leads: last call', { tags_in: [hot], stages_out: [ids[2]] });
  // A series with a letter on a schedule and one without a time yet.
  const series = (await (await request.post(LETTERS_API.series(funnel.id), { headers, data: { name: 'Webinar warm-up', time_zone: 'Europe/Berlin' } })).json()) as { id: number };
  const letter = async (name: string, sending_time: unknown, enabled: boolean) =>
    ((await (await request.post(LETTERS_API.letters(series.id), { headers, data: { name, message: { text: `${name}: see you, {first_name|friend}!` }, sending_time, enabled } })).json()) as { id: number }).id;
  const firstLetter = await letter('The day before', { kind: 'every', every: 1, unit: 'months', time_of_day: '10:00' }, true);
  await letter('Last call', null, false);
  expect((await request.post(LETTERS_API.enable(series.id), { headers })).ok()).toBe(true);
  const base = `/content/funnels/${funnel.id}/`;
  const stagePath = `${base}stages/${ids[0]}/`;
  return [
    '/content/panel/',
    '/content/funnels/',
    '/content/funnels/new/',
    base,
    `${base}stages/new/`,
    stagePath,
    `${stagePath}edit/`,
    `${stagePath}message/`,
    `${base}tags/`,
    `${base}people/`,
    `${base}inbox/`,
    `${base}inbox/${personId}/`,
    `${base}token/`,
    `${base}description/`,
    `${base}copy/`,
    `${base}mailings/`,
    `${base}mailings/new/`,
    `${base}mailings/${sent}/`,
    `${base}mailings/${draft}/`,
    `${base}mailings/${draft}/edit/`,
    `${base}series/`,
    `${base}series/${series.id}/`,
    `${base}series/${series.id}/letters/${firstLetter}/`,
    `${base}series/${series.id}/letters/new/`,
    `/content/people/${personId}/`,
    '/content/archive/',
    '/content/dashboard/',
  ];
}

const shotName = (path: string) => path.replace(/^\/|\/$/g, '').replace(/\//g, '_');

async function checkScreen(page: Page, path: string, name: string) {
  await expect.poll(() => new URL(page.url()).pathname).toBe(path);
  await expect(page.getByRole('heading').first()).toBeVisible();
  await expect(page.getByRole('status', { name: 'Loading' })).toHaveCount(0);
  await expect(page).toHaveTitle(/ · /);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow, `${path} is wider than the phone`).toBeLessThanOrEqual(0);
  await page.screenshot({ path: `test-results/screens/funnels-${name}.png`, fullPage: true });
}

test('the funnel screens fit a phone in the light and dark themes and inside Telegram', async ({ page, request }) => {
  test.setTimeout(120_000);
  const token = await signIn(page, request, 'funnel-shots');
  const paths = await seedFunnel(request, { Authorization: `Token ${token}` });
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const path of paths) {
      await page.goto(path);
      await checkScreen(page, path, `${scheme}-${shotName(path)}`);
    }
  }
  // Inside Telegram the user is the one of the init data (no token cookie).
  await page.context().clearCookies();
  const initData = signedInitData(telegramUser());
  await startAsTelegramUser(request, initData);
  const telegramPaths = await seedFunnel(request, { Authorization: `TG ${initData}` });
  for (const path of telegramPaths) {
    await openAsMiniApp(page, path, initData, DARK_THEME);
    await checkScreen(page, path, `telegram-${shotName(path)}`);
  }
});

test('run lists what stands in its way; a revoked token is replaced on the same funnel, people and history kept', async ({ allowConsoleError, page, request }) => {
  allowConsoleError(failedRequest(400, /\/api\/funnels\/\d+\/token\//)); // another bot's token, refused
  test.setTimeout(120_000);
  const key = await signIn(page, request, 'replace');
  const headers = { Authorization: `Token ${key}` };
  const bot = await fakeBot(request, 'e2e_replace');
  const funnel = (await (await request.post(FUNNELS_API.funnels, { headers, data: { bot_token: bot.token } })).json()) as { id: number };
  const stage = (await (await request.post(FUNNELS_API.stages(funnel.id), { headers, data: { title: 'Welcome' } })).json()) as { id: number };

  // The confirmation itself says why the bot can't run, and its button stays off.
  await page.goto(`/content/funnels/${funnel.id}/`);
  await page.getByRole('button', { name: 'Run the bot' }).click();
  const dialog = page.getByRole('alertdialog', { name: 'The bot can’t run yet' });
  await expect(dialog.getByTestId('run-problems')).toHaveText('The stage “Welcome” has no message. Write one, or delete the stage.');
  await expect(dialog.getByRole('button', { name: 'Run the bot' })).toBeDisabled();
  await dialog.getByRole('button', { name: 'Cancel' }).click();

  await request.put(FUNNELS_API.stageMessage(stage.id), { headers, data: { text: 'Hello, {first_name}!', media_id: null, buttons: [], next_button: null } });
  await page.getByRole('button', { name: 'Run the bot' }).click();
  await page.getByRole('alertdialog', { name: 'Are you sure?' }).getByRole('button', { name: 'Run the bot' }).click();
  await expect(page.getByTestId('funnel-state').first()).toHaveText('Running');

  const subscriber = { id: 7_000_000 + Math.floor(Math.random() * 1_000_000), first_name: 'Zoe' };
  await request.post(`${FAKE}/control/bots/${bot.token}/messages`, { data: { from: subscriber, text: '/start' } });
  await expect.poll(async () => (await botMessages(request, bot, subscriber.id)).map((m) => m.text)).toEqual(['Hello, Zoe!']);

  // @BotFather revokes the token and gives a new one: the runtime sees the 401 and the funnel says so.
  const renewed = ((await (await request.post(`${FAKE}/control/bots/${bot.token}/new-token`)).json()) as { result: FakeBot }).result;
  await expect(page.getByTestId('funnel-state').first()).toHaveText('Token revoked', { timeout: 20_000 });
  await page.getByRole('link', { name: 'Replace the token' }).click();
  await expect(page.getByRole('heading', { name: 'Replace the token' })).toBeVisible();
  // Another bot's token is refused, clearly.
  const other = await fakeBot(request, 'e2e_other');
  await page.getByLabel('New token').fill(other.token);
  await page.getByRole('button', { name: 'Replace the token' }).click();
  await expect(page.getByText(`This token belongs to another bot (@${other.username}).`)).toBeVisible();
  await page.getByLabel('New token').fill(renewed.token);
  await page.getByRole('button', { name: 'Replace the token' }).click();
  await expect(page.getByText('Token replaced.')).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/content/funnels/${funnel.id}/$`));
  await expect(page.getByTestId('funnel-people')).toHaveText('1 person');

  await page.getByRole('button', { name: 'Run again' }).click();
  await page.getByRole('alertdialog', { name: 'Are you sure?' }).getByRole('button', { name: 'Run again' }).click();
  await expect(page.getByTestId('funnel-state').first()).toHaveText('Running');
  // The same person, on the same funnel, answered through the new token; their history kept.
  await request.post(`${FAKE}/control/bots/${renewed.token}/messages`, { data: { from: subscriber, text: '/start' } });
  await expect.poll(async () => (await botMessages(request, renewed, subscriber.id)).length).toBe(2);
  const list = (await (await request.get(FUNNELS_API.funnels, { headers })).json()) as unknown[];
  expect(list).toHaveLength(1);

  // Stop asks first.
  await page.getByRole('button', { name: 'Stop' }).click();
  await page.getByRole('alertdialog', { name: 'Stop the bot?' }).getByRole('button', { name: 'Stop' }).click();
  await expect(page.getByTestId('funnel-state').first()).toHaveText('Stopped');
});

test('tags: rename and recolour, titles unique without regard to case', async ({ allowConsoleError, page, request }) => {
  allowConsoleError(failedRequest(400, /\/api\/funnels\/\d+\/tags\//)); // a title taken already
  const key = await signIn(page, request, 'tags');
  const headers = { Authorization: `Token ${key}` };
  const bot = await fakeBot(request, 'e2e_tags');
  const funnel = (await (await request.post(FUNNELS_API.funnels, { headers, data: { bot_token: bot.token } })).json()) as { id: number };
  await page.goto(`/content/funnels/${funnel.id}/tags/`);
  await page.getByLabel('Title').fill('VIP');
  await page.getByRole('button', { name: 'Add the tag' }).click();
  await expect(page.getByTestId('tag-row')).toHaveText(/VIP/);
  await page.getByLabel('Title').fill('vip');
  await page.getByRole('button', { name: 'Add the tag' }).click();
  await expect(page.getByText('A tag with this title already exists.')).toBeVisible();

  await page.getByRole('button', { name: 'Rename the tag “VIP”' }).click();
  const dialog = page.getByRole('alertdialog', { name: 'Rename the tag' });
  await dialog.getByLabel('Title').fill('Regulars');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByTestId('tag-row')).toHaveText(/Regulars/);
  const tags = (await (await request.get(FUNNELS_API.tags(funnel.id), { headers })).json()) as Array<{ title: string }>;
  expect(tags.map((t) => t.title)).toEqual(['Regulars']);
});

test('results per stage: three subscribers reach different stages, one sends /start again; the people list finds them', async ({ page, request }) => {
  test.setTimeout(90_000);
  const key = await signIn(page, request, 'results');
  const headers = { Authorization: `Token ${key}` };
  const bot = await fakeBot(request, 'e2e_results');
  const funnel = (await (await request.post(FUNNELS_API.funnels, { headers, data: { bot_token: bot.token } })).json()) as { id: number };
  for (const [title, next] of [['Welcome', true], ['Lesson', true], ['Offer', false]] as const) {
    const stage = (await (await request.post(FUNNELS_API.stages(funnel.id), { headers, data: { title } })).json()) as { id: number };
    await request.put(FUNNELS_API.stageMessage(stage.id), { headers, data: { text: `${title}!`, media_id: null, buttons: [], next_button: next ? { text: 'Next' } : null } });
  }
  expect((await request.post(FUNNELS_API.run(funnel.id), { headers })).ok()).toBe(true);

  const base = 8_000_000 + Math.floor(Math.random() * 900_000);
  const subscribers = [
    { id: base + 1, first_name: 'Анна', last_name: 'Смирнова', username: 'anna_s' },
    { id: base + 2, first_name: 'Bob', last_name: 'Stone' },
    { id: base + 3, first_name: 'Cleo', username: 'cleo' },
  ];
  async function play(subscriber: (typeof subscribers)[number], steps: number) {
    await request.post(`${FAKE}/control/bots/${bot.token}/messages`, { data: { from: subscriber, text: '/start' } });
    for (let step = 0; step <= steps; step += 1) {
      let last: FakeMessage | undefined;
      await expect
        .poll(async () => {
          const list = await botMessages(request, bot, subscriber.id);
          last = list.at(-1);
          return list.length;
        })
        .toBe(step + 1);
      const next = last?.reply_markup?.inline_keyboard.flat().find((b) => b.callback_data?.startsWith(NEXT_STEP_CALLBACK_PREFIX));
      if (step < steps) {
        await request.post(`${FAKE}/control/bots/${bot.token}/callback-queries`, { data: { from: subscriber, message_id: last!.message_id, callback_data: next!.callback_data } });
      }
    }
  }
  await play(subscribers[0], 0);
  await play(subscribers[1], 1);
  await play(subscribers[2], 2);
  // Bob sends /start again: he stays in "Lesson" and gets it again.
  await request.post(`${FAKE}/control/bots/${bot.token}/messages`, { data: { from: subscribers[1], text: '/start' } });
  await expect.poll(async () => (await botMessages(request, bot, subscribers[1].id)).map((m) => m.text)).toEqual(['Welcome!', 'Lesson!', 'Lesson!']);

  await page.goto(`/content/funnels/${funnel.id}/`);
  const results = page.getByTestId('stage-result');
  await expect(results.getByTestId('stage-reached')).toHaveText(['3', '2', '1']);
  // Moved on: each person who left a stage for another, whatever the way.
  await expect(results.getByTestId('stage-moved-on')).toHaveText(['2 moved on from here', '1 moved on from here', 'nobody moved on from here']);
  await expect(stageCounts(page)).resolves.toEqual([1, 1, 1]);
  await page.getByRole('tab', { name: 'Today' }).click();
  await expect(page).toHaveURL(/\?period=today$/);
  await expect(results.getByTestId('stage-reached')).toHaveText(['3', '2', '1']);
  await expect(page.getByTestId('new-people')).toContainText('3 new people in this period');
  // The period tabs take the arrow keys too (WAI-ARIA tabs): → chooses the next period.
  await page.getByRole('tab', { name: 'Today' }).press('ArrowRight');
  await expect(page).toHaveURL(/\?period=7d$/);
  await expect(page.getByRole('tab', { name: '7 days' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('tab', { name: '7 days' })).toBeFocused();

  // The people list: search (Russian, any case), filter by stage, open a person, Back returns.
  await page.getByTestId('people-link').click();
  await expect(page.getByRole('heading', { name: 'People', exact: true })).toBeVisible();
  await expect(page.getByTestId('person-row')).toHaveCount(3);
  await page.getByTestId('people-search').fill('СМИРН');
  await expect(page.getByTestId('person-row')).toHaveCount(1);
  await expect(page.getByTestId('person-row')).toContainText('Анна Смирнова');
  await page.getByTestId('people-search').fill('');
  await page.getByLabel('Stage').selectOption({ label: '3. Offer' });
  await expect(page.getByTestId('person-row')).toHaveCount(1);
  await expect(page.getByTestId('person-row')).toContainText('Cleo');
  await page.getByTestId('person-row').click();
  await expect(page.getByRole('heading', { name: 'Cleo' })).toBeVisible();
  await page.getByRole('link', { name: 'People', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'People', exact: true })).toBeVisible();
});

test("a subscriber's question is answered from the inbox", async ({ page, request }) => {
  test.setTimeout(90_000);
  const key = await signIn(page, request, 'inbox');
  const headers = { Authorization: `Token ${key}` };
  const bot = await fakeBot(request, 'e2e_inbox');
  const funnel = (await (await request.post(FUNNELS_API.funnels, { headers, data: { bot_token: bot.token } })).json()) as { id: number };
  const stage = (await (await request.post(FUNNELS_API.stages(funnel.id), { headers, data: { title: 'Welcome' } })).json()) as { id: number };
  await request.put(FUNNELS_API.stageMessage(stage.id), { headers, data: { text: 'Hello!', media_id: null, buttons: [], next_button: null } });
  expect((await request.post(FUNNELS_API.run(funnel.id), { headers })).ok()).toBe(true);
  const subscriber = { id: 9_000_000 + Math.floor(Math.random() * 900_000), first_name: 'Dana' };
  await request.post(`${FAKE}/control/bots/${bot.token}/messages`, { data: { from: subscriber, text: '/start' } });
  await expect.poll(async () => (await botMessages(request, bot, subscriber.id)).length).toBe(1);
  await request.post(`${FAKE}/control/bots/${bot.token}/messages`, { data: { from: subscriber, text: 'Do you ship to Berlin?' } });

  await page.goto(`/content/funnels/${funnel.id}/`);
  await expect(page.getByTestId('funnel-unread')).toHaveText('1', { timeout: 15_000 });
  await page.getByTestId('inbox-link').click();
  await expect(page.getByRole('heading', { name: 'Inbox' })).toBeVisible();
  const conversation = page.getByTestId('conversation');
  await expect(conversation).toContainText('Do you ship to Berlin?');
  await expect(conversation.getByTestId('unread')).toHaveText('1');
  await conversation.click();
  await expect(page.getByTestId('chat')).toContainText('Do you ship to Berlin?');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByText('This field may not be blank.')).toBeVisible();
  await page.getByLabel('Your answer').fill('Yes: <3 days & free');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByText('Sent', { exact: true })).toBeVisible();
  await expect(page.getByTestId('chat-message').last()).toContainText('Yes: <3 days & free');
  await expect.poll(async () => (await botMessages(request, bot, subscriber.id)).map((m) => m.text)).toEqual(['Hello!', 'Yes: <3 days & free']);

  // Read: no badge left.
  await page.getByRole('link', { name: 'Inbox' }).click();
  await expect(page.getByTestId('conversation').getByTestId('unread')).toHaveCount(0);
});
