// A series of letters end to end, in Chromium against the real server and the fake Bot API: two
// letters written with a name chip and their sending times set with the preview of the next
// moments ('Incorrect data' for a bad value), the series turned on, a subscriber pressing /start,
// and the letters arriving as the test clock (TEST_CLOCK, tests only) moves on an hour at a time.
import { LANGUAGE_COOKIE } from '../contract/constants';
import { expect, failedRequest, test, type APIRequestContext, type Page } from './support/test';
import { FUNNELS_API } from '../contract/funnels';
import { LETTERS_API } from '../contract/letters';
import { botMessages, FAKE, fakeBot, signIn, typeMessage } from './support/builder';
import { BASE_URL } from './support/env';

async function advanceHour(request: APIRequestContext, key: string) {
  const res = await request.post('/api/test/clock/', { headers: { Authorization: `Token ${key}` }, data: { advance_seconds: 3600 } });
  expect(res.status(), await res.text()).toBe(204);
}

async function writeLetter(page: Page, name: string, text: string) {
  await page.getByTestId('add-letter').click();
  await page.getByLabel('Letter name').fill(name);
  await typeMessage(page, [text, { field: 'First name' }, '!']);
  await page.getByTestId('time-set').check();
  await page.getByTestId('time-kind').selectOption('through');
  await page.getByTestId('time-every').fill('1');
  await page.getByTestId('time-unit').selectOption('hours');
  await expect(page.getByTestId('next-moments').locator('li')).toHaveCount(1);
  await page.getByTestId('letter-enabled').check();
  await page.getByTestId('save-letter').click();
  await expect(page.getByRole('heading', { name: 'Warm-up' })).toBeVisible();
}

test('a series with two letters reaches a subscriber on its schedule', async ({ allowConsoleError, page, request }) => {
  allowConsoleError(failedRequest(400, /\/api\/series\/\d+\/enable\//)); // turned on before a letter is ready
  test.setTimeout(120_000);
  const key = await signIn(page, request, 'letters');
  const headers = { Authorization: `Token ${key}` };
  const bot = await fakeBot(request, 'e2e_letters');
  const funnel = (await (await request.post(FUNNELS_API.funnels, { headers, data: { bot_token: bot.token } })).json()) as { id: number };
  const stage = (await (await request.post(FUNNELS_API.stages(funnel.id), { headers, data: { title: 'Welcome' } })).json()) as { id: number };
  await request.put(FUNNELS_API.stageMessage(stage.id), { headers, data: { text: 'Welcome!', media_id: null, buttons: [], next_button: null } });
  expect((await request.post(FUNNELS_API.run(funnel.id), { headers })).ok()).toBe(true);

  await page.goto(`/content/funnels/${funnel.id}/`);
  await page.getByTestId('series-link').click();
  await expect(page.getByText('No series yet')).toBeVisible();
  await page.getByLabel('New series').fill('Warm-up');
  await page.getByTestId('create-series').click();
  await expect(page.getByRole('heading', { name: 'Warm-up' })).toBeVisible();

  // A series without a letter ready cannot be turned on.
  // The switch's label says the series' state, not what the switch is for.
  await expect(page.getByTestId('series-state')).toHaveText('The series is off');
  await page.getByTestId('series-enabled').click();
  await expect(page.getByRole('alert')).toHaveText('You have not configured the sending time');
  await expect(page.getByTestId('series-enabled')).not.toBeChecked();
  await expect(page.getByTestId('series-state')).toHaveText('The series is off');

  // The preview of the next five moments, and 'Incorrect data' for a bad value.
  await page.getByTestId('add-letter').click();
  await page.getByTestId('time-set').check();
  await page.getByTestId('time-kind').selectOption('every');
  await page.getByTestId('time-unit').selectOption('days');
  await page.getByTestId('time-of-day').fill('10:00');
  await expect(page.getByTestId('next-moments').locator('li')).toHaveCount(5);
  await page.getByTestId('time-every').fill('0');
  await expect(page.getByRole('alert')).toHaveText('Incorrect data');
  await page.getByRole('link', { name: 'Warm-up' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Leave' }).click();

  await writeLetter(page, 'Hour one', 'Hi ');
  await writeLetter(page, 'Hour two', 'Still with us, ');
  await expect(page.getByTestId('letter-row')).toHaveCount(2);
  // The switch follows the server: it shows on once the series is.
  await page.getByTestId('series-enabled').click();
  await expect(page.getByTestId('series-enabled')).toBeChecked();
  await expect(page.getByTestId('series-state')).toHaveText('The series is on');
  // A letter nobody has received yet is neutral, not green like one that has gone out.
  await expect(page.getByTestId('letter-state').first()).toHaveText('none sent');
  await expect(page.getByTestId('letter-state').first()).not.toHaveClass(/series-state--on/);

  // Nobody is in the series yet: the letter's history says so.
  await page.getByTestId('letter-row').nth(1).click();
  await expect(page.getByTestId('letter-history-empty')).toHaveText('No one received the letter');

  const eva = { id: 8_000_000 + Math.floor(Math.random() * 900_000), first_name: 'Eva' };
  await request.post(`${FAKE}/control/bots/${bot.token}/messages`, { data: { from: eva, text: '/start' } });
  await expect.poll(async () => (await botMessages(request, bot, eva.id)).map((m) => m.text)).toEqual(['Welcome!']);

  // The scheduler picks her up within a second; then an hour passes, and another.
  await expect.poll(async () => ((await (await request.get(LETTERS_API.series(funnel.id), { headers })).json()) as Array<{ members_count: number }>)[0].members_count).toBe(1);
  await advanceHour(request, key);
  await expect.poll(async () => (await botMessages(request, bot, eva.id)).map((m) => m.text), { timeout: 15_000 }).toEqual(['Welcome!', 'Hi Eva!']);
  await advanceHour(request, key);
  await expect.poll(async () => (await botMessages(request, bot, eva.id)).map((m) => m.text), { timeout: 15_000 }).toEqual(['Welcome!', 'Hi Eva!', 'Still with us, Eva!']);
  await page.reload();
  await expect(page.getByTestId('letter-history-row')).toContainText('Sent');

  // From her screen she leaves the series by hand (and could be added again).
  const people = (await (await request.get(FUNNELS_API.people(funnel.id), { headers })).json()) as { results: Array<{ id: number }> };
  await page.goto(`/content/people/${people.results[0].id}/`);
  const row = page.getByTestId('person-series');
  await expect(row).toContainText('Gets its letters');
  await row.getByRole('button', { name: 'Remove' }).click();
  await expect(row).toContainText('Not in this series');
  await expect(page.getByText('Letter', { exact: true }).first()).toBeVisible();
});

test('an off series says why, and offers to switch itself on once a letter has a time', async ({ page, request }) => {
  const key = await signIn(page, request, 'series-off');
  const headers = { Authorization: `Token ${key}` };
  const bot = await fakeBot(request, 'e2e_series_off');
  const funnel = (await (await request.post(FUNNELS_API.funnels, { headers, data: { bot_token: bot.token } })).json()) as { id: number };
  const createSeries = async (name: string) =>
    (await (await request.post(LETTERS_API.series(funnel.id), { headers, data: { name, time_zone: 'UTC' } })).json()) as { id: number };
  const addLetter = async (seriesId: number, sendingTime: unknown, enabled: boolean) =>
    expect((await request.post(LETTERS_API.letters(seriesId), { headers, data: { name: 'Hello', message: { text: 'Hello', media_id: null, buttons: [] }, sending_time: sendingTime, enabled } })).ok()).toBe(true);
  const inAnHour = { kind: 'through', every: 1, unit: 'hours', time_of_day: null };

  // The funnel screen says the one series is off, and why.
  const warmUp = await createSeries('Warm-up');
  await page.goto(`/content/funnels/${funnel.id}/`);
  await expect(page.getByTestId('series-off-note')).toHaveText('1 series off: no letters yet');

  // Every reason an off series has, in the list.
  await addLetter((await createSeries('Untimed')).id, null, false);
  const switchedOff = await createSeries('Ready');
  await addLetter(switchedOff.id, inAnHour, true);
  await page.getByTestId('series-link').click();
  const row = (name: string) => page.getByTestId('series-row').filter({ hasText: name });
  await expect(row('Warm-up').getByTestId('series-why-off')).toHaveText('No letters yet');
  await expect(row('Untimed').getByTestId('series-why-off')).toHaveText('No letter has a sending time');
  await expect(row('Ready').getByTestId('series-why-off')).toHaveText('Switched off');
  await expect(row('Ready').getByTestId('series-row-state')).toHaveText('Off');

  // A series without a letter with a time makes no offer; the first timed letter brings one.
  await row('Warm-up').click();
  await expect(page.getByRole('heading', { name: 'Warm-up' })).toBeVisible();
  await expect(page.getByTestId('series-offer')).toHaveCount(0);
  await page.getByTestId('add-letter').click();
  await page.getByLabel('Letter name').fill('First');
  await typeMessage(page, ['Hi!']);
  await page.getByTestId('time-set').check();
  await page.getByTestId('time-unit').selectOption('hours');
  await page.getByTestId('save-letter').click();
  await expect(page.getByTestId('top-notice')).toHaveText('Letter saved. The series is off: switch it on so that new subscribers get its letters.');
  await expect(page.getByTestId('series-offer')).toContainText('Switch the series on: new subscribers will start getting its letters.');
  await page.getByTestId('series-offer-on').click();
  await expect(page.getByTestId('series-state')).toHaveText('The series is on');
  await expect(page.getByTestId('series-enabled')).toBeChecked();
  await expect(page.getByTestId('letter-state')).toHaveText('none sent');
  await expect(page.getByTestId('series-offer')).toHaveCount(0);
  expect(((await (await request.get(LETTERS_API.oneSeries(warmUp.id), { headers })).json()) as { enabled: boolean }).enabled).toBe(true);

  // Two series are still off, for different reasons: the funnel screen counts them.
  await page.goto(`/content/funnels/${funnel.id}/`);
  await expect(page.getByTestId('series-off-note')).toHaveText('2 series off');
});

test('the funnel screen says in Russian how many series are off', async ({ page, request }) => {
  const key = await signIn(page, request, 'series-off-ru');
  const headers = { Authorization: `Token ${key}` };
  const bot = await fakeBot(request, 'e2e_series_off_ru');
  const funnel = (await (await request.post(FUNNELS_API.funnels, { headers, data: { bot_token: bot.token } })).json()) as { id: number };
  for (const name of ['Один', 'Два']) await request.post(LETTERS_API.series(funnel.id), { headers, data: { name, time_zone: 'UTC' } });
  await page.context().addCookies([{ name: LANGUAGE_COOKIE, value: 'ru', url: BASE_URL }]);
  await page.goto(`/content/funnels/${funnel.id}/`);
  await expect(page.getByTestId('series-off-note')).toHaveText('2 серии выключены: писем пока нет');
});
