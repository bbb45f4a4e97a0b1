// The first open from Telegram of an identity no account knows: the sign-in answers that it is
// new (no account is made), then "Start here" makes one, or "I already have an account" (e-mail
// and password, then the init data as proof) attaches the identity to the e-mail account.
import { describe, expect, it } from 'vitest';
import { API, TELEGRAM_UNKNOWN_CODE } from '../../../contract/auth';
import { FUNNELS_API } from '../../../contract/funnels';
import { INIT_DATA_MAX_AGE_S } from '../../../contract/constants';
import { signInitData, type InitDataUser } from '../../../scripts/telegram/init-data';
import { ACCOUNT_ERRORS } from '../../accounts/errors';
import { auth, expectJsonError, post, signedInUser, TEST_BOT_TOKEN, useTestApp } from '../../test/helpers';

const fixture = useTestApp();
let nextTelegramId = 720_000_001;
const tgUser = (extra: Partial<InitDataUser> = {}): InitDataUser => ({ id: nextTelegramId++, first_name: 'Nina', username: 'nina_tg', language_code: 'ru', ...extra });
const nowS = () => Math.floor(fixture.app.clock.now().getTime() / 1000);
let tick = 0;
/** Fresh init data each call (the session cache keys on the raw string). */
const initDataOf = (user: InitDataUser, authDate = nowS() - (tick++ % 50)) => signInitData({ botToken: TEST_BOT_TOKEN, user, authDate });
const tg = (initData: string) => ({ authorization: `TG ${initData}` });
const me = (headers: Record<string, string>) => fixture.app.app.inject({ method: 'GET', url: API.me, headers });
const usersWithTelegramId = async (id: number) =>
  (await fixture.app.db.query<{ n: number }>('select count(*)::int as n from users where telegram_id = $1', [id]))[0].n;

/** An e-mail account with one funnel (made straight in the database: no bot needed). */
async function emailAccountWithFunnel() {
  const account = await signedInUser(fixture.app);
  await fixture.app.db.query(
    `insert into funnels (owner_id, name, bot_token_encrypted, bot_token_hash, bot_token_hint, bot_id, bot_username) values ($1, 'Spring sale', 'x', $2, 'h', 1, 'spring_bot')`,
    [account.id, `hash-first-open-${account.id}`],
  );
  return account;
}

describe('first open from Telegram', () => {
  it('an identity no account knows is answered as new, and no account is made for it', async () => {
    const telegram = tgUser();
    const res = await me(tg(initDataOf(telegram)));
    expect(expectJsonError(res, 401)).toEqual({ detail: ACCOUNT_ERRORS.telegramUnknown, code: TELEGRAM_UNKNOWN_CODE });
    // Any other call with it is refused the same way, and still makes no account.
    expect(expectJsonError(await fixture.app.app.inject({ method: 'GET', url: FUNNELS_API.funnels, headers: tg(initDataOf(telegram)) }), 401)).toMatchObject({ code: TELEGRAM_UNKNOWN_CODE });
    expect(await usersWithTelegramId(telegram.id)).toBe(0);
  });

  it('"Start here" makes a new account for the identity, which Telegram then opens straight away', async () => {
    const telegram = tgUser({ last_name: 'Orlova' });
    const started = await post(fixture.app.app, API.telegramStart, { init_data: initDataOf(telegram) });
    expect(started.statusCode, started.body).toBe(201);
    expect(started.json()).toMatchObject({ email: null, first_name: 'Nina', last_name: 'Orlova', language: 'ru', is_active: true, telegram_id: telegram.id });
    const opened = await me(tg(initDataOf(telegram)));
    expect(opened.statusCode, opened.body).toBe(200);
    expect(opened.json()).toMatchObject({ id: started.json().id, telegram_id: telegram.id });
    expect(await usersWithTelegramId(telegram.id)).toBe(1);
  });

  it('"I already have an account": after the e-mail sign-in the identity is attached, and Telegram opens that account with its funnels', async () => {
    const account = await emailAccountWithFunnel();
    const telegram = tgUser();
    const initData = initDataOf(telegram);
    expect(expectJsonError(await me(tg(initData)), 401)).toMatchObject({ code: TELEGRAM_UNKNOWN_CODE });

    const attached = await post(fixture.app.app, API.telegramAttach, { init_data: initData }, auth(account.key));
    expect(attached.statusCode, attached.body).toBe(200);
    expect(attached.json()).toMatchObject({ id: account.id, email: account.email, telegram_id: telegram.id, telegram_username: 'nina_tg' });

    const opened = await me(tg(initDataOf(telegram)));
    expect(opened.statusCode, opened.body).toBe(200);
    expect(opened.json()).toMatchObject({ id: account.id, email: account.email });
    const funnels = await fixture.app.app.inject({ method: 'GET', url: FUNNELS_API.funnels, headers: tg(initDataOf(telegram)) });
    expect(funnels.statusCode, funnels.body).toBe(200);
    expect(JSON.stringify(funnels.json())).toContain('Spring sale');
    expect(await usersWithTelegramId(telegram.id)).toBe(1);
  });

  it('an identity already linked to an account is a clear 400, for "Start here" and for attaching it elsewhere (a replayed proof too)', async () => {
    const telegram = tgUser();
    const initData = initDataOf(telegram);
    expect((await post(fixture.app.app, API.telegramStart, { init_data: initData })).statusCode).toBe(201);
    // The same proof again makes no second account.
    expect(expectJsonError(await post(fixture.app.app, API.telegramStart, { init_data: initData }), 400)).toEqual({ detail: ACCOUNT_ERRORS.telegramKnown });

    const other = await signedInUser(fixture.app);
    const refused = await post(fixture.app.app, API.telegramAttach, { init_data: initData }, auth(other.key));
    expect(expectJsonError(refused, 400)).toEqual({ detail: ACCOUNT_ERRORS.telegramKnown });
    expect((await me(auth(other.key))).json()).toMatchObject({ telegram_id: null });

    // An e-mail account with a Telegram identity of its own does not take a second one.
    const linked = await signedInUser(fixture.app);
    expect((await post(fixture.app.app, API.telegramAttach, { init_data: initDataOf(tgUser()) }, auth(linked.key))).statusCode).toBe(200);
    const second = tgUser();
    expect(expectJsonError(await post(fixture.app.app, API.telegramAttach, { init_data: initDataOf(second) }, auth(linked.key)), 400)).toEqual({ non_field_errors: [ACCOUNT_ERRORS.otherTelegram] });
    expect(await usersWithTelegramId(second.id)).toBe(0);
  });

  it('an expired, forged or missing proof is refused and changes nothing', async () => {
    const telegram = tgUser();
    const expired = initDataOf(telegram, nowS() - INIT_DATA_MAX_AGE_S - 1);
    const invalid = { init_data: [ACCOUNT_ERRORS.invalidInitData] };
    expect(expectJsonError(await post(fixture.app.app, API.telegramStart, { init_data: expired }), 400)).toEqual(invalid);
    const account = await signedInUser(fixture.app);
    expect(expectJsonError(await post(fixture.app.app, API.telegramAttach, { init_data: expired }, auth(account.key)), 400)).toEqual(invalid);
    const forged = new URLSearchParams(initDataOf(telegram));
    forged.set('user', JSON.stringify({ ...telegram, id: 1 }));
    expect(expectJsonError(await post(fixture.app.app, API.telegramStart, { init_data: forged.toString() }), 400)).toEqual(invalid);
    expect(expectJsonError(await post(fixture.app.app, API.telegramStart, {}), 400)).toHaveProperty('init_data');
    // Attaching needs the e-mail account's session.
    expect((await post(fixture.app.app, API.telegramAttach, { init_data: initDataOf(telegram) })).statusCode).toBe(401);
    expect(await usersWithTelegramId(telegram.id)).toBe(0);
    expect((await me(auth(account.key))).json()).toMatchObject({ telegram_id: null });
  });
});
