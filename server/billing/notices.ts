// What billing tells the owner, by the service bot (when the account has a Telegram identity) and
// by e-mail (when it has an address), in their language: once when a payment starts a
// subscription ("Subscription active": the plan, paid until, how renewal works and the signed
// cancel link), once when its paid period has passed and the grace period began (the link to
// subscribe again and, while it still renews, the link to cancel), and once per invoice when a
// card renewal's charge failed (the link to update the card). Worded like the other owner
// notices (server/mail/notices.ts); a channel that fails is logged and the other still goes.
import { GRACE_DAYS, SUBSCRIPTION_PERIOD_DAYS, type PaymentMethod } from '../../contract/billing';
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
    subject: `Your subscription has ended: your bots keep working for ${GRACE_DAYS} more days`,
    paragraphs: [
      `The paid period of your ${SITE_NAME} subscription is over. Your running bots keep answering for ${GRACE_DAYS} more days, until ${day('en', notice.graceUntil)} (UTC).`,
      'After that, bots above the free plan stop, and mailings and series of letters pause. Nothing is deleted: everything resumes by itself once you subscribe again.',
      ...(notice.cancelLink ? [`Do not want it to renew? Cancel here: ${notice.cancelLink}`] : []),
    ],
    button: 'Subscribe',
  }),
  ru: (notice) => ({
    subject: `Подписка закончилась: боты работают ещё ${GRACE_DAYS} дня`,
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

interface NoticeOwner {
  email: string | null;
  language: Language;
  telegram_id: number | string | null;
}

interface NoticeDeps {
  db: Db;
  /** null: no TELEGRAM_BOT_TOKEN, e-mail only. */
  serviceBot: NoticeBot | null;
  mailer: Mailer;
  log: BillingNoticeLog;
}

/** What one notice says on each channel, once the owner's language is known. */
interface OwnerMessage {
  chat: string;
  /** A Mini App button under the chat message (Telegram opens https addresses only). */
  button: { text: string; url: string } | null;
  mail: MailContent;
  links: string[];
}

const OWNER_QUERY = 'select email, language, telegram_id from users where id = $1';

/** Sends `compose(owner)` to the owner by the service bot and by e-mail (`what` names it in the log). */
function tellOwner(deps: NoticeDeps, what: string) {
  const { serviceBot, mailer, log } = deps;
  return async <Owner extends NoticeOwner>(userId: number, owner: Owner | undefined, compose: (owner: Owner) => OwnerMessage): Promise<void> => {
    if (!owner) return;
    const message = compose(owner);
    const sends: Promise<void>[] = [];
    if (serviceBot && owner.telegram_id !== null) {
      // Telegram opens Mini App buttons on https addresses only; elsewhere the link ends the text.
      const https = message.button?.url.startsWith('https://') ?? false;
      const text = message.button && !https ? `${message.chat}\n\n${message.button.url}` : message.chat;
      const markup = message.button && https ? { reply_markup: { inline_keyboard: [[{ text: message.button.text, web_app: { url: message.button.url } }]] } } : {};
      sends.push(
        serviceBot.sendMessage(Number(owner.telegram_id), text, markup).then(
          () => undefined,
          (error: unknown) => log.warn({ user_id: userId }, `could not send the ${what} by the service bot: ${describe(error)}`),
        ),
      );
    }
    if (owner.email) {
      sends.push(
        mailer.send({ to: owner.email, ...message.mail, links: message.links }).catch((error: unknown) => {
          log.warn({ user_id: userId }, `could not e-mail the ${what}: ${describe(error)}`);
        }),
      );
    }
    await Promise.all(sends);
  };
}

/** Sends a grace notice to a user by the service bot and by e-mail. */
export function graceNoticeSender(deps: NoticeDeps): GraceNoticeSender {
  const tell = tellOwner(deps, 'grace notice');
  return async (userId, notice) => {
    const [owner] = await deps.db.query<NoticeOwner>(OWNER_QUERY, [userId]);
    await tell(userId, owner, ({ language }) => {
      const rendered = renderGraceNotice(language, notice);
      return {
        chat: rendered.chat,
        button: { text: rendered.button, url: notice.subscribeLink },
        mail: rendered.mail,
        links: [notice.subscribeLink, ...(notice.cancelLink ? [notice.cancelLink] : [])],
      };
    });
  };
}

// --- "Subscription active" ------------------------------------------------------------------------

export interface SubscriptionActiveNotice {
  planId: number | null;
  method: PaymentMethod;
  paidUntil: Date;
  /** The signed cancel link of this subscription. */
  cancelLink: string;
}

export type SubscriptionActiveNoticeSender = (userId: number, notice: SubscriptionActiveNotice) => Promise<void>;

/** What the wording needs: the notice, with its plan's title. */
type SubscriptionActiveWords = Omit<SubscriptionActiveNotice, 'planId'> & { planTitle: string };

const ACTIVE_WORDING: Record<Language, (notice: SubscriptionActiveWords) => { subject: string; paragraphs: string[]; cancel: string }> = {
  en: (notice) => ({
    subject: `Your ${SITE_NAME} subscription is active`,
    paragraphs: [
      `Thank you! Your subscription to the “${notice.planTitle}” plan is active, paid until ${day('en', notice.paidUntil)} (UTC).`,
      notice.method === 'stars'
        ? `It renews by itself every ${SUBSCRIPTION_PERIOD_DAYS} days: Telegram takes the same number of Stars from your balance at the end of each period.`
        : `It renews by itself every ${SUBSCRIPTION_PERIOD_DAYS} days: your card is charged the same amount at the end of each period.`,
      'If you cancel the renewal, everything stays available until the end of the paid period.',
    ],
    cancel: 'Cancel renewal',
  }),
  ru: (notice) => ({
    subject: `Подписка ${SITE_NAME} оформлена`,
    paragraphs: [
      `Спасибо! Подписка на тариф «${notice.planTitle}» активна и оплачена до ${day('ru', notice.paidUntil)} (UTC).`,
      notice.method === 'stars'
        ? `Она продлевается сама каждые ${SUBSCRIPTION_PERIOD_DAYS} дней: в конце каждого периода Telegram спишет с баланса столько же звёзд.`
        : `Она продлевается сама каждые ${SUBSCRIPTION_PERIOD_DAYS} дней: в конце каждого периода с карты спишется та же сумма.`,
      'Если отменить продление, всё останется доступным до конца оплаченного периода.',
    ],
    cancel: 'Отменить продление',
  }),
};

export function renderSubscriptionActiveNotice(language: Language, notice: SubscriptionActiveWords): { chat: string; mail: MailContent } {
  const words = (ACTIVE_WORDING[language] ?? ACTIVE_WORDING.en)(notice);
  const signature = SIGNATURE[language] ?? SIGNATURE.en;
  const cancelLine = `${words.cancel}: ${notice.cancelLink}`;
  const paragraphs = [...words.paragraphs, cancelLine];
  const text = [...paragraphs.flatMap((p) => [p, '']), signature, ''].join('\n');
  const html = `<!doctype html>
<html lang="${language}">
<body style="font-family: -apple-system, 'Segoe UI', Roboto, Arial, sans-serif; color: #1f2328; line-height: 1.5;">
${words.paragraphs.map((p) => `  <p>${escapeHtml(p)}</p>`).join('\n')}
  <p>${escapeHtml(words.cancel)}: <a href="${escapeHtml(notice.cancelLink)}">${escapeHtml(notice.cancelLink)}</a></p>
  <p>${escapeHtml(signature)}</p>
</body>
</html>
`;
  return { chat: paragraphs.join('\n\n'), mail: { subject: words.subject, text, html } };
}

/** Sends "Subscription active" to a user by the service bot and by e-mail (the cancel link in the text: no button). */
export function subscriptionActiveNoticeSender(deps: NoticeDeps): SubscriptionActiveNoticeSender {
  const tell = tellOwner(deps, '"subscription active" notice');
  return async (userId, { planId, ...notice }) => {
    // One statement for the owner and the plan's title.
    const [owner] = await deps.db.query<NoticeOwner & { plan_title: string | null }>(
      'select u.email, u.language, u.telegram_id, p.title as plan_title from users u left join plans p on p.id = $2 where u.id = $1',
      [userId, planId],
    );
    await tell(userId, owner, ({ language, plan_title }) => {
      const rendered = renderSubscriptionActiveNotice(language, { ...notice, planTitle: plan_title ?? '' });
      return { chat: rendered.chat, button: null, mail: rendered.mail, links: [notice.cancelLink] };
    });
  };
}

// --- "Payment failed" ------------------------------------------------------------------------------

export interface PaymentFailedNotice {
  planId: number | null;
  /** What the provider tried to charge, in minor units of `currency`. */
  amount: number;
  currency: string;
  /** Access lasts to here whatever happens (then the grace period). */
  paidUntil: Date;
  /** Where the card is updated: the provider's customer portal, else /subscribe/. */
  updateLink: string;
}

export type PaymentFailedNoticeSender = (userId: number, notice: PaymentFailedNotice) => Promise<void>;

type PaymentFailedWords = Omit<PaymentFailedNotice, 'planId'> & { planTitle: string };

const money = (language: Language, amount: number, currency: string) => {
  try {
    return new Intl.NumberFormat(language === 'ru' ? 'ru-RU' : 'en-GB', { style: 'currency', currency }).format(amount / 10 ** minorDigits(currency));
  } catch {
    return `${amount} ${currency}`;
  }
};
const minorDigits = (currency: string) => new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;

const FAILED_WORDING: Record<Language, (notice: PaymentFailedWords) => { subject: string; paragraphs: string[]; button: string }> = {
  en: (notice) => ({
    subject: `We could not renew your ${SITE_NAME} subscription`,
    paragraphs: [
      `We could not charge your card ${money('en', notice.amount, notice.currency)} to renew your subscription to the “${notice.planTitle}” plan.`,
      `Everything stays available until ${day('en', notice.paidUntil)} (UTC). To keep it going, update your card; the payment is then tried again by itself. If it does not go through, your bots keep answering for ${GRACE_DAYS} more days after that date, then bots above the free plan stop and mailings pause (nothing is deleted).`,
    ],
    button: 'Update card',
  }),
  ru: (notice) => ({
    subject: `Не удалось продлить подписку ${SITE_NAME}`,
    paragraphs: [
      `Не удалось списать с вашей карты ${money('ru', notice.amount, notice.currency)} за продление подписки на тариф «${notice.planTitle}».`,
      `Всё остаётся доступным до ${day('ru', notice.paidUntil)} (UTC). Чтобы подписка продолжилась, обновите карту: платёж повторится сам. Если он не пройдёт, боты будут отвечать ещё ${GRACE_DAYS} дня после этой даты, затем боты сверх бесплатного тарифа остановятся, а рассылки встанут на паузу (ничего не удалится).`,
    ],
    button: 'Обновить карту',
  }),
};

export function renderPaymentFailedNotice(language: Language, notice: PaymentFailedWords): { chat: string; button: string; mail: MailContent } {
  const words = (FAILED_WORDING[language] ?? FAILED_WORDING.en)(notice);
  const signature = SIGNATURE[language] ?? SIGNATURE.en;
  const text = [...words.paragraphs.flatMap((p) => [p, '']), `${words.button}: ${notice.updateLink}`, '', signature, ''].join('\n');
  const html = `<!doctype html>
<html lang="${language}">
<body style="font-family: -apple-system, 'Segoe UI', Roboto, Arial, sans-serif; color: #1f2328; line-height: 1.5;">
${words.paragraphs.map((p) => `  <p>${escapeHtml(p)}</p>`).join('\n')}
  <p><a href="${escapeHtml(notice.updateLink)}" style="display: inline-block; padding: 10px 18px; background: #2481cc; color: #ffffff; border-radius: 8px; text-decoration: none;">${escapeHtml(words.button)}</a></p>
  <p style="font-size: 13px; color: #57606a;">${escapeHtml(notice.updateLink)}</p>
  <p>${escapeHtml(signature)}</p>
</body>
</html>
`;
  return { chat: words.paragraphs.join('\n\n'), button: words.button, mail: { subject: words.subject, text, html } };
}

/**
 * Sends "payment failed" to a user by the service bot and by e-mail. The link is the provider's
 * page, not a Mini App: it goes at the end of the chat text (tellOwner makes a button of https
 * links only, and a web_app button would open the provider's page inside Telegram's Mini App frame).
 */
export function paymentFailedNoticeSender(deps: NoticeDeps): PaymentFailedNoticeSender {
  const tell = tellOwner(deps, '"payment failed" notice');
  return async (userId, { planId, ...notice }) => {
    const [owner] = await deps.db.query<NoticeOwner & { plan_title: string | null }>(
      'select u.email, u.language, u.telegram_id, p.title as plan_title from users u left join plans p on p.id = $2 where u.id = $1',
      [userId, planId],
    );
    await tell(userId, owner, ({ language, plan_title }) => {
      const rendered = renderPaymentFailedNotice(language, { ...notice, planTitle: plan_title ?? '' });
      return { chat: `${rendered.chat}\n\n${rendered.button}: ${notice.updateLink}`, button: null, mail: rendered.mail, links: [notice.updateLink] };
    });
  };
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
