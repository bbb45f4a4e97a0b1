// Sharing a link (a partner link, a source's start link): inside Telegram through the SDK
// (Telegram's own share sheet opens over the Mini App), elsewhere the system's share sheet, and
// where there is none, the clipboard.
import { telegramShell } from '@/telegram/shell';

/** Telegram's share sheet for a link (what the SDK's shareURL opens). */
export const telegramShareUrl = (url: string, text: string) => `https://t.me/share/url?url=${encodeURIComponent(url)}&text=${encodeURIComponent(text)}`;

/** Copies the text; false when the clipboard refused (an old WebView, no permission). */
export async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

export type ShareOutcome = 'shared' | 'copied' | 'cancelled' | 'failed';

export async function shareLink(url: string, text: string): Promise<ShareOutcome> {
  if (telegramShell()?.openTelegramLink(telegramShareUrl(url, text))) return 'shared';
  if (typeof navigator.share === 'function') {
    try {
      await navigator.share({ url, text });
      return 'shared';
    } catch (error) {
      // The visitor closed the sheet: nothing else to do. Any other refusal falls back to copying.
      if (error instanceof DOMException && error.name === 'AbortError') return 'cancelled';
    }
  }
  return (await copyText(url)) ? 'copied' : 'failed';
}
