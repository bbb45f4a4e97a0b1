// Alerts of the inbox: the service bot tells a funnel's owner that someone wrote to their bot
// (once per conversation until they read it; the runtime decides when), with a button that opens
// the conversation in the Mini App. Needs the service bot (TELEGRAM_BOT_TOKEN) and an owner whose
// account has their Telegram identity.
import { Api, InlineKeyboard } from 'grammy';
import type { Config } from '../config';
import type { InboxAlert } from './runtime/store';
import { SERVICE_BOT_MESSAGES } from './service-bot-messages';

/** Telegram's limit is 4096; a preview is enough here. */
const PREVIEW_MAX = 500;

export function inboxAlertSender(config: Pick<Config, 'telegramBotToken' | 'telegramApiRoot' | 'publicUrl'>): ((alert: InboxAlert) => Promise<void>) | undefined {
  if (!config.telegramBotToken) return undefined;
  const api = new Api(config.telegramBotToken, { apiRoot: config.telegramApiRoot });
  return async (alert) => {
    const messages = SERVICE_BOT_MESSAGES[alert.ownerLanguage];
    const text = alert.text.length > PREVIEW_MAX ? `${alert.text.slice(0, PREVIEW_MAX)}…` : alert.text;
    const url = `${config.publicUrl}/content/funnels/${alert.funnelId}/inbox/${alert.personId}/`;
    // Telegram opens Mini App buttons on https addresses only.
    const keyboard = url.startsWith('https://') ? new InlineKeyboard().webApp(messages.openConversation, url) : undefined;
    await api.sendMessage(alert.ownerTelegramId, messages.inboxAlert(alert.funnelName, alert.personName || '—', text), keyboard ? { reply_markup: keyboard } : {});
  };
}
