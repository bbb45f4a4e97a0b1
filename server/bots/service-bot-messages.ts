// What the service bot says, in the product's two languages.
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
  },
  ru: {
    welcome:
      'Добро пожаловать! Здесь вы строите воронки продаж для своих Telegram-ботов: этапы, сообщения, рассылки и письма по расписанию.\n\nНажмите кнопку ниже, чтобы открыть приложение.',
    openApp: 'Открыть приложение',
    menuButton: 'Открыть',
    startCommand: 'Открыть конструктор воронок',
    inboxAlert: (funnel, person, text) => `Новое сообщение в «${funnel}» от ${person}:\n\n${text}`,
    openConversation: 'Ответить',
  },
};

/** Russian for anyone whose Telegram speaks Russian, English for everyone else. */
export function serviceBotLanguage(languageCode: string | undefined): ServiceBotLanguage {
  return languageCode?.toLowerCase().startsWith('ru') ? 'ru' : 'en';
}
