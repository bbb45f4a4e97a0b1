// Authorization: TG <init data> — the Mini App signs in with Telegram's signed init data.
import { describe, expect, it } from 'vitest';
import { API } from '../../../contract/auth';
import { INIT_DATA_MAX_AGE_S } from '../../../contract/constants';
import { signInitData, type InitDataUser } from '../../../scripts/telegram/init-data';
import {
  createTestApp,
  expectJsonError,
  post,
  TEST_BOT_TOKEN,
  useTestApp,
} from '../../test/helpers';

const fixture = useTestApp();

let nextTelegramId = 700_000_001;
const tgUser = (extra: Partial<InitDataUser> = {}): InitDataUser => ({
  id: nextTelegramId++,
  first_name: 'Ivan',
  last_name: 'Petrov',
  username: 'ivan_p',
  language_code: 'en',
  photo_url: 'https://t.me/i/userpic/320/ivan.jpg',
  ...extra,
});
const nowS = () => Math.floor(fixture.app.clock.now().getTime() / 1000);
const sign = (user: InitDataUser, options: { authDate?: number; botToken?: string } = {}) =>
  signInitData({ botToken: options.botToken ?? TEST_BOT_TOKEN, user, authDate: options.authDate ?? nowS() });
const meWith = (initData: string, app = fixture.app.app) =>
  app.inject({ method: 'GET', url: API.me, headers: { authorization: `TG ${initData}` } });

/** "Start here" on the first open: the account of this identity exists from now on. */
async function startAs(user: InitDataUser) {
  const res = await post(fixture.app.app, API.telegramStart, { init_data: sign(user, { authDate: nowS() - 3 }) });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

const INVALID = { detail: 'Invalid Telegram init data.' };

describe('Authorization: TG <init data>', () => {
  it('once started, valid init data opens the active account of the Telegram user', async () => {
    const user = tgUser({ language_code: 'ru' });
    await startAs(user);
    const res = await meWith(sign(user));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      email: null,
      first_name: 'Ivan',
      last_name: 'Petrov',
      language: 'ru',
      is_active: true,
      telegram_id: user.id,
      telegram_username: 'ivan_p',
      telegram_photo_url: 'https://t.me/i/userpic/320/ivan.jpg',
    });
  });

  it('later calls find the same account and refresh username and photo, not names the user edited', async () => {
    const user = tgUser();
    await startAs(user);
    const first = (await meWith(sign(user))).json();
    // The user renames themself in the app.
    const renamed = await fixture.app.app.inject({
      method: 'PATCH',
      url: API.me,
      headers: { authorization: `TG ${sign(user, { authDate: nowS() - 1 })}` },
      payload: { first_name: 'Vanya' },
    });
    expect(renamed.json().first_name).toBe('Vanya');

    fixture.app.clock.advance(10);
    const changed = { ...user, username: 'ivan_new', photo_url: 'https://t.me/i/userpic/320/new.jpg', first_name: 'Telegram name' };
    const later = await meWith(sign(changed));
    expect(later.statusCode).toBe(200);
    expect(later.json()).toMatchObject({
      id: first.id,
      first_name: 'Vanya',
      telegram_username: 'ivan_new',
      telegram_photo_url: 'https://t.me/i/userpic/320/new.jpg',
    });
    const count = await fixture.app.db.query<{ n: number }>('select count(*)::int as n from users where telegram_id = $1', [user.id]);
    expect(count[0].n).toBe(1);
  });

  it('refuses tampered init data', async () => {
    const user = tgUser();
    const genuine = sign(user);
    const params = new URLSearchParams(genuine);
    params.set('user', JSON.stringify({ ...user, id: 1 }));
    const res = await meWith(params.toString());
    expect(expectJsonError(res, 401)).toEqual(INVALID);
    expect(res.headers['www-authenticate']).toBe('TG');

    const noHash = new URLSearchParams(genuine);
    noHash.delete('hash');
    expect(expectJsonError(await meWith(noHash.toString()), 401)).toEqual(INVALID);
    expect(expectJsonError(await meWith('garbage'), 401)).toEqual(INVALID);
    const bare = await fixture.app.app.inject({ method: 'GET', url: API.me, headers: { authorization: 'TG' } });
    expect(expectJsonError(bare, 401)).toEqual(INVALID);
  });

  it("refuses init data signed for another bot", async () => {
    const res = await meWith(sign(tgUser(), { botToken: '987654321:another-bot-token' }));
    expect(expectJsonError(res, 401)).toEqual(INVALID);
  });

  it('accepts init data up to 24 hours old and refuses older or from the future', async () => {
    const user = tgUser();
    await startAs(user);
    expect((await meWith(sign(user, { authDate: nowS() - INIT_DATA_MAX_AGE_S + 60 }))).statusCode).toBe(200);
    expect(expectJsonError(await meWith(sign(user, { authDate: nowS() - INIT_DATA_MAX_AGE_S - 1 })), 401)).toEqual(INVALID);
    expect(expectJsonError(await meWith(sign(user, { authDate: nowS() + 3600 })), 401)).toEqual(INVALID);
  });

  it('init data that worked goes stale after 24 hours, even if the server remembers it', async () => {
    const user = tgUser();
    await startAs(user);
    const initData = sign(user);
    expect((await meWith(initData)).statusCode).toBe(200);
    fixture.app.clock.advance(INIT_DATA_MAX_AGE_S + 1);
    try {
      expect(expectJsonError(await meWith(initData), 401)).toEqual(INVALID);
    } finally {
      fixture.app.clock.advance(-(INIT_DATA_MAX_AGE_S + 1));
    }
  });

  it('refuses everything when no service bot token is configured', async () => {
    const noBot = await createTestApp(fixture.db.db, { config: { telegramBotToken: null } });
    try {
      expect(expectJsonError(await meWith(sign(tgUser()), noBot.app), 401)).toEqual(INVALID);
    } finally {
      await noBot.close();
    }
  });

  it('a deactivated Telegram account is refused', async () => {
    const user = tgUser();
    const created = await startAs(user);
    await fixture.app.db.query('update users set is_active = false where id = $1', [created.id]);
    fixture.app.app.sessions.forgetUser(created.id);
    const res = await meWith(sign(user, { authDate: nowS() - 2 }));
    expect(expectJsonError(res, 401)).toEqual({ detail: 'User inactive or deleted.' });
  });

  it('a Telegram user can log out (204) and has no password to change', async () => {
    const user = tgUser();
    await startAs(user);
    const headers = { authorization: `TG ${sign(user)}` };
    expect((await post(fixture.app.app, API.logout, undefined, headers)).statusCode).toBe(204);
    const res = await post(fixture.app.app, API.setPassword, { current_password: 'anything-1', new_password: 'Brand-new-pass-7', re_new_password: 'Brand-new-pass-7' }, headers);
    expect(expectJsonError(res, 400)).toEqual({ current_password: ['Invalid password.'] });
  });
});
