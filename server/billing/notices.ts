// The owner is told once when their subscription's paid period has passed and the grace period
// began: by the service bot (when the account has a Telegram identity) and by e-mail (when it has
// an address), in their language, with the link to subscribe again and, while it still renews,
// the link to cancel. Worded like the other owner notices (server/mail/notices.ts); a channel that
// fails is logged and the other still goes.
import { GRACE_DAYS } from '../../contract/billing';
import type { Language } from '../../contract/constants';
import type { Db } from '../db';
import type { Mailer } from '../mail/mailer';
import { escapeHtml, SITE_NAME, type MailContent } from '../mail/templates';

export interface GraceNotice {
  graceUntil: Date;
  subscribeLink: string;
  /** The signed cancel link, while the subscription still renews (null: nothing to cancel). */
  cancelLink: string | null;
}

export interface RenderedGraceNotice {
  chat: string;
  button: string;
  mail: MailContent;
}

const day = (language: Language, at: Date) =>
  at.toLocaleDateString(language === 'ru' ? 'ru-RU' : 'en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });

const WORDING: Record<Language, (notice: GraceNotice) => { subject: string; paragraphs: string[]; button: string }> = {
  en: (notice) => ({
    subject: 'Your subscription has ended: your bots keep working for 3 more days',
    paragraphs: [
      `The paid period of your ${SITE_NAME} subscription is over. Your running bots keep answering for ${GRACE_DAYS} more days, until ${day('en', notice.graceUntil)} (UTC).`,
      'After that, bots above the free plan stop, and mailings and series of letters pause. Nothing is deleted: everything resumes by itself once you subscribe again.',
      ...(notice.cancelLink ? [`Do not want it to renew? Cancel here: ${notice.cancelLink}`] : []),
    ],
    button: 'Subscribe',
  }),
  ru: (notice) => ({
    subject: 'Подписка закончилась: боты работают ещё 3 дня',
    paragraphs: [
      `Оплаченный период подписки ${SITE_NAME} закончился. Запущенные боты будут отвечать ещё ${GRACE_DAYS} дня — до ${day('ru', notice.graceUntil)} (UTC).`,
      'После этого боты сверх бесплатного тарифа остановятся, а рассылки и серии писем встанут на паузу. Ничего не удалится: всё продолжится само, как только вы снова оформите подписку.',
      ...(notice.cancelLink ? [`Не хотите продлевать? Отменить можно здесь: ${notice.cancelLink}`] : []),
    ],
    button: 'Оформить подписку',
  }),
};

const SIGNATURE: Record<Language, string> = { en: `The ${SITE_NAME} team`, ru: `Команда ${SITE_NAME}` };

export function renderGraceNotice(language: Language, notice: GraceNotice): RenderedGraceNotice {
  const words = (WORDING[language] ?? WORDING.en)(notice);
  const signature = SIGNATURE[language] ?? SIGNATURE.en;
  const text = [...words.paragraphs.flatMap((p) => [p, '']), notice.subscribeLink, '', signature, ''].join('\n');
  const html = `<!doctype html>
<html lang="${language}">
<body style="font-family: -apple-system, 'Segoe UI', Roboto, Arial, sans-serif; color: #1f2328; line-height: 1.5;">
${words.paragraphs.map((p) => `  <p>${escapeHtml(p)}</p>`).join('\n')}
  <p><a href="${escapeHtml(notice.subscribeLink)}" style="display: inline-block; padding: 10px 18px; background: #2481cc; color: #ffffff; border-radius: 8px; text-decoration: none;">${escapeHtml(words.button)}</a></p>
  <p style="font-size: 13px; color: #57606a;">${escapeHtml(notice.subscribeLink)}</p>
  <p>${escapeHtml(signature)}</p>
</body>
</html>
`;
  return { chat: words.paragraphs.join('\n\n'), button: words.button, mail: { subject: words.subject, text, html } };
}

export interface BillingNoticeLog {
  warn(object: object, message: string): void;
}

export type GraceNoticeSender = (userId: number, notice: GraceNotice) => Promise<void>;

/** The service bot, as far as the notice needs it (server/telegram/client.ts makes it). */
export interface NoticeBot {
  sendMessage(
    chatId: number,
    text: string,
    other?: { reply_markup?: { inline_keyboard: Array<Array<{ text: string; web_app: { url: string } }>> } },
  ): Promise<unknown>;
}

/** Sends a grace notice to a user by the service bot and by e-mail. */
export function graceNoticeSender({
  db,
  serviceBot,
  mailer,
  log,
}: {
  db: Db;
  /** null: no TELEGRAM_BOT_TOKEN, e-mail only. */
  serviceBot: NoticeBot | null;
  mailer: Mailer;
  log: BillingNoticeLog;
}): GraceNoticeSender {
  return async (userId, notice) => {
    const [owner] = await db.query<{ email: string | null; language: Language; telegram_id: number | string | null }>(
      'select email, language, telegram_id from users where id = $1',
      [userId],
    );
    if (!owner) return;
    const rendered = renderGraceNotice(owner.language, notice);
    const sends: Promise<void>[] = [];
    if (serviceBot && owner.telegram_id !== null) {
      // Telegram opens Mini App buttons on https addresses only; elsewhere the link ends the text.
      const https = notice.subscribeLink.startsWith('https://');
      const text = https ? rendered.chat : `${rendered.chat}\n\n${notice.subscribeLink}`;
      const markup = https ? { reply_markup: { inline_keyboard: [[{ text: rendered.button, web_app: { url: notice.subscribeLink } }]] } } : {};
      sends.push(
        serviceBot.sendMessage(Number(owner.telegram_id), text, markup).then(
          () => undefined,
          (error: unknown) => log.warn({ user_id: userId }, `could not send the grace notice by the service bot: ${describe(error)}`),
        ),
      );
    }
    if (owner.email) {
      const links = [notice.subscribeLink, ...(notice.cancelLink ? [notice.cancelLink] : [])];
      sends.push(
        mailer.send({ to: owner.email, ...rendered.mail, links }).catch((error: unknown) => {
          log.warn({ user_id: userId }, `could not e-mail the grace notice: ${describe(error)}`);
        }),
      );
    }
    await Promise.all(sends);
  };
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
