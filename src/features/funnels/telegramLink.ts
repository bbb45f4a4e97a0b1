// Opening t.me links: inside Telegram through the SDK's openTelegramLink (the chat opens over
// the Mini App instead of leaving it), elsewhere as a normal link in a new tab.
import { telegramShell } from '@/telegram/shell';

export const BOTFATHER_URL = 'https://t.me/BotFather';

/** Returns true when Telegram took the link (the caller then stops the normal navigation). */
export function openInTelegram(url: string): boolean {
  return telegramShell()?.openTelegramLink(url) ?? false;
}
