// Fields and asks end to end (issue 24, "ask and remember"): the owner creates an E-mail field on
// the Fields screen (its key suggested from the title), and a stage asks for it in the stage
// screen's sheet (the re-ask text prefilled); the funnel runs; a subscriber of the fake Bot API
// answers "not-an-email" and gets the re-ask text, then "anna@example.com" and moves on to a
// message that shows it; the owner sees it on the person's screen. Deleting the field asks first,
// naming the stage. Screenshots at 390 px (en and ru, light and dark) go to test-results/screens/fields-*.png.
import { AUTH_COOKIE, LANGUAGE_COOKIE } from '../contract/constants';
import { FUNNELS_API, type PeoplePage } from '../contract/funnels';
import { botMessages, FAKE, fakeBot, signIn } from './support/builder';
import { BASE_URL } from './support/env';
import { expect, test } from './support/test';

test('a stage asks for an e-mail: a wrong answer gets the re-ask text, a right one is kept and shown to the owner', async ({ page, request, context }) => {
  test.setTimeout(120_000);
  const key = await signIn(page, request, 'fields');
  const headers = { Authorization: `Token ${key}` };
  const bot = await fakeBot(request, 'e2e_fields');
  const funnel = (await (await request.post(FUNNELS_API.funnels, { headers, data: { bot_token: bot.token, name: 'Newsletter' } })).json()) as { id: number };
  const ids: number[] = [];
  for (const [title, text] of [['Ask', 'Your e-mail, please?'], ['Thanks', 'We will write to {e_mail}.']]) {
    const stage = (await (await request.post(FUNNELS_API.stages(funnel.id), { headers, data: { title } })).json()) as { id: number };
    await request.put(FUNNELS_API.stageMessage(stage.id), { headers, data: { text, media_id: null, buttons: [], next_button: null } });
    ids.push(stage.id);
  }
  const [askStage] = ids;

  // The owner creates the field from the funnel screen: the key follows the title.
  await page.goto(`/content/funnels/${funnel.id}/`);
  await page.getByTestId('fields-link').click();
  await expect(page.getByRole('heading', { name: 'Fields', exact: true })).toBeVisible();
  await page.getByTestId('field-create').click();
  const sheet = page.getByRole('alertdialog');
  await sheet.getByTestId('field-title').fill('E-mail');
  await expect(sheet.getByTestId('field-key')).toHaveValue('e_mail');
  await sheet.getByTestId('field-kind').selectOption('email');
  await sheet.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByTestId('field-row')).toHaveCount(1);
  await expect(page.getByTestId('field-row')).toContainText('E-mail');
  await expect(page.getByTestId('field-row')).toContainText('{e_mail} · E-mail');

  // The stage asks for it; the re-ask text starts in the owner's language.
  await page.goto(`/content/funnels/${funnel.id}/stages/${askStage}/`);
  await expect(page.getByTestId('stage-ask-summary')).toHaveText('Asks nothing');
  await page.getByTestId('stage-ask-edit').click();
  await sheet.getByTestId('ask-field').selectOption({ label: 'E-mail' });
  await expect(sheet.getByTestId('ask-reask')).toHaveValue("That doesn't look like an e-mail. Please try again.");
  await sheet.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByTestId('stage-ask-summary')).toHaveText('Asks for: E-mail');

  expect((await request.post(FUNNELS_API.run(funnel.id), { headers })).ok()).toBe(true);
  const anna = { id: 8_800_000 + Math.floor(Math.random() * 90_000), first_name: 'Anna' };
  const say = (text: string) => request.post(`${FAKE}/control/bots/${bot.token}/messages`, { data: { from: anna, text } });
  const received = async () => (await botMessages(request, bot, anna.id)).map((m) => m.text);
  await say('/start');
  await expect.poll(received).toEqual(['Your e-mail, please?']);
  await say('not-an-email');
  await expect.poll(received).toEqual(['Your e-mail, please?', "That doesn't look like an e-mail. Please try again."]);
  await say('anna@example.com');
  await expect.poll(received).toEqual(['Your e-mail, please?', "That doesn't look like an e-mail. Please try again.", 'We will write to anna@example.com.']);

  // The owner sees the answer on her screen.
  let people: PeoplePage | undefined;
  await expect.poll(async () => (people = (await (await request.get(FUNNELS_API.people(funnel.id), { headers })).json()) as PeoplePage).count).toBe(1);
  const personId = people!.results[0].id;
  await page.goto(`/content/people/${personId}/`);
  await expect(page.getByLabel('Value of “E-mail”')).toHaveValue('anna@example.com');

  // Screenshots: the Fields screen, its sheet, and the stage's ask.
  await page.setViewportSize({ width: 390, height: 844 });
  for (const language of ['en', 'ru'] as const) {
    for (const theme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: theme });
      await context.addCookies([
        { name: AUTH_COOKIE, value: key, url: BASE_URL },
        { name: LANGUAGE_COOKIE, value: language, url: BASE_URL },
      ]);
      await page.goto(`/content/funnels/${funnel.id}/fields/`);
      await expect(page.getByTestId('field-row')).toHaveCount(1);
      await page.screenshot({ animations: 'disabled', path: `test-results/screens/fields-list-${language}-${theme}.png` });
      await page.getByTestId('field-create').click();
      await sheet.getByTestId('field-title').fill(language === 'en' ? 'Plan' : 'Тариф');
      await sheet.getByTestId('field-kind').selectOption('choice');
      await page.screenshot({ animations: 'disabled', path: `test-results/screens/fields-sheet-${language}-${theme}.png` });
      await sheet.getByTestId('field-title').press('Escape');
      await page.goto(`/content/funnels/${funnel.id}/stages/${askStage}/`);
      await expect(page.getByTestId('stage-ask-summary')).toBeVisible();
      await page.getByTestId('stage-ask-edit').click();
      await page.screenshot({ animations: 'disabled', path: `test-results/screens/fields-ask-${language}-${theme}.png` });
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await context.addCookies([{ name: LANGUAGE_COOKIE, value: 'en', url: BASE_URL }]);

  // Deleting the field asks first, naming the stage that asks for it.
  await page.goto(`/content/funnels/${funnel.id}/fields/`);
  await page.getByRole('button', { name: 'Delete “E-mail”' }).click();
  await expect(page.getByTestId('field-delete-text')).toContainText('The stage “Ask” asks for it');
});
