// The Stars side of cancelling: editUserStarSubscription(user, first charge id, is_canceled: true)
// through the service bot. Telegram stops renewing; access lasts to the end of the paid period.
import type { Db } from '../db';
import type { PaymentMethodPort } from './ports';

/** The service bot, as far as cancelling needs it (server/telegram/client.ts makes it). */
export interface StarsCancelBot {
  editUserStarSubscription(userId: number, telegramPaymentChargeId: string, isCanceled: boolean): Promise<unknown>;
}

export function starsCancelPort({ db, serviceBot }: { db: Db; serviceBot: StarsCancelBot | null }): PaymentMethodPort {
  return {
    async cancelRenewal(subscription) {
      if (!serviceBot) throw new Error('no service bot (TELEGRAM_BOT_TOKEN) to cancel a Stars subscription with');
      if (!subscription.externalId) throw new Error('the Stars subscription has no charge id');
      const [user] = await db.query<{ telegram_id: number | string | null }>('select telegram_id from users where id = $1', [subscription.userId]);
      if (!user || user.telegram_id === null) throw new Error('the subscriber has no Telegram identity');
      await serviceBot.editUserStarSubscription(Number(user.telegram_id), subscription.externalId, true);
    },
  };
}
