// Fields in audiences (issue 24, "used in segments and mailing audiences"), in Chromium against the
// real server and the fake Bot API. A funnel with a City (text) and a Plan (choice) field and four
// subscribers with different values. A segment saved from the contacts filtered by "has City" says
// so on its screen; its field condition is changed there (City equals "moscow", then "has Plan")
// and its count and its people follow. A mailing's audience takes two field conditions (added,
// removed, added again): the count follows, the mailing and its send confirmation say both, and
// only the one person matching both gets it.
import type { APIRequestContext, Page } from '@playwright/test';
import { FIELDS_API } from '../contract/fields';
import { FUNNELS_API, type PeoplePage } from '../contract/funnels';
import { botMessages, FAKE, fakeBot, signIn, typeMessage, type FakeBot } from './support/builder';
import { expect, test } from './support/test';

interface FieldsFunnel {
  funnelId: number;
  bot: FakeBot;
  /** The subscribers' Telegram ids by first name. */
  chats: Record<'Ann' | 'Boris' | 'Cleo' | 'Dan', number>;
}

/** Ann: Moscow, Pro · Boris: Paris, Pro · Cleo: Moscow, Basic · Dan: nothing. */
async function fieldsFunnel(page: Page, request: APIRequestContext, prefix: string): Promise<FieldsFunnel> {
  const key = await signIn(page, request, prefix);
  const headers = { Authorization: `Token ${key}` };
  const bot = await fakeBot(request, `e2e_${prefix}`);
  const funnel = (await (await request.post(FUNNELS_API.funnels, { headers, data: { bot_token: bot.token, name: 'Courses' } })).json()) as { id: number };
  const stage = (await (await request.post(FUNNELS_API.stages(funnel.id), { headers, data: { title: 'Welcome' } })).json()) as { id: number };
  await request.put(FUNNELS_API.stageMessage(stage.id), { headers, data: { text: 'Welcome!', media_id: null, buttons: [], next_button: null } });
  const createField = async (data: object) => {
    const res = await request.post(FIELDS_API.fields(funnel.id), { headers, data });
    expect(res.status(), await res.text()).toBe(201);
    return ((await res.json()) as { id: number }).id;
  };
  const city = await createField({ title: 'City', kind: 'text' });
  const plan = await createField({ title: 'Plan', kind: 'choice', options: ['Basic', 'Pro'] });
  expect((await request.post(FUNNELS_API.run(funnel.id), { headers })).ok()).toBe(true);

  const base = 7_100_000 + Math.floor(Math.random() * 100_000) * 10;
  const chats = { Ann: base + 1, Boris: base + 2, Cleo: base + 3, Dan: base + 4 };
  for (const [first_name, id] of Object.entries(chats)) await request.post(`${FAKE}/control/bots/${bot.token}/messages`, { data: { from: { id, first_name }, text: '/start' } });
  let people: PeoplePage | undefined;
  await expect.poll(async () => (people = (await (await request.get(FUNNELS_API.people(funnel.id), { headers })).json()) as PeoplePage).count, { timeout: 30_000 }).toBe(4);
  const personId = (name: string) => people!.results.find((p) => p.first_name === name)!.id;
  const values: Array<[string, number, string]> = [
    ['Ann', city, 'Moscow'],
    ['Ann', plan, 'Pro'],
    ['Boris', city, 'Paris'],
    ['Boris', plan, 'Pro'],
    ['Cleo', city, 'Moscow'],
    ['Cleo', plan, 'Basic'],
  ];
  for (const [name, fieldId, value] of values) {
    const res = await request.put(FIELDS_API.personField(personId(name), fieldId), { headers, data: { value } });
    expect(res.ok(), await res.text()).toBe(true);
  }
  return { funnelId: funnel.id, bot, chats };
}

test('a segment with a field condition: said in words, changed on its screen, its count and people follow', async ({ page, request }) => {
  test.setTimeout(120_000);
  await fieldsFunnel(page, request, 'segfield');

  // Saved from the contacts filtered by "has City".
  await page.goto('/content/contacts/');
  await page.getByTestId('contacts-funnel').selectOption({ label: 'Courses' });
  await expect(page.getByTestId('contact-row')).toHaveCount(4);
  await page.getByTestId('contacts-filter-field').selectOption({ label: 'Has “City”' });
  await expect(page.getByTestId('contact-row')).toHaveCount(3);
  await page.getByTestId('save-segment').click();
  const dialog = page.getByRole('alertdialog');
  await dialog.getByTestId('list-name').fill('City people');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('heading', { name: 'City people' })).toBeVisible();
  await expect(page.getByTestId('list-count')).toHaveText('3');
  await expect(page.getByTestId('list-filter-words')).toHaveText('funnel Courses · field “City” filled in');
  await expect(page.getByTestId('list-filter-field')).toHaveValue(/\d+/);

  // Narrowed on the segment's screen to one value (any case): Ann and Cleo.
  await page.getByTestId('list-filter-value').fill('moscow');
  await expect(page.getByTestId('list-filter-words')).toHaveText('funnel Courses · “City” is moscow');
  await expect(page.getByTestId('list-count')).toHaveText('2');
  await page.reload();
  await expect(page.getByTestId('list-filter-words')).toHaveText('funnel Courses · “City” is moscow');
  await expect(page.getByTestId('list-filter-value')).toHaveValue('moscow');
  await page.getByTestId('list-people').click();
  await expect(page.getByTestId('contact-row')).toHaveCount(2);
  await expect(page.getByTestId('contact-row').filter({ hasText: 'Ann' })).toHaveCount(1);
  await expect(page.getByTestId('contact-row').filter({ hasText: 'Cleo' })).toHaveCount(1);

  // Another field: "has Plan" is Ann, Boris and Cleo; Plan "Pro" is Ann and Boris.
  await page.goBack();
  await page.getByTestId('list-filter-field').selectOption({ label: 'Has “Plan”' });
  await expect(page.getByTestId('list-filter-words')).toHaveText('funnel Courses · field “Plan” filled in');
  await expect(page.getByTestId('list-count')).toHaveText('3');
  await page.getByTestId('list-filter-value').selectOption('Pro');
  await expect(page.getByTestId('list-filter-words')).toHaveText('funnel Courses · “Plan” is Pro');
  await expect(page.getByTestId('list-count')).toHaveText('2');
  await page.getByTestId('list-people').click();
  await expect(page.getByTestId('contact-row')).toHaveCount(2);
  await expect(page.getByTestId('contact-row').filter({ hasText: 'Boris' })).toHaveCount(1);
});

test('a mailing to two field conditions: the count follows, both are said, only who matches both gets it', async ({ page, request }) => {
  test.setTimeout(120_000);
  const { funnelId, bot, chats } = await fieldsFunnel(page, request, 'mailfield');

  await page.goto(`/content/funnels/${funnelId}/mailings/new/`);
  await page.getByTestId('mailing-title').fill('Moscow Pro');
  await typeMessage(page, ['Hi Moscow Pro']);
  await expect(page.getByTestId('audience-count')).toHaveText('4 people will receive it');
  await page.getByTestId('audience-only').check({ force: true });
  await page.getByTestId('audience-field').selectOption({ label: 'Has “City”' });
  await page.getByTestId('audience-value').fill('Moscow');
  await expect(page.getByTestId('audience-count')).toHaveText('2 people will receive it');

  // A second condition: the first field is not offered again.
  await page.getByTestId('audience-field-add').click();
  await expect(page.getByTestId('audience-2-field').locator('option', { hasText: 'City' })).toHaveCount(0);
  await page.getByTestId('audience-2-field').selectOption({ label: 'Has “Plan”' });
  await expect(page.getByTestId('audience-words')).toHaveText('Audience: “City” is “Moscow” and with field “Plan”');
  await page.getByTestId('audience-2-value').selectOption('Pro');
  await expect(page.getByTestId('audience-words')).toHaveText('Audience: “City” is “Moscow” and “Plan” is “Pro”');
  await expect(page.getByTestId('audience-count')).toHaveText('1 person will receive it');

  // Removing the first leaves the second alone (Ann and Boris); adding it back narrows again.
  await page.getByTestId('audience-field-remove-1').click();
  await expect(page.getByTestId('audience-words')).toHaveText('Audience: “Plan” is “Pro”');
  await expect(page.getByTestId('audience-count')).toHaveText('2 people will receive it');
  await page.getByTestId('audience-field-add').click();
  await page.getByTestId('audience-2-field').selectOption({ label: 'Has “City”' });
  await page.getByTestId('audience-2-value').fill('moscow');
  await expect(page.getByTestId('audience-count')).toHaveText('1 person will receive it');
  const words = '“Plan” is “Pro” and “City” is “moscow”';
  await expect(page.getByTestId('audience-words')).toHaveText(`Audience: ${words}`);

  await page.getByTestId('save-mailing').click();
  await expect(page.getByRole('heading', { name: 'Moscow Pro' })).toBeVisible();
  await expect(page.getByTestId('mailing-audience')).toHaveText(`Audience: ${words}`);
  await page.getByTestId('send-mailing').click();
  const dialog = page.getByRole('alertdialog');
  await expect(dialog.getByTestId('send-audience')).toHaveText(`Audience: ${words}`);
  await dialog.getByRole('button', { name: 'Send now' }).click();
  await expect(page.getByTestId('progress-sent')).toHaveText('1 sent', { timeout: 30_000 });
  const got = async (chat: number) => (await botMessages(request, bot, chat)).some((m) => m.text === 'Hi Moscow Pro');
  expect(await got(chats.Ann)).toBe(true);
  for (const chat of [chats.Boris, chats.Cleo, chats.Dan]) expect(await got(chat)).toBe(false);

  // The list of mailings says it too.
  await page.goto(`/content/funnels/${funnelId}/mailings/`);
  await expect(page.getByTestId('mailing-card-audience')).toHaveText(`Audience: ${words}`);
});
