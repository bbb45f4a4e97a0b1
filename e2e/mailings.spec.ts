// Mailings end to end, in Chromium against the real server and the fake Bot API (which enforces
// Telegram's rate limits): compose a mailing with a name chip to the people of one stage, see the
// pre-send check, send it, watch the progress reach 100 %, open a recipient's history; an empty
// audience is refused before the confirmation; a longer mailing is paused and resumed and every
// subscriber still gets it exactly once.
import { expect, test, type APIRequestContext } from './support/test';
import { FUNNELS_API } from '../contract/funnels';
import { botMessages, FAKE, fakeBot, signIn, typeMessage, type FakeBot } from './support/builder';

interface Setup {
  headers: Record<string, string>;
  bot: FakeBot;
  funnelId: number;
  stages: Array<{ id: number; title: string }>;
  people: Array<{ id: number; telegramId: number; name: string }>;
}

/** A running funnel with stages Welcome and Offer and `names.length` subscribers who pressed /start. */
async function runningFunnel(request: APIRequestContext, key: string, names: string[]): Promise<Setup> {
  const headers = { Authorization: `Token ${key}` };
  const bot = await fakeBot(request, 'e2e_mail');
  const funnel = (await (await request.post(FUNNELS_API.funnels, { headers, data: { bot_token: bot.token } })).json()) as { id: number };
  const stages: Setup['stages'] = [];
  for (const title of ['Welcome', 'Offer']) {
    const stage = (await (await request.post(FUNNELS_API.stages(funnel.id), { headers, data: { title } })).json()) as { id: number; title: string };
    await request.put(FUNNELS_API.stageMessage(stage.id), { headers, data: { text: `${title}!`, media_id: null, buttons: [], next_button: null } });
    stages.push(stage);
  }
  expect((await request.post(FUNNELS_API.run(funnel.id), { headers })).ok()).toBe(true);
  const base = 7_000_000 + Math.floor(Math.random() * 1_000_000) * 10;
  for (const [i, name] of names.entries()) {
    await request.post(`${FAKE}/control/bots/${bot.token}/messages`, { data: { from: { id: base + i, first_name: name }, text: '/start' } });
  }
  let people: Array<{ id: number; telegram_id: number; first_name: string }> = [];
  await expect
    .poll(
      async () => {
        people = ((await (await request.get(`${FUNNELS_API.people(funnel.id)}?limit=200`, { headers })).json()) as { results: typeof people }).results;
        return people.length;
      },
      { timeout: 30_000 },
    )
    .toBe(names.length);
  return { headers, bot, funnelId: funnel.id, stages, people: people.map((p) => ({ id: p.id, telegramId: p.telegram_id, name: p.first_name })) };
}

const mailingTexts = async (request: APIRequestContext, bot: FakeBot, chatId: number) =>
  (await botMessages(request, bot, chatId)).map((m) => m.text).filter((text) => text?.startsWith('Hi '));

test('a mailing to the people of one stage: check, send, 100 %, and the history', async ({ page, request }) => {
  test.setTimeout(120_000);
  const key = await signIn(page, request, 'mailing');
  const setup = await runningFunnel(request, key, ['Ann', 'Boris', 'Cleo']);
  const byName = (name: string) => setup.people.find((p) => p.name === name)!;
  const [ann, boris, cleo] = ['Ann', 'Boris', 'Cleo'].map(byName);
  // Ann and Cleo move on to the offer.
  for (const person of [ann, cleo]) {
    expect((await request.patch(FUNNELS_API.person(person.id), { headers: setup.headers, data: { stage_id: setup.stages[1].id } })).ok()).toBe(true);
  }

  await page.goto(`/content/funnels/${setup.funnelId}/`);
  await page.getByTestId('mailings-link').click();
  await expect(page.getByRole('heading', { name: 'Mailings', exact: true })).toBeVisible();
  await expect(page.getByText('No mailings yet')).toBeVisible();
  await page.getByTestId('new-mailing').click();
  await page.getByLabel('Title').fill('Offer reminder');
  await typeMessage(page, ['Hi ', { field: 'First name' }, ', the offer ends ', { bold: 'tonight' }, ' & that’s <3 hours away']);
  await expect(page.getByTestId('message-preview')).toContainText('the offer ends tonight & that’s <3 hours away');
  await expect(page.getByTestId('audience-count')).toHaveText('3 people will receive it');
  await page.getByTestId('audience-only').check({ force: true });
  await page.getByTestId(`audience-only-stages-${setup.stages[1].id}`).click();
  await expect(page.getByTestId('audience-count')).toHaveText('2 people will receive it');
  await page.getByTestId('save-mailing').click();
  await expect(page.getByRole('heading', { name: 'Offer reminder' })).toBeVisible();
  await expect(page.getByTestId('mailing-state')).toHaveText('Draft');

  await page.getByTestId('send-mailing').click();
  const dialog = page.getByRole('alertdialog');
  await expect(dialog.getByTestId('send-estimate')).toHaveText('2 people, under a minute at 29 messages a second.');
  await dialog.getByRole('button', { name: 'Send now' }).click();
  await expect(page.getByTestId('mailing-percent')).toHaveText('100%', { timeout: 30_000 });
  await expect(page.getByTestId('mailing-state')).toHaveText('Finished');
  await expect(page.getByTestId('progress-sent')).toHaveText('2 sent');

  expect(await mailingTexts(request, setup.bot, ann.telegramId)).toEqual(['Hi Ann, the offer ends tonight & that’s <3 hours away']);
  expect(await mailingTexts(request, setup.bot, cleo.telegramId)).toEqual(['Hi Cleo, the offer ends tonight & that’s <3 hours away']);
  expect(await mailingTexts(request, setup.bot, boris.telegramId)).toEqual([]);
  const bold = (await botMessages(request, setup.bot, ann.telegramId)).at(-1)?.entities?.find((e) => e.type === 'bold');
  expect(bold).toBeTruthy();

  // A recipient's row opens the person, whose history holds the mailing.
  await expect(page.getByTestId('recipient-row')).toHaveCount(2);
  await page.getByTestId('recipient-row').filter({ hasText: 'Ann' }).click();
  await expect(page.getByRole('heading', { name: 'Ann' })).toBeVisible();
  await expect(page.getByText('Hi Ann, the offer ends tonight')).toBeVisible();
});

test('an empty audience is refused on the confirmation itself', async ({ page, request }) => {
  const key = await signIn(page, request, 'mailempty');
  const setup = await runningFunnel(request, key, ['Dana']);
  const tag = (await (await request.post(FUNNELS_API.tags(setup.funnelId), { headers: setup.headers, data: { title: 'VIP' } })).json()) as { id: number };
  await page.goto(`/content/funnels/${setup.funnelId}/mailings/new/`);
  await page.getByLabel('Title').fill('VIP only');
  await typeMessage(page, ['Hi VIPs']);
  await page.getByTestId('audience-only').check({ force: true });
  await page.getByTestId(`audience-only-tags-${tag.id}`).click();
  await expect(page.getByTestId('audience-count')).toHaveText('Nobody would receive it');
  await page.getByTestId('save-mailing').click();
  await page.getByTestId('send-mailing').click();
  const dialog = page.getByRole('alertdialog');
  await expect(dialog.getByTestId('send-problems')).toContainText('Nobody would receive this mailing: the audience is empty.');
  await expect(dialog.getByRole('button', { name: 'Send now' })).toBeDisabled();
});

test('a mailing paused and resumed reaches everyone exactly once', async ({ page, request }) => {
  test.setTimeout(180_000);
  const key = await signIn(page, request, 'mailpause');
  const names = Array.from({ length: 90 }, (_, i) => `Sub${i}`);
  const setup = await runningFunnel(request, key, names);
  await page.goto(`/content/funnels/${setup.funnelId}/mailings/new/`);
  await page.getByLabel('Title').fill('Big news');
  await typeMessage(page, ['Hi ', { field: 'First name' }, '!']);
  await page.getByTestId('save-mailing').click();
  await page.getByTestId('send-mailing').click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Send now' }).click();
  await expect(page.getByTestId('mailing-state')).toHaveText('Sending');
  await page.getByTestId('pause-mailing').click();
  await expect(page.getByTestId('mailing-state')).toHaveText('Paused');
  await expect(page.getByTestId('progress-waiting')).toBeVisible();
  await page.getByTestId('resume-mailing').click();
  await expect(page.getByTestId('mailing-percent')).toHaveText('100%', { timeout: 60_000 });
  await expect(page.getByTestId('progress-sent')).toHaveText('90 sent');
  for (const person of setup.people) {
    expect(await mailingTexts(request, setup.bot, person.telegramId)).toEqual([`Hi ${person.name}!`]);
  }
});
