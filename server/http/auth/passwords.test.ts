// Forgotten-password reset and password change, with the safer rules: single-use expiring
// links, and every session ended when the password changes.
import { describe, expect, it } from 'vitest';
import { API } from '../../../contract/auth';
import { RESET_TOKEN_TTL_S } from '../../../contract/constants';
import {
  auth,
  expectJsonError,
  GOOD_PASSWORD,
  linkIn,
  linkParts,
  login,
  post,
  register,
  signedInUser,
  uniqueEmail,
  useTestApp,
} from '../../test/helpers';

const fixture = useTestApp();

const NEW_PASSWORD = 'Quiet-harbour-97';
const me = (key: string) => fixture.app.app.inject({ method: 'GET', url: API.me, headers: auth(key) });

async function requestReset(email: string) {
  const res = await post(fixture.app.app, API.resetPassword, { email });
  expect(res.statusCode).toBe(204);
  const mail = await fixture.app.mailer.next(email);
  return { mail, ...linkParts(linkIn(mail)) };
}

describe('POST /api/users/reset_password/', () => {
  it('mails a reset link of the form {PUBLIC_URL}/reset-pass/{uid}/{token}', async () => {
    const user = await signedInUser(fixture.app);
    const { mail } = await requestReset(user.email);
    expect(linkIn(mail)).toMatch(/^https:\/\/funnels\.test\/reset-pass\/[A-Za-z0-9_-]+\/[0-9a-z]+-[0-9a-f]{32}$/);
    expect(mail.subject).toBe('Reset your Funnels password');
  });

  it('answers 204 for unknown and inactive addresses too, without mailing them', async () => {
    const inactive = await register(fixture.app);
    const unknown = uniqueEmail('ghost');
    for (const email of [unknown, inactive.email]) {
      expect((await post(fixture.app.app, API.resetPassword, { email })).statusCode).toBe(204);
    }
    await fixture.app.app.settle();
    expect(fixture.app.mailer.messages.filter((m) => m.to === unknown || m.to === inactive.email)).toEqual([]);
  });

  it('writes to a Russian-speaking user in Russian', async () => {
    const user = await signedInUser(fixture.app, uniqueEmail(), { language: 'ru' });
    const { mail } = await requestReset(user.email);
    expect(mail.subject).toBe('Сброс пароля Funnels');
    expect(mail.text).toContain('новый пароль');
  });

  it('refuses a missing or malformed e-mail', async () => {
    expect(expectJsonError(await post(fixture.app.app, API.resetPassword, {}), 400)).toEqual({ email: ['This field is required.'] });
    expect(expectJsonError(await post(fixture.app.app, API.resetPassword, { email: 'x@' }), 400)).toEqual({
      email: ['Enter a valid email address.'],
    });
  });
});

describe('POST /api/users/reset_password_confirm/', () => {
  it('sets the new password, ends every session, and the link cannot be used again', async () => {
    const user = await signedInUser(fixture.app);
    const otherDevice = await login(fixture.app.app, user.email, GOOD_PASSWORD);
    const { uid, token } = await requestReset(user.email);

    const res = await post(fixture.app.app, API.resetPasswordConfirm, { uid, token, new_password: NEW_PASSWORD, re_new_password: NEW_PASSWORD });
    expect(res.statusCode).toBe(204);

    // Every device is signed out.
    expect(expectJsonError(await me(user.key), 401)).toEqual({ detail: 'Invalid token.' });
    expect((await me(otherDevice)).statusCode).toBe(401);
    // The old password no longer works, the new one does.
    expect((await post(fixture.app.app, API.login, { email: user.email, password: GOOD_PASSWORD })).statusCode).toBe(400);
    await login(fixture.app.app, user.email, NEW_PASSWORD);

    // Reusing the link fails.
    const reuse = await post(fixture.app.app, API.resetPasswordConfirm, { uid, token, new_password: 'Another-pass-55', re_new_password: 'Another-pass-55' });
    expect(expectJsonError(reuse, 400)).toEqual({ token: ['Invalid token for given user.'] });
  });

  it('refuses an expired link', async () => {
    const user = await signedInUser(fixture.app);
    const { uid, token } = await requestReset(user.email);
    fixture.app.clock.advance(RESET_TOKEN_TTL_S + 1);
    try {
      const res = await post(fixture.app.app, API.resetPasswordConfirm, { uid, token, new_password: NEW_PASSWORD, re_new_password: NEW_PASSWORD });
      expect(expectJsonError(res, 400)).toEqual({ token: ['Invalid token for given user.'] });
    } finally {
      fixture.app.clock.advance(-(RESET_TOKEN_TTL_S + 1));
    }
    // The password is unchanged.
    await login(fixture.app.app, user.email, GOOD_PASSWORD);
  });

  it('refuses an activation link used as a reset link', async () => {
    const account = await register(fixture.app);
    const res = await post(fixture.app.app, API.resetPasswordConfirm, {
      uid: account.uid,
      token: account.token,
      new_password: NEW_PASSWORD,
      re_new_password: NEW_PASSWORD,
    });
    expect(expectJsonError(res, 400)).toEqual({ token: ['Invalid token for given user.'] });
  });

  it('refuses a bad uid, a weak password and mismatched passwords, in that order', async () => {
    const user = await signedInUser(fixture.app);
    const { uid, token } = await requestReset(user.email);
    const badUid = await post(fixture.app.app, API.resetPasswordConfirm, { uid: 'eHl6', token, new_password: NEW_PASSWORD, re_new_password: NEW_PASSWORD });
    expect(expectJsonError(badUid, 400)).toEqual({ uid: ["Invalid user id or user doesn't exist."] });
    const weak = await post(fixture.app.app, API.resetPasswordConfirm, { uid, token, new_password: 'password', re_new_password: 'other' });
    expect(expectJsonError(weak, 400)).toEqual({ new_password: ['This password is too common.'] });
    const mismatch = await post(fixture.app.app, API.resetPasswordConfirm, { uid, token, new_password: NEW_PASSWORD, re_new_password: NEW_PASSWORD + '!' });
    expect(expectJsonError(mismatch, 400)).toEqual({ non_field_errors: ["The two password fields didn't match."] });
    // Failed attempts did not use up the link.
    const ok = await post(fixture.app.app, API.resetPasswordConfirm, { uid, token, new_password: NEW_PASSWORD, re_new_password: NEW_PASSWORD });
    expect(ok.statusCode).toBe(204);
  });

  it('a reset link dies once the user signs in again (as in Django)', async () => {
    const user = await signedInUser(fixture.app);
    const { uid, token } = await requestReset(user.email);
    fixture.app.clock.advance(5); // the test clock stands still otherwise
    await login(fixture.app.app, user.email, GOOD_PASSWORD);
    const res = await post(fixture.app.app, API.resetPasswordConfirm, { uid, token, new_password: NEW_PASSWORD, re_new_password: NEW_PASSWORD });
    expect(expectJsonError(res, 400)).toEqual({ token: ['Invalid token for given user.'] });
  });

  it('names every missing field', async () => {
    expect(expectJsonError(await post(fixture.app.app, API.resetPasswordConfirm, {}), 400)).toEqual({
      uid: ['This field is required.'],
      token: ['This field is required.'],
      new_password: ['This field is required.'],
      re_new_password: ['This field is required.'],
    });
  });
});

describe('POST /api/users/set_password/', () => {
  const setPassword = (key: string, body: object) => post(fixture.app.app, API.setPassword, body, auth(key));

  it('changes the password and ends every session, including the one that changed it', async () => {
    const user = await signedInUser(fixture.app);
    const otherDevice = await login(fixture.app.app, user.email, GOOD_PASSWORD);
    const res = await setPassword(user.key, { current_password: GOOD_PASSWORD, new_password: NEW_PASSWORD, re_new_password: NEW_PASSWORD });
    expect(res.statusCode).toBe(204);
    expect((await me(user.key)).statusCode).toBe(401);
    expect((await me(otherDevice)).statusCode).toBe(401);
    expect((await post(fixture.app.app, API.login, { email: user.email, password: GOOD_PASSWORD })).statusCode).toBe(400);
    await login(fixture.app.app, user.email, NEW_PASSWORD);
  });

  it('refuses a wrong current password and keeps the session', async () => {
    const user = await signedInUser(fixture.app);
    const res = await setPassword(user.key, { current_password: 'Not-my-password-1', new_password: NEW_PASSWORD, re_new_password: NEW_PASSWORD });
    expect(expectJsonError(res, 400)).toEqual({ current_password: ['Invalid password.'] });
    expect((await me(user.key)).statusCode).toBe(200);
  });

  it('refuses a weak or mismatched new password', async () => {
    const user = await signedInUser(fixture.app);
    const weak = await setPassword(user.key, { current_password: GOOD_PASSWORD, new_password: '1234567', re_new_password: '1234567' });
    expect(expectJsonError(weak, 400)).toEqual({
      new_password: [
        'This password is too short. It must contain at least 8 characters.',
        'This password is too common.',
        'This password is entirely numeric.',
      ],
    });
    const mismatch = await setPassword(user.key, { current_password: GOOD_PASSWORD, new_password: NEW_PASSWORD, re_new_password: 'x' + NEW_PASSWORD });
    expect(expectJsonError(mismatch, 400)).toEqual({ non_field_errors: ["The two password fields didn't match."] });
  });

  it('needs credentials before looking at the body', async () => {
    const res = await post(fixture.app.app, API.setPassword, { current_password: 5 });
    expect(expectJsonError(res, 401)).toEqual({ detail: 'Authentication credentials were not provided.' });
  });
});
