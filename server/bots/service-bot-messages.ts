// What the service bot says, in the product's two languages.
import type { PreCheckoutRefusal } from '../billing/stars';

export type ServiceBotLanguage = 'en' | 'ru';

export interface ServiceBotMessages {
  /** The answer to /start. */
  welcome: string;
  /** The inline button under the welcome that opens the Mini App. */
  openApp: string;
  /** The menu button next to the message field. */
  menuButton: string;
  /** /start in the bot's command list. */
  startCommand: string;
  /** Someone wrote to one of the owner's bots (the first unread message of that conversation). */
  inboxAlert: (funnel: string, person: string, text: string) => string;
  /** The button under it that opens the conversation in the app. */
  openConversation: string;
  /** Why a Stars payment is refused at pre-checkout (Telegram shows it to the payer). */
  paymentRefused: Record<PreCheckoutRefusal | 'try_again', string>;
}

export const SERVICE_BOT_MESSAGES: Record<ServiceBotLanguage, ServiceBotMessages> = {
  en: {
    welcome:
      'Welcome! Here you build sales funnels for your Telegram bots: stages, messages, mailings and letters on a schedule.\n\nTap the button below to open the app.',
    openApp: 'Open the app',
    menuButton: 'Open app',
    startCommand: 'Open the funnel builder',
    inboxAlert: (funnel, person, text) => `New message to “${funnel}” from ${person}:\n\n${text}`,
    openConversation: 'Answer',
    paymentRefused: {
      plan_unavailable: 'This plan is no longer sold. Open the app and choose a plan again.',
      price_changed: 'The price of this plan has changed. Open the app and pay the new price.',
      wrong_account: 'This invoice was made for another Telegram account. Open the app from your own account and subscribe there.',
      try_again: 'We could not check this payment just now. Nothing was charged; try again in a minute.',
    },
  },
  ru: {
    welcome:
      'Добро пожаловать! Здесь вы строите воронки продаж для своих Telegram-ботов: этапы, сообщения, рассылки и письма по расписанию.\n\nНажмите кнопку ниже, чтобы открыть приложение.',
    openApp: 'Открыть приложение',
    menuButton: 'Открыть',
    startCommand: 'Открыть конструктор воронок',
    inboxAlert: (funnel, person, text) => `Новое сообщение в «${funnel}» от ${person}:\n\n${text}`,
    openConversation: 'Ответить',
    paymentRefused: {
      plan_unavailable: 'Этот тариф больше не продаётся. Откройте приложение и выберите тариф заново.',
      price_changed: 'Цена тарифа изменилась. Откройте приложение и оплатите по новой цене.',
      wrong_account: 'Этот счёт выставлен другому аккаунту Telegram. Откройте приложение из своего аккаунта и оформите подписку там.',
      try_again: 'Не удалось проверить платёж. Деньги не списаны — попробуйте ещё раз через минуту.',
    },
  },
};

/** Russian for anyone whose Telegram speaks Russian, English for everyone else. */
export function serviceBotLanguage(languageCode: string | undefined): ServiceBotLanguage {
  return languageCode?.toLowerCase().startsWith('ru') ? 'ru' : 'en';
}
