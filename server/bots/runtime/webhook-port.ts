// What the HTTP layer tells the bot runtime in webhook mode: "Telegram delivered this update for
// this funnel's bot". The runtime (runtime.ts) implements it; server/http/webhooks/ receives the
// POST, checks the secret token and calls it. Nothing here knows HTTP.
import { createHmac } from 'node:crypto';
import type { Update } from 'grammy/types';

/** Where Telegram delivers a funnel bot's updates in webhook mode (under PUBLIC_URL). */
export const FUNNEL_WEBHOOK_PATH = '/telegram/funnels/:id';
export const funnelWebhookPath = (funnelId: number) => `/telegram/funnels/${funnelId}`;
/** The header Telegram sends the webhook's secret_token in. */
export const WEBHOOK_SECRET_HEADER = 'x-telegram-bot-api-secret-token';

/** The webhook's secret_token for one funnel: derived from SECRET_KEY, so every process agrees. */
export function funnelWebhookSecret(secretKey: string, funnelId: number): string {
  return createHmac('sha256', secretKey).update(`telegram funnel webhook ${funnelId}`).digest('base64url');
}

/**
 * handled: the funnel's bot handled it (or had already: a repeated delivery counts once);
 * dropped: the funnel exists but does not run, so the update is let go (a failure would make
 * Telegram deliver it again and again); unknown: no such funnel takes webhook deliveries here;
 * unavailable: the runtime is stopping (the process shuts down), so Telegram must deliver it
 * again later, to the next process; answered 200, it would be lost. not_taken: the database
 * could not be reached, so nothing of the update happened: Telegram must deliver it again.
 */
export type WebhookDelivery = 'handled' | 'dropped' | 'unknown' | 'unavailable' | 'not_taken';

export interface FunnelWebhookPort {
  deliver(funnelId: number, update: Update): Promise<WebhookDelivery>;
}
