// One account in Telegram and in the browser: an e-mail user links their Telegram identity by
// signing in once inside the Mini App; a Telegram identity opens one account only; a
// Telegram-first user adds an e-mail and a password; unlinking keeps a way to sign in. Also: a
// sign-in to an account that is not activated says so; a reset link is checked before its form.
import { describe, expect, it } from 'vitest';
import { API } from '../../../contract/auth';
import { FUNNELS_API } from '../../../contract/funnels';
import { signInitData, type InitDataUser } from '../../../scripts/telegram/init-data';
import { ACCOUNT_ERRORS } from '../../accounts/errors';
import { auth, expectJsonError, GOOD_PASSWORD, linkIn, linkParts, login, post, register, signedInUser, TEST_BOT_TOKEN, uniqueEmail, useTestApp } from '../../test/helpers';

const fixture = useTestApp();
let nextTelegramId = 710_000_001;
const tgUser = (extra: Partial<InitDataUser> = {}): InitDataUser => ({ id: nextTelegramId++, first_name: 'Olga', username: 'olga_tg', language_code: 'ru', ...extra });
const nowS = () => Math.floor(fixture.app.clock.now().getTime() / 1000);
let tick = 0;
/** Fresh init data each call (the cache keys on the raw string). */
const tg = (user: InitDataUser) => ({ authorization: `TG ${signInitData({ botToken: TEST_BOT_TOKEN, user, authDate: nowS() - (tick++ % 50) })}` });
const me = (headers: Record<string, string>) => fixture.app.app.inject({ method: 'GET', url: API.me, headers });
/** "Start here" on the first open from Telegram: the identity gets an account of its own. */
async function started(user: InitDataUser): Promise<void> {
  const res = await post(fixture.app.app, API.telegramStart, { init_data: signInitData({ botToken: TEST_BOT_TOKEN, user, authDate: nowS() - 5 }) });
  expect(res.statusCode, res.body).toBe(201);
}

describe('linking a Telegram identity to an e-mail account', () => {
  it('signing in once inside the Mini App makes Telegram open the e-mail account, with its funnels', async () => {
    const account = await signedInUser(fixture.app);
    const telegram = tgUser();
    // First open from Telegram: they chose "Start here", an empty Telegram account.
    await started(telegram);
    const first = (await me(tg(telegram))).json();
    expect(first).toMatchObject({ email: null, telegram_id: telegram.id });

    const wrong = await post(fixture.app.app, API.telegramLink, { email: account.email, password: 'not-it-123' }, tg(telegram));
    expect(expectJsonError(wrong, 400)).toEqual({ non_field_errors: ['Unable to log in with provided credentials.'] });
    const linked = await post(fixture.app.app, API.telegramLink, { email: account.email.toUpperCase(), password: GOOD_PASSWORD }, tg(telegram));
    expect(linked.statusCode, linked.body).toBe(200);
    expect(linked.json()).toMatchObject({ id: account.id, email: account.email, telegram_id: telegram.id, telegram_username: 'olga_tg' });
    // From now on Telegram opens the e-mail account.
    expect((await me(tg(telegram))).json()).toMatchObject({ id: account.id, email: account.email });
    // The empty Telegram account is gone, not left behind.
    expect((await me(auth(account.key))).json()).toMatchObject({ telegram_id: telegram.id });
  });

  it('refuses clearly: a Telegram identity with funnels of its own, or an account linked to another Telegram', async () => {
    const account = await signedInUser(fixture.app);
    const busy = tgUser();
    await started(busy);
    // This Telegram identity's own account has a funnel (it can't be moved or merged).
    const funnels = await fixture.app.app.inject({ method: 'GET', url: FUNNELS_API.funnels, headers: tg(busy) });
    expect(funnels.statusCode).toBe(200);
    const ownId = (await me(tg(busy))).json().id as number;
    await fixture.app.db.orm.execute(`insert into funnels (owner_id, name, bot_token_encrypted, bot_token_hash, bot_token_hint, bot_id, bot_username) values (${ownId}, 'Own', 'x', 'hash-${ownId}', 'h', 1, 'own_bot')`);
    const refused = await post(fixture.app.app, API.telegramLink, { email: account.email, password: GOOD_PASSWORD }, tg(busy));
    expect(expectJsonError(refused, 400)).toEqual({ non_field_errors: [ACCOUNT_ERRORS.telegramTaken] });

    // The e-mail account takes a first Telegram identity, then refuses a second one.
    const first = tgUser();
    await started(first);
    expect((await post(fixture.app.app, API.telegramLink, { email: account.email, password: GOOD_PASSWORD }, tg(first))).statusCode).toBe(200);
    const second = tgUser();
    await started(second);
    const again = await post(fixture.app.app, API.telegramLink, { email: account.email, password: GOOD_PASSWORD }, tg(second));
    expect(expectJsonError(again, 400)).toEqual({ non_field_errors: [ACCOUNT_ERRORS.otherTelegram] });

    // Linking needs the Mini App's proof of identity: a browser session has none.
    const fromBrowser = await post(fixture.app.app, API.telegramLink, { email: account.email, password: GOOD_PASSWORD }, auth(account.key));
    expect(expectJsonError(fromBrowser, 400)).toEqual({ detail: ACCOUNT_ERRORS.telegramOnly });
  });

  it('a Telegram-first user adds an e-mail and password, signs in from a browser, and may then unlink Telegram', async () => {
    const telegram = tgUser({ first_name: 'Pavel' });
    await started(telegram);
    // Without an e-mail, unlinking would lock them out.
    const locked = await fixture.app.app.inject({ method: 'DELETE', url: API.telegramLink, headers: tg(telegram) });
    expect(expectJsonError(locked, 400)).toEqual({ detail: ACCOUNT_ERRORS.lastSignIn });

    const email = uniqueEmail('pavel');
    const weak = await post(fixture.app.app, API.credentials, { email, password: '123', re_password: '123' }, tg(telegram));
    expect(expectJsonError(weak, 400)).toHaveProperty('password');
    const added = await post(fixture.app.app, API.credentials, { email, password: GOOD_PASSWORD, re_password: GOOD_PASSWORD }, tg(telegram));
    expect(added.statusCode, added.body).toBe(200);
    expect(added.json()).toMatchObject({ email, telegram_id: telegram.id });
    const twice = await post(fixture.app.app, API.credentials, { email: uniqueEmail(), password: GOOD_PASSWORD, re_password: GOOD_PASSWORD }, tg(telegram));
    expect(expectJsonError(twice, 400)).toEqual({ detail: ACCOUNT_ERRORS.hasEmail });
    const taken = await signedInUser(fixture.app);
    const other = tgUser();
    await started(other);
    const clash = await post(fixture.app.app, API.credentials, { email: taken.email, password: GOOD_PASSWORD, re_password: GOOD_PASSWORD }, tg(other));
    expect(expectJsonError(clash, 400)).toEqual({ email: ['user with this email already exists.'] });

    const key = await login(fixture.app.app, email, GOOD_PASSWORD);
    const unlinked = await fixture.app.app.inject({ method: 'DELETE', url: API.telegramLink, headers: auth(key) });
    expect(unlinked.statusCode, unlinked.body).toBe(200);
    expect(unlinked.json()).toMatchObject({ email, telegram_id: null });
  });
});

describe('sign-in and e-mail links say what is wrong', () => {
  it('an account that is not activated says so (after the right password only) and the letter can be sent again', async () => {
    const account = await register(fixture.app);
    const res = await post(fixture.app.app, API.login, { email: account.email, password: GOOD_PASSWORD });
    expect(expectJsonError(res, 400)).toEqual({ non_field_errors: [ACCOUNT_ERRORS.inactiveAccount] });
    const wrong = await post(fixture.app.app, API.login, { email: account.email, password: 'Wrong-password-1' });
    expect(expectJsonError(wrong, 400)).toEqual({ non_field_errors: ['Unable to log in with provided credentials.'] });
    expect((await post(fixture.app.app, API.resendActivation, { email: account.email })).statusCode).toBe(204);
    const again = await fixture.app.mailer.next(account.email);
    expect(linkIn(again)).toContain('/activate/');
  });

  it('a reset link is checked before its form: good, bad, and used', async () => {
    const account = await signedInUser(fixture.app);
    expect((await post(fixture.app.app, API.resetPassword, { email: account.email })).statusCode).toBe(204);
    const link = linkParts(linkIn(await fixture.app.mailer.next(account.email)));
    expect((await post(fixture.app.app, API.resetPasswordCheck, link)).statusCode).toBe(204);
    expect(expectJsonError(await post(fixture.app.app, API.resetPasswordCheck, { uid: link.uid, token: `${link.token}x` }), 400)).toEqual({ token: ['Invalid token for given user.'] });
    const newPassword = 'Brand-new-Secret-91';
    expect((await post(fixture.app.app, API.resetPasswordConfirm, { ...link, new_password: newPassword, re_new_password: newPassword })).statusCode).toBe(204);
    expect(expectJsonError(await post(fixture.app.app, API.resetPasswordCheck, link), 400)).toEqual({ token: ['Invalid token for given user.'] });
  });
});
