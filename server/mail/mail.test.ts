// E-mail as a person receives it: over real SMTP (a listener inside the test) or as .eml
// files in the outbox folder, in English or Russian, with working links.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '../../contract/auth';
import {
  auth,
  createTestApp,
  createTestDb,
  GOOD_PASSWORD,
  linkParts,
  post,
  tempDir,
  uniqueEmail,
  type TestDb,
} from '../test/helpers';
import { startSmtpListener } from '../test/smtp';
import { createMailer, outboxDir } from './mailer';
import { activationMail, passwordResetMail } from './templates';

function linkInText(text: string | undefined): string {
  const match = /https:\/\/funnels\.test\/\S+/.exec(text ?? '');
  if (!match) throw new Error(`no link in: ${text}`);
  return match[0];
}

let testDb: TestDb;
beforeAll(async () => {
  testDb = await createTestDb();
});
afterAll(async () => {
  await testDb?.drop();
});

describe('over SMTP (SMTP_URL set)', () => {
  let smtp: Awaited<ReturnType<typeof startSmtpListener>>;
  beforeAll(async () => {
    smtp = await startSmtpListener();
  });
  afterAll(async () => {
    await smtp?.close();
  });

  it('register → activation mail → activate → sign in → me → sign out', async () => {
    const mailer = createMailer({ smtpUrl: smtp.url, mailFrom: 'Funnels <no-reply@funnels.test>', dataDir: tempDir() });
    const t = await createTestApp(testDb.db, { mailer });
    try {
      const email = uniqueEmail('smtp');
      const registered = await post(t.app, API.register, {
        email,
        password: GOOD_PASSWORD,
        re_password: GOOD_PASSWORD,
        first_name: 'Sam',
        last_name: 'Smith',
      });
      expect(registered.statusCode).toBe(201);

      const mail = await smtp.receive(email);
      expect(mail.from?.value[0]).toMatchObject({ name: 'Funnels', address: 'no-reply@funnels.test' });
      expect(mail.subject).toBe('Activate your Funnels account');
      expect(mail.text).toContain('Hello, Sam!');
      const link = linkInText(mail.text);
      expect(link).toMatch(/^https:\/\/funnels\.test\/activate\/[^/]+\/[^/]+\/$/);
      expect(mail.html).toContain(`href="${link}"`);

      expect((await post(t.app, API.activation, linkParts(link))).statusCode).toBe(204);
      const login = await post(t.app, API.login, { email, password: GOOD_PASSWORD });
      expect(login.statusCode).toBe(200);
      const key = login.json().auth_token;
      const me = await t.app.inject({ method: 'GET', url: API.me, headers: auth(key) });
      expect(me.json()).toMatchObject({ email, first_name: 'Sam', is_active: true });
      expect((await post(t.app, API.logout, undefined, auth(key))).statusCode).toBe(204);
      expect((await t.app.inject({ method: 'GET', url: API.me, headers: auth(key) })).statusCode).toBe(401);
    } finally {
      await t.close();
      await mailer.close();
    }
  });

  it('a Russian-speaking user gets the activation and reset mails in Russian', async () => {
    const mailer = createMailer({ smtpUrl: smtp.url, mailFrom: 'Funnels <no-reply@funnels.test>', dataDir: tempDir() });
    const t = await createTestApp(testDb.db, { mailer });
    try {
      const email = uniqueEmail('ru');
      await post(t.app, API.register, { email, password: GOOD_PASSWORD, re_password: GOOD_PASSWORD, first_name: 'Мария' }, { 'accept-language': 'ru-RU,ru;q=0.9' });
      const activation = await smtp.receive(email);
      expect(activation.subject).toBe('Активируйте аккаунт Funnels');
      expect(activation.text).toContain('Здравствуйте, Мария!');
      expect(activation.html).toContain('Активировать аккаунт');
      await post(t.app, API.activation, linkParts(linkInText(activation.text)));

      smtp.inbox.splice(smtp.inbox.indexOf(activation), 1);
      await post(t.app, API.resetPassword, { email });
      const reset = await smtp.receive(email);
      expect(reset.subject).toBe('Сброс пароля Funnels');
      expect(linkInText(reset.text)).toMatch(/^https:\/\/funnels\.test\/reset-pass\/[^/]+\/[^/]+$/);
    } finally {
      await t.close();
      await mailer.close();
    }
  });

  it('a mail server that is down does not lose the account: register still answers 201', async () => {
    const mailer = createMailer({ smtpUrl: 'smtp://127.0.0.1:1', mailFrom: 'x@funnels.test', dataDir: tempDir() });
    const t = await createTestApp(testDb.db, { mailer });
    try {
      const res = await post(t.app, API.register, { email: uniqueEmail(), password: GOOD_PASSWORD, re_password: GOOD_PASSWORD });
      expect(res.statusCode).toBe(201);
    } finally {
      await t.close();
    }
  });
});

describe('outbox folder (no SMTP_URL)', () => {
  it('writes each mail as an .eml file under DATA_DIR/outbox and prints its link', async () => {
    const dataDir = tempDir();
    const printed: string[] = [];
    const mailer = createMailer({ smtpUrl: null, mailFrom: 'Funnels <no-reply@localhost>', dataDir }, { log: (line) => printed.push(line) });
    expect(mailer.kind).toBe('outbox');
    const t = await createTestApp(testDb.db, { mailer, config: { dataDir } });
    try {
      const email = uniqueEmail('outbox');
      expect((await post(t.app, API.register, { email, password: GOOD_PASSWORD, re_password: GOOD_PASSWORD })).statusCode).toBe(201);

      const dir = outboxDir(dataDir);
      const files = readdirSync(dir);
      expect(files).toHaveLength(1);
      expect(files[0]).toMatch(/^\d{4}-\d\d-\d\dT[\d-]+Z-[0-9a-f]{8}\.eml$/);
      const mail = await simpleParser(readFileSync(path.join(dir, files[0])));
      expect(mail.subject).toBe('Activate your Funnels account');
      expect(mail.to && !Array.isArray(mail.to) ? mail.to.text : '').toBe(email);
      const link = linkInText(mail.text);

      // A person reading the log can activate with the printed link.
      expect(printed.join('\n')).toContain(link);
      expect(printed.join('\n')).toContain(files[0]);
      expect((await post(t.app, API.activation, linkParts(link))).statusCode).toBe(204);
    } finally {
      await t.close();
    }
  });
});

describe('templates', () => {
  it('have the same parts in both languages, with the link in text and html', () => {
    const link = 'https://funnels.test/activate/MQ/abc-123/';
    for (const make of [activationMail, passwordResetMail]) {
      const en = make({ firstName: 'Ann', language: 'en' }, link);
      const ru = make({ firstName: 'Анна', language: 'ru' }, link);
      for (const mail of [en, ru]) {
        expect(mail.text).toContain(link);
        expect(mail.html).toContain(`href="${link}"`);
      }
      expect(en.subject).not.toBe(ru.subject);
      expect(ru.text).toMatch(/[А-Яа-я]/);
      expect(en.text).not.toMatch(/[А-Яа-я]/);
    }
  });

  it('escape names in the html part', () => {
    const mail = activationMail({ firstName: '<script>alert(1)</script>', language: 'en' }, 'https://x.test/a');
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).toContain('&#60;script&#62;');
  });
});
