// Templates end to end, in Chromium against the real server and the fake Bot API: an admin
// (ADMIN_EMAILS) publishes a funnel as a template with a cover; a second user opens the
// template's link signed out, signs in and comes back to it, adds it to their funnels, connects
// their own bot from the fake Bot API and runs it; a subscriber gets the template's first message;
// the publisher's figures count the funnel.
import { expect, test, type APIRequestContext } from './support/test';
import { FUNNELS_API } from '../contract/funnels';
import { createActiveUser, loginToken, newUser, type TestUser } from './support/api';
import { linkIn, waitForMail } from './support/mail';
import { botMessages, FAKE, fakeBot, signIn } from './support/builder';
import { AUTH_COOKIE } from '../contract/constants';
import { BASE_URL, E2E_ADMIN_EMAIL } from './support/env';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAYAAABytg0kAAAAFklEQVR4nGP8z8DwnwEIGBkZGBgYAAAeBwIBkWq2uAAAAABJRU5ErkJggg==',
  'base64',
);

/** The admin of ADMIN_EMAILS: made once per server, signed in again on a retry. */
async function adminToken(request: APIRequestContext): Promise<string> {
  const admin: TestUser = { ...newUser('admin'), email: E2E_ADMIN_EMAIL };
  const login = await request.post('/api/token/login/', { data: { email: admin.email, password: admin.password } });
  if (login.ok()) return ((await login.json()) as { auth_token: string }).auth_token;
  await createActiveUser(request, admin);
  return loginToken(request, admin);
}

test('an admin publishes a template; another user adds it, connects a bot, runs it, and a subscriber gets its first message', async ({ page, browser, request }) => {
  test.setTimeout(120_000);
  const adminKey = await adminToken(request);
  await page.context().addCookies([{ name: AUTH_COOKIE, value: adminKey, url: BASE_URL }]);
  const headers = { Authorization: `Token ${adminKey}` };
  const sourceBot = await fakeBot(request, 'e2e_tpl_source');
  const source = (await (await request.post(FUNNELS_API.funnels, { headers, data: { bot_token: sourceBot.token, name: 'Yoga course' } })).json()) as { id: number };
  const stage = (await (await request.post(FUNNELS_API.stages(source.id), { headers, data: { title: 'Welcome' } })).json()) as { id: number };
  await request.put(FUNNELS_API.stageMessage(stage.id), { headers, data: { text: 'Welcome to the <b>yoga course</b>, {first_name|friend}!', media_id: null, buttons: [], next_button: null } });

  // The admin publishes it from the templates screen, then sets its cover.
  await page.goto('/content/templates/');
  await page.getByTestId('new-template').click();
  await expect(page.getByRole('heading', { name: 'Create a funnel template for your affiliates' })).toBeVisible();
  await page.getByTestId('template-funnel').selectOption({ label: `Yoga course (@${sourceBot.username}, 1 stage)` });
  await page.getByLabel('Template name').fill('Yoga in 7 days');
  await page.getByLabel('Description').fill('A week of morning lessons for beginners');
  await page.getByTestId('publish-template').click();
  await expect(page.getByRole('heading', { name: 'Yoga in 7 days' })).toBeVisible();
  await expect(page.getByTestId('template-stage')).toHaveCount(1);
  await expect(page.getByTestId('message-preview')).toContainText('Welcome to the yoga course');
  await page.getByTestId('cover-input').setInputFiles({ name: 'cover.png', mimeType: 'image/png', buffer: PNG });
  await expect(page.locator('.template-cover--large img')).toBeVisible();
  const templateUrl = new URL(page.url()).pathname;
  expect(templateUrl).toMatch(/^\/templates\/\d+\/$/);

  // A new visitor opens the template's link: its card (cover, name, what it does), never a
  // "Welcome back"; sign up (the activation e-mail on the way), sign in, and they are back at it.
  const affiliate = newUser('affiliate');
  const context = await browser.newContext();
  const other = await context.newPage();
  await other.goto(templateUrl);
  await expect(other).toHaveURL(new RegExp(`${templateUrl}$`));
  await expect(other.getByRole('heading', { name: 'Yoga in 7 days' })).toBeVisible();
  await expect(other.getByText('A week of morning lessons for beginners')).toBeVisible();
  await expect(other.getByText('1 stage')).toBeVisible();
  await expect(other.locator('.template-cover--large img')).toBeVisible();
  await expect(other.getByText('Welcome back')).toHaveCount(0);
  await expect(other.getByRole('link', { name: 'I have an account — sign in' })).toBeVisible();
  await other.getByRole('link', { name: 'Sign up to add it' }).click();
  await expect(other).toHaveURL(/\/sign-up\/\?redirect=/);
  await other.getByLabel('First name').fill(affiliate.firstName);
  await other.getByLabel('Last name').fill(affiliate.lastName);
  await other.getByLabel('Email').fill(affiliate.email);
  await other.getByLabel('Password', { exact: true }).fill(affiliate.password);
  await other.getByLabel('Repeat password').fill(affiliate.password);
  const since = Date.now();
  await other.getByRole('button', { name: 'Sign up' }).click();
  await expect(other.getByRole('heading', { name: 'Check entered email' })).toBeVisible();
  await other.goto(linkIn(await waitForMail(affiliate.email, since, '/activate/'), '/activate/'));
  await other.getByRole('link', { name: 'Sign in' }).click();
  await other.getByLabel('Email').fill(affiliate.email);
  await other.getByLabel('Password', { exact: true }).fill(affiliate.password);
  await other.getByRole('button', { name: 'Sign in' }).click();
  await expect(other).toHaveURL(new RegExp(`${templateUrl}$`));
  await expect(other.getByRole('heading', { name: 'Yoga in 7 days' })).toBeVisible();
  await expect(other.getByText('A week of morning lessons for beginners')).toBeVisible();
  await expect(other.getByTestId('publish-version')).toHaveCount(0); // not the publisher

  // Add to my funnels: a draft without a bot, at 'Connect a bot'.
  await other.getByTestId('add-template').click();
  await expect(other.getByRole('heading', { name: 'Connect a bot' })).toBeVisible();
  const ownBot = await fakeBot(request, 'e2e_tpl_own');
  await other.getByLabel('Bot token').fill(ownBot.token);
  await other.getByRole('button', { name: 'Connect' }).click();
  await expect(other.getByRole('heading', { name: 'Yoga in 7 days' })).toBeVisible();
  await expect(other.getByText(`@${ownBot.username}`).first()).toBeVisible();
  await expect(other.getByTestId('funnel-template')).toContainText('Version 1 · up to date');

  await other.getByRole('button', { name: 'Run the bot' }).click();
  await other.getByRole('alertdialog', { name: 'Are you sure?' }).getByRole('button', { name: 'Run the bot' }).click();
  await expect(other.getByTestId('funnel-state').first()).toHaveText('Running');

  // A subscriber presses /start on the affiliate's bot and gets the template's first message.
  const subscriber = { id: 7_000_000 + Math.floor(Math.random() * 1_000_000), first_name: 'Nina', last_name: 'Ross', username: 'nina_r' };
  const sent = await request.post(`${FAKE}/control/bots/${ownBot.token}/messages`, { data: { from: subscriber, text: '/start' } });
  expect(sent.ok(), await sent.text()).toBe(true);
  await expect.poll(async () => (await botMessages(request, ownBot, subscriber.id)).map((m) => m.text), { timeout: 15_000 }).toContain('Welcome to the yoga course, Nina!');
  await context.close();

  // The publisher's figures count the funnel made from the template.
  await page.reload();
  await expect(page.getByTestId('template-added')).toHaveText('1');
  await expect(page.getByTestId('template-running')).toHaveText('1');
  await expect(page.getByTestId('template-people')).toHaveText('1');
});

test('an ordinary user sees templates but no way to publish one', async ({ page, request }) => {
  await signIn(page, request, 'tpl_user');
  await page.goto('/content/templates/');
  await expect(page.getByRole('heading', { name: 'Templates' })).toBeVisible();
  await expect(page.getByTestId('new-template')).toHaveCount(0);
});
