// A bot's health as its owner sees it: a funnel whose token was revoked offers "Replace the
// token" (not "Run again", which could only be refused), in the list and on its screen; a running
// funnel whose bot cannot reach Telegram says so, and since when, instead of "Running", and goes
// back to "Running" once Telegram answers again.
import { expect, test, type APIRequestContext } from './support/test';
import { FUNNELS_API } from '../contract/funnels';
import { FAKE, fakeBot, signIn, type FakeBot } from './support/builder';

async function runningFunnel(request: APIRequestContext, key: string, prefix: string): Promise<{ bot: FakeBot; funnelId: number }> {
  const headers = { Authorization: `Token ${key}` };
  const bot = await fakeBot(request, prefix);
  const funnel = (await (await request.post(FUNNELS_API.funnels, { headers, data: { bot_token: bot.token, name: 'Coffee Shop' } })).json()) as { id: number };
  const stage = (await (await request.post(FUNNELS_API.stages(funnel.id), { headers, data: { title: 'Welcome' } })).json()) as { id: number };
  const message = await request.put(FUNNELS_API.stageMessage(stage.id), { headers, data: { text: 'Hello!', media_id: null, buttons: [], next_button: null } });
  expect(message.ok(), await message.text()).toBe(true);
  const run = await request.post(FUNNELS_API.run(funnel.id), { headers });
  expect(run.ok(), await run.text()).toBe(true);
  return { bot, funnelId: funnel.id };
}

test('a funnel whose token was revoked offers "Replace the token", in the list and on its screen', async ({ page, request }) => {
  test.setTimeout(60_000);
  const key = await signIn(page, request, 'revoked');
  const { bot, funnelId } = await runningFunnel(request, key, 'e2e_revoked');
  await page.goto('/content/funnels/');
  const card = page.getByTestId('funnel-card').filter({ hasText: 'Coffee Shop' });
  await expect(card.getByTestId('funnel-state')).toHaveText('Running');

  // @BotFather → /revoke: the runtime meets the 401 and stops the funnel; the list shows it (it refreshes while a bot runs).
  await request.post(`${FAKE}/control/bots/${bot.token}/revoke`);
  await expect(card.getByTestId('funnel-state')).toHaveText('Token revoked', { timeout: 20_000 });
  await expect(card.getByRole('button', { name: 'Run again' })).toHaveCount(0);
  await card.getByRole('link', { name: 'Replace the token' }).click();
  await expect(page).toHaveURL(new RegExp(`/content/funnels/${funnelId}/token/$`));
  await expect(page.getByRole('heading', { name: 'Replace the token' })).toBeVisible();

  await page.goto(`/content/funnels/${funnelId}/`);
  await expect(page.getByTestId('funnel-state').first()).toHaveText('Token revoked');
  await expect(page.getByTestId('replace-token')).toHaveText('Replace the token');
  await expect(page.getByRole('button', { name: 'Run again' })).toHaveCount(0);
});

test('a running funnel that cannot reach Telegram says since when, and "Running" again once Telegram answers', async ({ page, request }) => {
  // The state shows after 45 s of failures alone (TELEGRAM_UNREACHABLE_AFTER_MS): a real wait.
  test.setTimeout(180_000);
  const key = await signIn(page, request, 'unreachable');
  const { bot, funnelId } = await runningFunnel(request, key, 'e2e_unreachable');
  await page.goto(`/content/funnels/${funnelId}/`);
  await expect(page.getByTestId('funnel-state').first()).toHaveText('Running');

  // Telegram answers 502 to every poll for 65 s; a person's /start ends the long poll under way.
  const outageBegan = new Date();
  const failures = await request.post(`${FAKE}/control/bots/${bot.token}/failures`, {
    data: { ms: 65_000, error_code: 502, description: 'Bad Gateway', methods: ['getUpdates'] },
  });
  expect(failures.ok(), await failures.text()).toBe(true);
  await request.post(`${FAKE}/control/bots/${bot.token}/messages`, { data: { from: { id: 7_100_001, first_name: 'Zoe' }, text: '/start' } });

  // As the app writes it (English: "7:12 PM"), in this machine's time zone (the browser's too).
  const since = new Intl.DateTimeFormat('en', { hour: 'numeric', minute: '2-digit' });
  // The minute the failures began (the first failed poll may fall in the next one).
  const minutes = [since.format(outageBegan), since.format(new Date(outageBegan.getTime() + 5_000))];
  const state = page.getByTestId('funnel-state').first();
  await expect(state).toHaveText(/^Can't reach Telegram since \d{1,2}:\d\d( [AP]M)?$/, { timeout: 70_000 });
  expect(minutes).toContain((await state.textContent())!.replace("Can't reach Telegram since ", ''));
  await expect(page.getByTestId('funnel-status-text')).toContainText("can't reach Telegram since");

  await page.goto('/content/funnels/');
  const card = page.getByTestId('funnel-card').filter({ hasText: 'Coffee Shop' });
  await expect(card.getByTestId('funnel-state')).toHaveText('No connection');
  await expect(card.getByTestId('funnel-health')).toHaveText(/^Can't reach Telegram since \d{1,2}:\d\d( [AP]M)?$/);
  // The panel's list of funnels says it too.
  await page.goto('/content/panel/');
  await expect(page.getByTestId('panel-funnel').filter({ hasText: 'Coffee Shop' })).toContainText('No connection');

  // Telegram is back: the first poll that gets through clears it.
  await page.goto(`/content/funnels/${funnelId}/`);
  await expect(state).toHaveText('Running', { timeout: 60_000 });
});
