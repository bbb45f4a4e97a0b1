// What the owner is told when something stops by itself: their bot's token was revoked (the
// funnel stopped), or a mailing paused itself. One wording for both channels, in the owner's
// language: the service bot sends `chat` (with a button to `link`), the e-mail is `mail`. Each
// says what happened, what to do, and links to the screen where it is done.
import type { Language } from '../../contract/constants';
import type { MailingPauseReason } from '../../contract/mailings';
import { escapeHtml, SITE_NAME, type MailContent } from './templates';

export type OwnerNotice =
  | { kind: 'token_revoked'; funnelName: string; botUsername: string | null; link: string }
  | { kind: 'mailing_paused'; mailingTitle: string; funnelName: string; reason: MailingPauseReason; link: string }
  | { kind: 'webhook_disabled'; url: string; funnelName: string; link: string };

export interface RenderedNotice {
  /** The service bot's message (plain text; the link is its button, or at its end). */
  chat: string;
  /** The label of the button that opens the screen. */
  button: string;
  mail: MailContent;
}

interface Wording {
  subject: string;
  /** What happened, then what to do: paragraphs. */
  paragraphs: string[];
  button: string;
}

const bot = (username: string | null) => (username ? `@${username}` : '');

const WEBHOOK_DISABLED: Record<Language, (notice: Extract<OwnerNotice, { kind: 'webhook_disabled' }>) => Wording> = {
  en: (notice) => ({
    subject: `A webhook of “${notice.funnelName}” was switched off`,
    paragraphs: [
      `The webhook ${notice.url} of your funnel “${notice.funnelName}” was switched off: its deliveries failed for a whole day, so nothing more is sent to it.`,
      'What to do: open the funnel’s webhooks, look at the delivery log for the errors, fix the receiving side (or the URL), then switch the webhook on again.',
    ],
    button: 'Open the webhooks',
  }),
  ru: (notice) => ({
    subject: `Вебхук воронки «${notice.funnelName}» отключён`,
    paragraphs: [
      `Вебхук ${notice.url} воронки «${notice.funnelName}» отключён: его доставки не проходили целые сутки, поэтому ему больше ничего не отправляется.`,
      'Что сделать: откройте вебхуки воронки, посмотрите ошибки в журнале доставок, исправьте принимающую сторону (или адрес) и снова включите вебхук.',
    ],
    button: 'Открыть вебхуки',
  }),
};

const WORDING: Record<Language, (notice: Exclude<OwnerNotice, { kind: 'webhook_disabled' }>) => Wording> = {
  en: (notice) =>
    notice.kind === 'token_revoked'
      ? {
          subject: `The bot of “${notice.funnelName}” stopped: its token was revoked`,
          paragraphs: [
            `Telegram no longer accepts the token of ${bot(notice.botUsername) || 'the bot'} in your funnel “${notice.funnelName}”, so the funnel stopped and the bot doesn't answer.`,
            `What to do: in @BotFather send /revoke, choose ${bot(notice.botUsername) || 'the bot'}, and paste the new token in the funnel (“Replace the token”). Stages, people and their history stay. A mailing paused by this resumes from its screen.`,
          ],
          button: 'Replace the token',
        }
      : {
          subject: `The mailing “${notice.mailingTitle}” paused`,
          paragraphs: [
            `The mailing “${notice.mailingTitle}” of the funnel “${notice.funnelName}” paused by itself: ${PAUSE_WHY.en[notice.reason]}`,
            `What to do: ${PAUSE_WHAT_TO_DO.en[notice.reason]} Nobody gets it twice: it goes on from where it stopped.`,
          ],
          button: 'Open the mailing',
        },
  ru: (notice) =>
    notice.kind === 'token_revoked'
      ? {
          subject: `Бот воронки «${notice.funnelName}» остановлен: токен отозван`,
          paragraphs: [
            `Telegram больше не принимает токен ${bot(notice.botUsername) || 'бота'} в воронке «${notice.funnelName}», поэтому воронка остановлена и бот не отвечает.`,
            `Что сделать: в @BotFather отправьте /revoke, выберите ${bot(notice.botUsername) || 'бота'} и вставьте новый токен в воронке («Заменить токен»). Этапы, люди и их история сохранятся. Рассылку, которая из-за этого встала на паузу, продолжите на её экране.`,
          ],
          button: 'Заменить токен',
        }
      : {
          subject: `Рассылка «${notice.mailingTitle}» на паузе`,
          paragraphs: [
            `Рассылка «${notice.mailingTitle}» воронки «${notice.funnelName}» сама встала на паузу: ${PAUSE_WHY.ru[notice.reason]}`,
            `Что сделать: ${PAUSE_WHAT_TO_DO.ru[notice.reason]} Никто не получит её дважды: она продолжится с того места, где остановилась.`,
          ],
          button: 'Открыть рассылку',
        },
};

const PAUSE_WHY: Record<Language, Record<MailingPauseReason, string>> = {
  en: {
    token_revoked: 'Telegram no longer accepts the bot’s token.',
    too_many_errors: 'too many messages in a row could not be delivered.',
    paid_broadcast_unavailable: 'this bot cannot use paid broadcasts.',
    billing: 'the subscription ended.',
  },
  ru: {
    token_revoked: 'Telegram больше не принимает токен бота.',
    too_many_errors: 'слишком много сообщений подряд не удалось доставить.',
    paid_broadcast_unavailable: 'этому боту недоступны платные рассылки.',
    billing: 'подписка закончилась.',
  },
};

const PAUSE_WHAT_TO_DO: Record<Language, Record<MailingPauseReason, string>> = {
  en: {
    token_revoked: 'replace the token on the funnel’s screen (@BotFather → /revoke gives a new one), then open the mailing and resume it.',
    too_many_errors: 'open the mailing, look at the recipients’ errors, and resume it when the cause is fixed (or Telegram is reachable again).',
    paid_broadcast_unavailable: 'open the mailing and resume it to try again, or cancel it and send a copy without the paid burst.',
    billing: 'renew the subscription: the mailing resumes by itself.',
  },
  ru: {
    token_revoked: 'замените токен на экране воронки (новый даст @BotFather → /revoke), затем откройте рассылку и продолжите её.',
    too_many_errors: 'откройте рассылку, посмотрите ошибки получателей и продолжите её, когда причина устранена (или Telegram снова доступен).',
    paid_broadcast_unavailable: 'откройте рассылку и продолжите её, чтобы попробовать снова, или отмените и отправьте копию без платного ускорения.',
    billing: 'продлите подписку — рассылка продолжится сама.',
  },
};

const SIGNATURE: Record<Language, string> = { en: `The ${SITE_NAME} team`, ru: `Команда ${SITE_NAME}` };

export function renderOwnerNotice(language: Language, notice: OwnerNotice): RenderedNotice {
  const words = notice.kind === 'webhook_disabled' ? (WEBHOOK_DISABLED[language] ?? WEBHOOK_DISABLED.en)(notice) : (WORDING[language] ?? WORDING.en)(notice);
  const text = [...words.paragraphs.flatMap((p) => [p, '']), notice.link, '', SIGNATURE[language] ?? SIGNATURE.en, ''].join('\n');
  const html = `<!doctype html>
<html lang="${language}">
<body style="font-family: -apple-system, 'Segoe UI', Roboto, Arial, sans-serif; color: #1f2328; line-height: 1.5;">
${words.paragraphs.map((p) => `  <p>${escapeHtml(p)}</p>`).join('\n')}
  <p><a href="${escapeHtml(notice.link)}" style="display: inline-block; padding: 10px 18px; background: #2481cc; color: #ffffff; border-radius: 8px; text-decoration: none;">${escapeHtml(words.button)}</a></p>
  <p style="font-size: 13px; color: #57606a;">${escapeHtml(notice.link)}</p>
  <p>${escapeHtml(SIGNATURE[language] ?? SIGNATURE.en)}</p>
</body>
</html>
`;
  return { chat: words.paragraphs.join('\n\n'), button: words.button, mail: { subject: words.subject, text, html } };
}
