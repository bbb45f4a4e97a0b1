// Branches end to end: the owner gives a stage two choice buttons leading to two stages, in the
// message editor; the funnel runs; two subscribers of the fake Bot API press different buttons;
// the owner sees each person in their branch's stage and the split in the first stage's results.
// Deleting a stage a button leads to asks first, naming the button; the button then shows as
// broken, and the funnel can't run until it is fixed.
import { expect, test } from './support/test';
import { CHOICE_CALLBACK_PREFIX, FUNNELS_API } from '../contract/funnels';
import { botMessages, FAKE, fakeBot, signIn, type FakeMessage } from './support/builder';

test('a choice between two branches: two subscribers take different ones, and the results show the split', async ({ page, request }) => {
  test.setTimeout(90_000);
  const key = await signIn(page, request, 'branch');
  const headers = { Authorization: `Token ${key}` };
  const bot = await fakeBot(request, 'e2e_branch');
  const funnel = (await (await request.post(FUNNELS_API.funnels, { headers, data: { bot_token: bot.token } })).json()) as { id: number };
  const stageIds: number[] = [];
  for (const title of ['Choose', 'Basic', 'Pro']) {
    const stage = (await (await request.post(FUNNELS_API.stages(funnel.id), { headers, data: { title } })).json()) as { id: number };
    await request.put(FUNNELS_API.stageMessage(stage.id), { headers, data: { text: `${title}!`, media_id: null, buttons: [], next_button: null } });
    stageIds.push(stage.id);
  }

  // The owner adds the two choice buttons in the message editor, and sees them in the preview.
  await page.goto(`/content/funnels/${funnel.id}/stages/${stageIds[0]}/message/`);
  await expect(page.getByRole('heading', { name: 'Message' })).toBeVisible();
  await page.getByRole('button', { name: 'Add a choice button' }).click();
  await page.getByLabel('Text of choice button 1').fill('Basic course');
  await page.getByLabel('Stage of choice button 1').selectOption({ label: 'Basic' });
  await page.getByRole('button', { name: 'Add a choice button' }).click();
  await page.getByLabel('Text of choice button 2').fill('Pro course');
  await page.getByLabel('Stage of choice button 2').selectOption({ label: 'Pro' });
  await expect(page.getByTestId('message-preview')).toContainText('Basic course');
  await expect(page.getByTestId('message-preview')).toContainText('Pro course');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('heading', { name: 'Choose' })).toBeVisible();
  await expect(page.getByTestId('choice-targets')).toHaveText(/“Basic course” → Basic.*“Pro course” → Pro/);

  expect((await request.post(FUNNELS_API.run(funnel.id), { headers })).ok()).toBe(true);

  const base = 8_500_000 + Math.floor(Math.random() * 400_000);
  const ann = { id: base + 1, first_name: 'Ann' };
  const bob = { id: base + 2, first_name: 'Bob' };
  async function choose(subscriber: { id: number; first_name: string }, button: string, expected: string) {
    await request.post(`${FAKE}/control/bots/${bot.token}/messages`, { data: { from: subscriber, text: '/start' } });
    let first: FakeMessage | undefined;
    await expect.poll(async () => (first = (await botMessages(request, bot, subscriber.id))[0])?.text).toBe('Choose!');
    const pressed = first!.reply_markup!.inline_keyboard.flat().find((b) => b.text === button)!;
    expect(pressed.callback_data).toMatch(new RegExp(`^${CHOICE_CALLBACK_PREFIX}${stageIds[0]}:\\d+$`));
    await request.post(`${FAKE}/control/bots/${bot.token}/callback-queries`, { data: { from: subscriber, message_id: first!.message_id, callback_data: pressed.callback_data } });
    await expect.poll(async () => (await botMessages(request, bot, subscriber.id)).map((m) => m.text)).toEqual(['Choose!', expected]);
  }
  await choose(ann, 'Basic course', 'Basic!');
  await choose(bob, 'Pro course', 'Pro!');

  // Each person is in their branch's stage.
  await page.goto(`/content/funnels/${funnel.id}/stages/${stageIds[1]}/`);
  await expect(page.getByTestId('person-row')).toHaveCount(1);
  await expect(page.getByTestId('person-row')).toContainText('Ann');
  await page.goto(`/content/funnels/${funnel.id}/stages/${stageIds[2]}/`);
  await expect(page.getByTestId('person-row')).toHaveCount(1);
  await expect(page.getByTestId('person-row')).toContainText('Bob');

  // The results: from "Choose", one went to Basic and one to Pro, each by its button.
  await page.goto(`/content/funnels/${funnel.id}/`);
  const first = page.getByTestId('stage-result').first();
  await expect(first.getByTestId('stage-move')).toHaveText(['→ Basic: 1 by the button “Basic course”', '→ Pro: 1 by the button “Pro course”']);
  await expect(page.getByTestId('stage-result').getByTestId('stage-reached')).toHaveText(['2', '1', '1']);

  // Stopped, the owner deletes "Pro": the confirmation names the button that will break.
  expect((await request.post(FUNNELS_API.stop(funnel.id), { headers })).ok()).toBe(true);
  await page.goto(`/content/funnels/${funnel.id}/stages/${stageIds[2]}/`);
  await page.getByRole('button', { name: 'Delete the stage' }).click();
  await expect(page.getByTestId('delete-breaks-buttons')).toContainText('“Pro course” on “Choose”');
  await page.getByRole('alertdialog').getByRole('button', { name: 'Delete the stage' }).click();
  await expect(page.getByRole('heading', { name: 'Stages' })).toBeVisible();

  // The button is broken on the stage screen and in the editor, and the run is refused naming it.
  await page.goto(`/content/funnels/${funnel.id}/stages/${stageIds[0]}/`);
  await expect(page.getByTestId('choice-broken')).toHaveText('“Pro course” leads to a deleted stage');
  await page.goto(`/content/funnels/${funnel.id}/stages/${stageIds[0]}/message/`);
  await expect(page.getByTestId('choice-2-broken')).toHaveText('Leads to a deleted stage');
  await page.goto(`/content/funnels/${funnel.id}/`);
  await page.getByRole('button', { name: 'Run again' }).click();
  await expect(page.getByRole('alertdialog')).toContainText('The button “Pro course” leads to a deleted stage. Choose another stage for it.');
});
