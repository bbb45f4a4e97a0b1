// Traffic sources end to end, in Chromium against the real server and the fake Bot API: the owner
// makes two sources on the funnel's Sources screen and copies one's start link; two subscribers
// press Start through different links; the owner sees each person's source (the people list, the
// person's screen, the filter) and the results by source.
import { expect, test } from './support/test';
import { FUNNELS_API, type PeoplePage } from '../contract/funnels';
import { SOURCE_START_PREFIX } from '../contract/sources';
import { FAKE, fakeBot, signIn } from './support/builder';

test('sources: two start links, two subscribers, each one\'s source and the results by source', async ({ page, request, context }) => {
  test.setTimeout(120_000);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const key = await signIn(page, request, 'sources');
  const headers = { Authorization: `Token ${key}` };
  const bot = await fakeBot(request, 'e2e_src');
  const funnel = (await (await request.post(FUNNELS_API.funnels, { headers, data: { bot_token: bot.token, name: 'Course' } })).json()) as { id: number };
  const stage = (await (await request.post(FUNNELS_API.stages(funnel.id), { headers, data: { title: 'Welcome' } })).json()) as { id: number };
  await request.put(FUNNELS_API.stageMessage(stage.id), { headers, data: { text: 'Hi!', media_id: null, buttons: [], next_button: null } });
  expect((await request.post(FUNNELS_API.run(funnel.id), { headers })).ok()).toBe(true);

  // The funnel's screen leads to its sources; the owner adds two.
  await page.goto(`/content/funnels/${funnel.id}/`);
  await page.getByTestId('sources-link').click();
  await expect(page.getByRole('heading', { name: 'Sources', exact: true })).toBeVisible();
  for (const name of ['Instagram ad', 'Blog post']) {
    await page.getByLabel('Name', { exact: true }).fill(name);
    await page.getByRole('button', { name: 'Add the source' }).click();
    await expect(page.getByTestId('source-row').filter({ hasText: name })).toBeVisible();
  }
  const rows = page.getByTestId('source-row');
  await expect(rows).toHaveCount(2);
  const linkOf = async (name: string) => (await rows.filter({ hasText: name }).getByTestId('source-link').textContent())!.trim();
  const instagram = await linkOf('Instagram ad');
  const blog = await linkOf('Blog post');
  expect(instagram).toMatch(new RegExp(`^https://t\\.me/${bot.username}\\?start=${SOURCE_START_PREFIX}[A-Za-z0-9_-]+$`));
  expect(blog).not.toBe(instagram);

  // Copy puts the link on the clipboard.
  await rows.filter({ hasText: 'Instagram ad' }).getByTestId('source-copy').click();
  await expect(page.getByText('Link copied')).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(instagram);

  // Two subscribers press Start through the two links (Telegram sends "/start <payload>").
  const base = 8_500_000 + Math.floor(Math.random() * 100_000);
  const ann = { id: base + 1, first_name: 'Ann', last_name: 'Insta' };
  const bob = { id: base + 2, first_name: 'Bob', last_name: 'Reader' };
  for (const [from, link] of [
    [ann, instagram],
    [bob, blog],
  ] as const) {
    const payload = new URL(link).searchParams.get('start');
    const sent = await request.post(`${FAKE}/control/bots/${bot.token}/messages`, { data: { from, text: `/start ${payload}` } });
    expect(sent.ok(), await sent.text()).toBe(true);
  }
  await expect
    .poll(async () => ((await (await request.get(FUNNELS_API.people(funnel.id), { headers })).json()) as PeoplePage).results.filter((p) => p.source_id !== null).length, {
      timeout: 15_000,
    })
    .toBe(2);

  // The results by source: one person each, none without a source.
  await page.reload();
  const results = page.getByTestId('source-result');
  await expect(results).toHaveCount(3);
  await expect(results.filter({ hasText: 'Instagram ad' }).getByTestId('source-result-people')).toHaveText('1 person');
  await expect(results.filter({ hasText: 'Blog post' }).getByTestId('source-result-people')).toHaveText('1 person');
  await expect(results.filter({ hasText: 'No source' }).getByTestId('source-result-people')).toHaveText('0 people');
  await expect(results.filter({ hasText: 'Instagram ad' }).getByTestId('source-result-reached')).toHaveText(['1']);
  await page.getByRole('tab', { name: 'Today' }).click();
  await expect(page).toHaveURL(/period=today/);
  await expect(results.filter({ hasText: 'Blog post' }).getByTestId('source-result-people')).toHaveText('1 person');

  // The people list shows each one's source and filters by it.
  await page.goto(`/content/funnels/${funnel.id}/people/`);
  const people = page.getByTestId('person-row');
  await expect(people).toHaveCount(2);
  await expect(people.filter({ hasText: 'Ann Insta' })).toContainText('Instagram ad');
  await expect(people.filter({ hasText: 'Bob Reader' })).toContainText('Blog post');
  await page.getByTestId('people-source').selectOption({ label: 'Blog post' });
  await expect(people).toHaveCount(1);
  await expect(people).toContainText('Bob Reader');

  // The person's screen names the source, and the /start that brought them says so.
  await people.filter({ hasText: 'Bob Reader' }).click();
  await expect(page.getByTestId('person-source')).toHaveText('Blog post');
  await expect(page.getByTestId('history-source')).toHaveText('Came by the link “Blog post”');
});
