// What the e2e specs of the builder share: bots made in the fake Bot API, what they sent, a
// signed-in user, and typing into the message editor.
import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { AUTH_COOKIE } from '../../contract/constants';
import { BASE_URL, FAKE_TELEGRAM_PORT } from './env';
import { createActiveUser, loginToken, newUser } from './api';

export const FAKE = `http://127.0.0.1:${FAKE_TELEGRAM_PORT}`;

export interface FakeBot {
  token: string;
  username: string;
}

export async function fakeBot(request: APIRequestContext, prefix: string): Promise<FakeBot> {
  const username = `${prefix}_${Date.now().toString(36)}${Math.floor(Math.random() * 1000)}_bot`;
  const res = await request.post(`${FAKE}/control/bots`, { data: { username, first_name: 'Coffee Shop' } });
  expect(res.status(), await res.text()).toBe(201);
  return ((await res.json()) as { result: FakeBot }).result;
}

export interface FakeMessage {
  message_id: number;
  text?: string;
  entities?: Array<{ type: string; offset: number; length: number }>;
  reply_markup?: { inline_keyboard: Array<Array<{ text: string; callback_data?: string; url?: string }>> };
}

export async function botMessages(request: APIRequestContext, bot: FakeBot, chatId: number): Promise<FakeMessage[]> {
  const res = await request.get(`${FAKE}/control/bots/${bot.token}/chats/${chatId}/bot-messages`);
  if (!res.ok()) return [];
  return ((await res.json()) as { result: FakeMessage[] }).result;
}

export async function signIn(page: Page, request: APIRequestContext, prefix: string): Promise<string> {
  const user = await createActiveUser(request, newUser(prefix));
  const token = await loginToken(request, user);
  await page.context().addCookies([{ name: AUTH_COOKIE, value: token, url: BASE_URL }]);
  return token;
}

export const stageRows = (page: Page) => page.getByTestId('stage-row');
export const stageCounts = async (page: Page) => (await page.getByTestId('stage-people').allTextContents()).map(Number);

/** What is typed into the message editor: plain text, bold text, or a personalisation chip. */
export type Segment = string | { bold: string } | { field: 'First name' | 'Last name' | 'Username' };

export async function typeMessage(page: Page, segments: Segment[]) {
  await page.getByRole('textbox', { name: 'Text', exact: true }).click();
  for (const segment of segments) {
    if (typeof segment === 'string') await page.keyboard.type(segment);
    else if ('bold' in segment) {
      await page.getByRole('button', { name: 'Bold' }).click();
      await page.keyboard.type(segment.bold);
      await page.getByRole('button', { name: 'Bold' }).click();
    } else {
      await page.getByRole('button', { name: '{ } Name' }).click();
      await page.getByRole('button', { name: segment.field, exact: true }).click();
    }
  }
}

