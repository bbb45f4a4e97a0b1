// Wording of the e-mails the server sends, in both interface languages. (The SPA's strings
// live in locales/*.json; these never reach the browser.)
import type { Language } from '../../contract/constants';

export interface MailContent {
  subject: string;
  text: string;
  html: string;
}

export interface Recipient {
  firstName: string;
  language: Language;
}

export const SITE_NAME = 'Funnels';

interface Wording {
  greeting: (name: string) => string;
  activation: { subject: string; intro: string; button: string; expires: string; ignore: string };
  reset: { subject: string; intro: string; button: string; expires: string; ignore: string };
  signature: string;
}

const WORDING: Record<Language, Wording> = {
  en: {
    greeting: (name) => (name ? `Hello, ${name}!` : 'Hello!'),
    activation: {
      subject: `Activate your ${SITE_NAME} account`,
      intro: `You are receiving this e-mail because you signed up for ${SITE_NAME}. Open the link below to activate your account:`,
      button: 'Activate account',
      expires: 'The link works once and expires in 3 days.',
      ignore: 'If you did not sign up, just ignore this e-mail.',
    },
    reset: {
      subject: `Reset your ${SITE_NAME} password`,
      intro: `You are receiving this e-mail because someone asked to reset the password of your ${SITE_NAME} account. Open the link below to choose a new password:`,
      button: 'Choose a new password',
      expires: 'The link works once and expires in 24 hours.',
      ignore: 'If you did not ask for this, just ignore this e-mail: your password stays the same.',
    },
    signature: `The ${SITE_NAME} team`,
  },
  ru: {
    greeting: (name) => (name ? `Здравствуйте, ${name}!` : 'Здравствуйте!'),
    activation: {
      subject: `Активируйте аккаунт ${SITE_NAME}`,
      intro: `Вы получили это письмо, потому что зарегистрировались в ${SITE_NAME}. Чтобы активировать аккаунт, откройте ссылку:`,
      button: 'Активировать аккаунт',
      expires: 'Ссылка одноразовая и действует 3 дня.',
      ignore: 'Если вы не регистрировались, просто проигнорируйте это письмо.',
    },
    reset: {
      subject: `Сброс пароля ${SITE_NAME}`,
      intro: `Вы получили это письмо, потому что кто-то запросил сброс пароля вашего аккаунта ${SITE_NAME}. Чтобы задать новый пароль, откройте ссылку:`,
      button: 'Задать новый пароль',
      expires: 'Ссылка одноразовая и действует 24 часа.',
      ignore: 'Если вы этого не запрашивали, просто проигнорируйте письмо: пароль останется прежним.',
    },
    signature: `Команда ${SITE_NAME}`,
  },
};

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

function render(recipient: Recipient, kind: 'activation' | 'reset', link: string): MailContent {
  const words = WORDING[recipient.language] ?? WORDING.en;
  const part = words[kind];
  const greeting = words.greeting(recipient.firstName);
  const text = [greeting, '', part.intro, '', link, '', part.expires, part.ignore, '', words.signature, ''].join('\n');
  const html = `<!doctype html>
<html lang="${recipient.language}">
<body style="font-family: -apple-system, 'Segoe UI', Roboto, Arial, sans-serif; color: #1f2328; line-height: 1.5;">
  <p>${escapeHtml(greeting)}</p>
  <p>${escapeHtml(part.intro)}</p>
  <p><a href="${escapeHtml(link)}" style="display: inline-block; padding: 10px 18px; background: #2481cc; color: #ffffff; border-radius: 8px; text-decoration: none;">${escapeHtml(part.button)}</a></p>
  <p style="font-size: 13px; color: #57606a;">${escapeHtml(link)}</p>
  <p>${escapeHtml(part.expires)}<br>${escapeHtml(part.ignore)}</p>
  <p>${escapeHtml(words.signature)}</p>
</body>
</html>
`;
  return { subject: part.subject, text, html };
}

export function activationMail(recipient: Recipient, link: string): MailContent {
  return render(recipient, 'activation', link);
}

export function passwordResetMail(recipient: Recipient, link: string): MailContent {
  return render(recipient, 'reset', link);
}
