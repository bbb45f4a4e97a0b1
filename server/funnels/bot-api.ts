// The domain's port to Telegram for calls made while the user waits (connect, descriptions, a
// reply from the inbox). The domain knows no Telegram client: server/telegram/client.ts makes one
// (interactiveBotApi: one attempt, a short timeout, no retries) and server/services.ts hands it in.
import type { Api } from 'grammy';
import { type DomainError, invalid, unavailable } from '../domain-error';
import { FUNNEL_ERRORS } from './errors';

/** The Bot API methods the domain calls (their types are Telegram's; the client is not the domain's). */
export type InteractiveBotApi = Pick<Api, 'getMe' | 'getMyDescription' | 'getMyShortDescription' | 'setMyDescription' | 'setMyShortDescription' | 'sendMessage'>;
/** A client for a bot's token. */
export type BotApiFor = (token: string) => InteractiveBotApi;

/**
 * Telegram's refusal as the Bot API answers it ({ error_code, description }), whichever client
 * made the call; null for anything else (a timeout, the network).
 */
export function telegramRefusal(error: unknown): { error_code: number; description: string } | null {
  if (typeof error !== 'object' || error === null) return null;
  const { error_code: code, description } = error as { error_code?: unknown; description?: unknown };
  return typeof code === 'number' ? { error_code: code, description: typeof description === 'string' ? description : '' } : null;
}

/**
 * Runs one Bot API call, turning its failure into a DomainError: an unknown token into
 * `onUnknownToken`, Telegram's 5xx, 429s, timeouts and network trouble into "not answering",
 * any other refusal into its own description.
 */
export async function callTelegram<T>(call: () => Promise<T>, onUnknownToken: DomainError): Promise<T> {
  try {
    return await call();
  } catch (error) {
    const refusal = telegramRefusal(error);
    if (refusal) {
      // Telegram answers 404 for a token it cannot even parse.
      if (refusal.error_code === 401 || refusal.error_code === 404) throw onUnknownToken;
      if (refusal.error_code >= 500 || refusal.error_code === 429) throw unavailable(FUNNEL_ERRORS.telegramDown);
      throw invalid(FUNNEL_ERRORS.telegramRefused(refusal.description));
    }
    throw unavailable(FUNNEL_ERRORS.telegramDown);
  }
}
