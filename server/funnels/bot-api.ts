// Bot API calls made while the user waits (connect, descriptions): one attempt with a short
// timeout and no retries — the user retries, not the server. The bot runtime uses createBot.
import { Api, GrammyError } from 'grammy';
import { type DomainError, invalid, unavailable } from '../domain-error';
import { FUNNEL_ERRORS } from './errors';

export const INTERACTIVE_TIMEOUT_S = 10;

export function interactiveBotApi(token: string, apiRoot: string): Api {
  return new Api(token, { apiRoot, timeoutSeconds: INTERACTIVE_TIMEOUT_S });
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
    if (error instanceof GrammyError) {
      // Telegram answers 404 for a token it cannot even parse.
      if (error.error_code === 401 || error.error_code === 404) throw onUnknownToken;
      if (error.error_code >= 500 || error.error_code === 429) throw unavailable(FUNNEL_ERRORS.telegramDown);
      throw invalid(FUNNEL_ERRORS.telegramRefused(error.description));
    }
    throw unavailable(FUNNEL_ERRORS.telegramDown);
  }
}
