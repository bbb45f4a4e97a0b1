// Sign-up, activation and resend_activation: Djoser's answers and the safer rules.
import { describe, expect, it } from 'vitest';
import { API } from '../../../contract/auth';
import { ACCOUNT_ERRORS } from '../../accounts/errors';
import { ACTIVATION_TOKEN_TTL_S } from '../../../contract/constants';
import {
  expectJsonError,
  GOOD_PASSWORD,
  linkIn,
  linkParts,
  post,
  register,
  uniqueEmail,
  useTestApp,
} from '../../test/helpers';

const fixture = useTestApp();

const body = (email: string, password = GOOD_PASSWORD, rePassword = password) => ({
  email,
  password,
  re_password: rePassword,
  first_name: 'Ann',
  last_name: 'Lee',
});

describe('POST /api/users/ (register)', () => {
  it('creates an inactive account, answers 201 with the public fields, and mails an activation link', async () => {
    const email = uniqueEmail();
    const res = await post(fixture.app.app, API.register, body(email));
    expect(res.statusCode).toBe(201);
    const user = res.json();
    expect(user).toEqual({ id: expect.any(Number), email, first_name: 'Ann', last_name: 'Lee' });
    expect(user).not.toHaveProperty('password');

    const mail = await fixture.app.mailer.next(email);
    const link = linkIn(mail);
    expect(link).toMatch(/^https:\/\/funnels\.test\/activate\/[A-Za-z0-9_-]+\/[0-9a-z]+-[0-9a-f]{32}\/$/);
    expect(linkParts(link).uid).toBe(Buffer.from(String(user.id)).toString('base64url'));
    expect(mail.subject).toBe('Activate your Funnels account');
    expect(mail.text).toContain(link);
    expect(mail.html).toContain(link);

    // Not active yet: cannot sign in, and (the password being right) is told why.
    const login = await post(fixture.app.app, API.login, { email, password: GOOD_PASSWORD });
    expect(expectJsonError(login, 400)).toEqual({ non_field_errors: [ACCOUNT_ERRORS.inactiveAccount] });
  });

  it('uid of user 1 is "MQ", as Django encodes it', async () => {
    const first = await fixture.app.db.query<{ id: number }>('select min(id) as id from users');
    expect(first[0].id).toBe(1);
    const email = (await fixture.app.db.query<{ email: string }>('select email from users where id = 1'))[0].email;
    await post(fixture.app.app, API.resendActivation, { email });
    await fixture.app.app.settle();
    expect(linkParts(linkIn(await fixture.app.mailer.next(email))).uid).toBe('MQ');
  });

  it('stores the e-mail lowercased and refuses the same address in other case', async () => {
    const email = uniqueEmail('Mixed.Case');
    const res = await post(fixture.app.app, API.register, body(email.toUpperCase()));
    expect(res.statusCode).toBe(201);
    expect(res.json().email).toBe(email.toLowerCase());
    await fixture.app.mailer.next(email.toLowerCase());
    const again = await post(fixture.app.app, API.register, body(email));
    expect(expectJsonError(again, 400)).toEqual({ email: ['user with this email already exists.'] });
  });

  it('names every missing field', async () => {
    const res = await post(fixture.app.app, API.register, {});
    expect(expectJsonError(res, 400)).toEqual({
      email: ['This field is required.'],
      password: ['This field is required.'],
      re_password: ['This field is required.'],
    });
  });

  it('refuses a malformed e-mail and a too long name', async () => {
    const res = await post(fixture.app.app, API.register, { ...body('not-an-email'), first_name: 'x'.repeat(151) });
    expect(expectJsonError(res, 400)).toEqual({
      email: ['Enter a valid email address.'],
      first_name: ['Ensure this field has no more than 150 characters.'],
    });
  });

  it("reports mismatched passwords as Djoser does", async () => {
    const res = await post(fixture.app.app, API.register, body(uniqueEmail(), GOOD_PASSWORD, GOOD_PASSWORD + 'x'));
    expect(expectJsonError(res, 400)).toEqual({ non_field_errors: ["The two password fields didn't match."] });
  });

  it.each([
    ['short', 'Xy7!abc', ['This password is too short. It must contain at least 8 characters.']],
    ['entirely numeric', '48213907165', ['This password is entirely numeric.']],
    ['common', 'sunshine', ['This password is too common.']],
    [
      'short, common and numeric',
      '123456',
      [
        'This password is too short. It must contain at least 8 characters.',
        'This password is too common.',
        'This password is entirely numeric.',
      ],
    ],
  ])('refuses a %s password with Django\'s wording', async (_label, password, messages) => {
    const email = uniqueEmail();
    const res = await post(fixture.app.app, API.register, body(email, password));
    expect(expectJsonError(res, 400)).toEqual({ password: messages });
    // Nothing was created: the same address can still sign up.
    expect((await post(fixture.app.app, API.register, body(email))).statusCode).toBe(201);
  });

  it('refuses a password too similar to the e-mail', async () => {
    const res = await post(fixture.app.app, API.register, body('marvellous.octopus@example.com', 'marvellousoctopus'));
    expect(expectJsonError(res, 400)).toEqual({ password: ['The password is too similar to the email.'] });
  });

  it('gives a Russian-speaking user the mail in Russian (language from the body or the language cookie)', async () => {
    const viaBody = await register(fixture.app, uniqueEmail('ru1'), { language: 'ru' });
    expect(viaBody.mail.subject).toBe('Активируйте аккаунт Funnels');
    expect(viaBody.mail.text).toContain('Здравствуйте');

    const email = uniqueEmail('ru2');
    const res = await post(fixture.app.app, API.register, body(email), { cookie: 'auth_token=null; language=ru_RU' });
    expect(res.statusCode).toBe(201);
    expect((await fixture.app.mailer.next(email)).subject).toBe('Активируйте аккаунт Funnels');

    const en = await register(fixture.app, uniqueEmail('en'));
    expect(en.mail.subject).toBe('Activate your Funnels account');
  });

  it('falls back to English when the language cookie or header is garbage', async () => {
    const email = uniqueEmail('garbage');
    const res = await post(fixture.app.app, API.register, body(email), { cookie: 'language=%E0%A4%A; x=%%', 'accept-language': ';;,-' });
    expect(res.statusCode).toBe(201);
    expect((await fixture.app.mailer.next(email)).subject).toBe('Activate your Funnels account');
  });
});

describe('POST /api/users/activation/', () => {
  it('activates once; the same link again is stale (403)', async () => {
    const account = await register(fixture.app);
    const first = await post(fixture.app.app, API.activation, { uid: account.uid, token: account.token });
    expect(first.statusCode).toBe(204);
    expect(first.body).toBe('');
    const again = await post(fixture.app.app, API.activation, { uid: account.uid, token: account.token });
    expect(expectJsonError(again, 403)).toEqual({ detail: 'Stale token for given user.' });
    // And the account now signs in.
    expect((await post(fixture.app.app, API.login, { email: account.email, password: GOOD_PASSWORD })).statusCode).toBe(200);
  });

  it('refuses an unknown or malformed uid', async () => {
    const account = await register(fixture.app);
    for (const uid of ['OTk5OTk5', 'not base64!', '', 'MA']) {
      const res = await post(fixture.app.app, API.activation, { uid, token: account.token });
      const errors = expectJsonError(res, 400);
      if (uid === '') expect(errors).toEqual({ uid: ['This field may not be blank.'] });
      else expect(errors).toEqual({ uid: ["Invalid user id or user doesn't exist."] });
    }
  });

  it("refuses a token that is wrong, another user's, or tampered", async () => {
    const a = await register(fixture.app);
    const b = await register(fixture.app);
    const tampered = a.token.slice(0, -1) + (a.token.endsWith('0') ? '1' : '0');
    for (const token of ['abc', b.token, tampered]) {
      const res = await post(fixture.app.app, API.activation, { uid: a.uid, token });
      expect(expectJsonError(res, 400)).toEqual({ token: ['Invalid token for given user.'] });
    }
  });

  it('refuses an expired link', async () => {
    const account = await register(fixture.app);
    fixture.app.clock.advance(ACTIVATION_TOKEN_TTL_S + 60);
    try {
      const res = await post(fixture.app.app, API.activation, { uid: account.uid, token: account.token });
      expect(expectJsonError(res, 400)).toEqual({ token: ['Invalid token for given user.'] });
    } finally {
      fixture.app.clock.advance(-(ACTIVATION_TOKEN_TTL_S + 60));
    }
    // Just inside the lifetime it still works.
    fixture.app.clock.advance(ACTIVATION_TOKEN_TTL_S - 60);
    try {
      expect((await post(fixture.app.app, API.activation, { uid: account.uid, token: account.token })).statusCode).toBe(204);
    } finally {
      fixture.app.clock.advance(-(ACTIVATION_TOKEN_TTL_S - 60));
    }
  });

  it('refuses missing and mistyped fields with field errors', async () => {
    const res = await post(fixture.app.app, API.activation, { uid: 12, token: ['x'] });
    expect(expectJsonError(res, 400)).toEqual({ uid: ['Not a valid string.'], token: ['Not a valid string.'] });
  });
});

describe('POST /api/users/resend_activation/', () => {
  it('mails a fresh working link to an inactive account', async () => {
    const account = await register(fixture.app);
    const res = await post(fixture.app.app, API.resendActivation, { email: account.email });
    expect(res.statusCode).toBe(204);
    const mail = await fixture.app.mailer.next(account.email);
    const { uid, token } = linkParts(linkIn(mail));
    expect((await post(fixture.app.app, API.activation, { uid, token })).statusCode).toBe(204);
  });

  it('answers the same 204 for unknown and already active addresses, and mails nobody', async () => {
    const active = await register(fixture.app);
    await post(fixture.app.app, API.activation, { uid: active.uid, token: active.token });
    const unknown = uniqueEmail('nobody');
    const a = await post(fixture.app.app, API.resendActivation, { email: unknown });
    const b = await post(fixture.app.app, API.resendActivation, { email: active.email });
    expect([a.statusCode, b.statusCode]).toEqual([204, 204]);
    expect(a.body).toBe(b.body);
    await fixture.app.app.settle();
    expect(fixture.app.mailer.messages.filter((m) => m.to === unknown || m.to === active.email)).toEqual([]);
  });

  it('accepts the call with or without an Authorization header', async () => {
    const account = await register(fixture.app);
    const res = await post(fixture.app.app, API.resendActivation, { email: account.email }, { authorization: 'Token whatever' });
    expect(res.statusCode).toBe(204);
    await fixture.app.mailer.next(account.email);
  });

  it('refuses a malformed e-mail', async () => {
    const res = await post(fixture.app.app, API.resendActivation, { email: 'nope' });
    expect(expectJsonError(res, 400)).toEqual({ email: ['Enter a valid email address.'] });
  });
});
