import { expect, test } from './support/test';
import { BASE_URL, FAKE_TELEGRAM_PORT, SERVICE_BOT_TOKEN } from './support/env';

const fake = `http://127.0.0.1:${FAKE_TELEGRAM_PORT}/control/bots/${encodeURIComponent(SERVICE_BOT_TOKEN)}`;

interface WebAppButton { text: string; web_app?: { url: string } }

test('the service bot opens the app from its menu button and answers /start with a button to it', async ({ request }) => {
  await expect
    .poll(async () => (await (await request.get(fake)).json()).result.default_menu_button)
    .toMatchObject({ type: 'web_app', web_app: { url: `${BASE_URL}/` } });

  const person = { id: 4242001, first_name: 'Ivan', language_code: 'ru', is_bot: false };
  const sent = await request.post(`${fake}/messages`, { data: { from: person, text: '/start' } });
  expect(sent.ok()).toBe(true);
  let replies: Array<{ text?: string; reply_markup?: { inline_keyboard: WebAppButton[][] } }> = [];
  await expect
    .poll(async () => {
      replies = (await (await request.get(`${fake}/chats/${person.id}/bot-messages`)).json()).result;
      return replies.length;
    })
    .toBeGreaterThan(0);
  const button = replies.at(-1)!.reply_markup!.inline_keyboard.flat()[0];
  expect(button.web_app?.url).toBe(`${BASE_URL}/`);
  // A Russian speaker is answered in Russian.
  expect(replies.at(-1)!.text).toMatch(/[А-Яа-я]/);
});
