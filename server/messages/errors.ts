// The message validator's own messages (the rest are COMMON_ERRORS), thrown by the services that
// validate a message (stages, mailings, letters) as a DomainError (../domain-error.ts).
import type { DomainMessage } from '../domain-error';

export const MESSAGE_ERRORS = {
  badButtonUrl: { code: 'bad_button_url', text: 'Enter a valid URL: http://, https:// or tg://.' },
  /** Telegram would refuse the message's HTML: its technical reason goes along as `detail`. */
  badHtml: (reason: string): DomainMessage => ({ code: 'bad_html', text: reason, detail: reason }),
} as const satisfies Record<string, DomainMessage | ((...args: never[]) => DomainMessage)>;
