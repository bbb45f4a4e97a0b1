// A stage that waits, end to end: the owner sets "after 1 minute, if they are still here, move
// them to Reminder" on the stage screen's Wait section; the funnel runs; a subscriber of the fake
// Bot API presses Start; their screen shows the timer; the test clock (TEST_CLOCK, tests only)
// moves on a minute; the subscriber gets Reminder's message (once) and the owner sees them there.
// Deleting Reminder asks first, naming the wait; the wait then shows as broken. Screenshots of the
// Wait section, its sheet and the person's timer at 390 px (en and ru, light and dark) go to
// test-results/screens/timers-*.png.
import type { Locator } from '@playwright/test';
import { AUTH_COOKIE, LANGUAGE_COOKIE } from '../contract/constants';
import { FUNNELS_API, type PeoplePage } from '../contract/funnels';
import { botMessages, FAKE, fakeBot, signIn } from './support/builder';
import { BASE_URL } from './support/env';
import { expect, test } from './support/test';

/** How many lines a button's words take (its text node's line boxes). */
const textLines = (button: Locator) =>
  button.evaluate((element) => {
    const text = [...element.childNodes].find((node) => node.nodeType === Node.TEXT_NODE && node.textContent?.trim());
    if (!text) return 0;
    const range = document.createRange();
    range.selectNodeContents(text);
    return range.getClientRects().length;
  });

test('a stage waits 1 minute: the clock moves on, the person gets the next message and the owner sees them there', async ({ page, request, context }) => {
  test.setTimeout(120_000);
  const key = await signIn(page, request, 'timers');
  const headers = { Authorization: `Token ${key}` };
  const bot = await fakeBot(request, 'e2e_timers');
  const funnel = (await (await request.post(FUNNELS_API.funnels, { headers, data: { bot_token: bot.token, name: 'Course' } })).json()) as { id: number };
  const ids: number[] = [];
  for (const [title, text] of [['Welcome', 'Welcome!'], ['Reminder', 'Still there?'], ['Offer', 'A discount for you']]) {
    const stage = (await (await request.post(FUNNELS_API.stages(funnel.id), { headers, data: { title } })).json()) as { id: number };
    await request.put(FUNNELS_API.stageMessage(stage.id), { headers, data: { text, media_id: null, buttons: [], next_button: null } });
    ids.push(stage.id);
  }
  const [welcome, reminder, offer] = ids;

  // The owner sets the wait in its sheet, and reads it back as a sentence.
  await page.goto(`/content/funnels/${funnel.id}/stages/${welcome}/`);
  await expect(page.getByTestId('stage-wait')).toContainText('People stay in this stage until they move on themselves.');
  await page.getByTestId('stage-wait-edit').click();
  const sheet = page.getByRole('alertdialog');
  await sheet.getByTestId('wait-amount').fill('1');
  await sheet.getByTestId('wait-unit').selectOption('minutes');
  await sheet.getByTestId('wait-stage').selectOption({ label: 'Reminder' });
  await page.screenshot({ path: 'test-results/screens/timers-sheet-en-light.png' });
  await sheet.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByTestId('stage-wait-summary')).toHaveText('After 1 minute, if they are still here, move them to “Reminder”.');

  expect((await request.post(FUNNELS_API.run(funnel.id), { headers })).ok()).toBe(true);
  const ann = { id: 8_900_000 + Math.floor(Math.random() * 90_000), first_name: 'Ann' };
  await request.post(`${FAKE}/control/bots/${bot.token}/messages`, { data: { from: ann, text: '/start' } });
  await expect.poll(async () => (await botMessages(request, bot, ann.id)).map((m) => m.text)).toEqual(['Welcome!']);

  // Her screen shows the timer.
  let people: PeoplePage | undefined;
  await expect.poll(async () => (people = (await (await request.get(FUNNELS_API.people(funnel.id), { headers })).json()) as PeoplePage).count).toBe(1);
  const personId = people!.results[0].id;
  await page.goto(`/content/people/${personId}/`);
  await expect(page.getByTestId('person-timer')).toHaveText('Moves to “Reminder” in 1 min');

  // A minute passes: she gets Reminder's message, once, and is in Reminder.
  expect((await request.post('/api/test/clock/', { headers, data: { advance_seconds: 60 } })).status()).toBe(204);
  await expect.poll(async () => (await botMessages(request, bot, ann.id)).map((m) => m.text), { timeout: 15_000 }).toEqual(['Welcome!', 'Still there?']);
  await page.goto(`/content/funnels/${funnel.id}/stages/${reminder}/`);
  await expect(page.getByTestId('person-row')).toHaveCount(1);
  await expect(page.getByTestId('person-row')).toContainText('Ann');
  await page.goto(`/content/people/${personId}/`);
  await expect(page.getByRole('heading', { name: 'Ann' })).toBeVisible();
  await expect(page.getByTestId('person-timers')).toHaveCount(0);
  expect((await botMessages(request, bot, ann.id)).map((m) => m.text)).toEqual(['Welcome!', 'Still there?']);

  // Screenshots: the Wait section, and a person's timer (a second subscriber, still waiting).
  const bob = { id: ann.id + 1, first_name: 'Bob' };
  await request.post(`${FAKE}/control/bots/${bot.token}/messages`, { data: { from: bob, text: '/start' } });
  await expect.poll(async () => ((await (await request.get(FUNNELS_API.people(funnel.id), { headers })).json()) as PeoplePage).count).toBe(2);
  const bobId = ((await (await request.get(FUNNELS_API.people(funnel.id), { headers })).json()) as PeoplePage).results.find((p) => p.first_name === 'Bob')!.id;
  await page.setViewportSize({ width: 390, height: 844 });
  for (const language of ['en', 'ru'] as const) {
    for (const theme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: theme });
      await context.addCookies([
        { name: AUTH_COOKIE, value: key, url: BASE_URL },
        { name: LANGUAGE_COOKIE, value: language, url: BASE_URL },
      ]);
      await page.goto(`/content/funnels/${funnel.id}/stages/${welcome}/`);
      await expect(page.getByTestId('stage-wait-summary')).toBeVisible();
      await page.getByTestId('stage-wait').scrollIntoViewIfNeeded();
      await page.screenshot({ path: `test-results/screens/timers-stage-${language}-${theme}.png` });
      // Each of the section's buttons keeps its words on one line at phone width (Russian is longer).
      expect(await textLines(page.getByTestId('stage-wait-edit'))).toBe(1);
      expect(await textLines(page.getByTestId('stage-wait-remove'))).toBe(1);
      await page.goto(`/content/funnels/${funnel.id}/stages/${offer}/`);
      await expect(page.getByTestId('stage-wait-edit')).toBeVisible();
      expect(await textLines(page.getByTestId('stage-wait-edit'))).toBe(1);
      await page.getByTestId('stage-wait').scrollIntoViewIfNeeded();
      await page.screenshot({ path: `test-results/screens/timers-stage-unset-${language}-${theme}.png` });
      await page.goto(`/content/people/${bobId}/`);
      await expect(page.getByTestId('person-timer')).toBeVisible();
      await page.screenshot({ path: `test-results/screens/timers-person-${language}-${theme}.png` });
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await context.addCookies([{ name: LANGUAGE_COOKIE, value: 'en', url: BASE_URL }]);

  // Stopped, the owner deletes Reminder: the confirmation names the wait that breaks, which then shows as broken.
  expect((await request.post(FUNNELS_API.stop(funnel.id), { headers })).ok()).toBe(true);
  await page.goto(`/content/funnels/${funnel.id}/stages/${reminder}/`);
  await page.getByRole('button', { name: 'Delete the stage' }).click();
  await expect(page.getByTestId('delete-breaks-waits')).toHaveText('The waits of these stages lead here and will break: “Welcome”.');
  await page.getByRole('alertdialog').getByRole('button', { name: 'Delete the stage' }).click();
  await expect(page.getByRole('heading', { name: 'Stages' })).toBeVisible();
  await page.goto(`/content/funnels/${funnel.id}/stages/${welcome}/`);
  await expect(page.getByTestId('stage-wait-broken')).toHaveText('After 1 minute this wait moves people to a deleted stage. Choose another stage for it.');
});
