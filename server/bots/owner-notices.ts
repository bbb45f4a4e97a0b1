// Notices to a funnel's owner when something stops by itself: the bot's token was revoked (the
// runtime stopped the funnel), a mailing paused itself (the delivery engine, through
// mailings/state.ts), or an outgoing webhook switched itself off (outbox/webhook-sender.ts). Each goes once per event (the callers call only on the write that made the
// change) by the service bot, when the owner's account has their Telegram identity, and by
// e-mail, when it has an address; in the owner's language, with a link to the screen where it is
// fixed. A channel that fails is logged; the other still goes.
import { Api, InlineKeyboard } from 'grammy';
import type { Language } from '../../contract/constants';
import type { MailingPauseReason } from '../../contract/mailings';
import type { Config } from '../config';
import type { Db } from '../db';
import type { Mailer } from '../mail/mailer';
import { renderOwnerNotice, type OwnerNotice } from '../mail/notices';

export interface OwnerNotices {
  /** The funnel's bot was stopped because Telegram refused its token (401). */
  tokenRevoked(funnelId: number): Promise<void>;
  /** A mailing paused itself (the engine's reason). */
  mailingPaused(mailingId: number, reason: MailingPauseReason): Promise<void>;
  /** An outgoing webhook switched itself off after a day of failed deliveries. */
  webhookDisabled(webhookId: number): Promise<void>;
}

export interface OwnerNoticeLog {
  warn(object: object, message: string): void;
}

interface Owner {
  email: string | null;
  language: Language;
  telegram_id: number | string | null;
  funnel_id: number;
  funnel_name: string;
  bot_username: string | null;
}

const OWNER_COLUMNS = `u.email, u.language, u.telegram_id, f.id as funnel_id, f.name as funnel_name, f.bot_username`;

export function createOwnerNotices({
  db,
  config,
  mailer,
  log,
}: {
  db: Db;
  config: Pick<Config, 'telegramBotToken' | 'telegramApiRoot' | 'publicUrl'>;
  mailer: Mailer;
  log: OwnerNoticeLog;
}): OwnerNotices {
  const serviceBot = config.telegramBotToken ? new Api(config.telegramBotToken, { apiRoot: config.telegramApiRoot }) : null;

  async function tell(owner: Owner, notice: OwnerNotice): Promise<void> {
    const rendered = renderOwnerNotice(owner.language, notice);
    const sends: Promise<void>[] = [];
    if (serviceBot && owner.telegram_id !== null) {
      // Telegram opens Mini App buttons on https addresses only; elsewhere the link ends the text.
      const https = notice.link.startsWith('https://');
      const text = https ? rendered.chat : `${rendered.chat}\n\n${notice.link}`;
      const markup = https ? { reply_markup: new InlineKeyboard().webApp(rendered.button, notice.link) } : {};
      sends.push(
        serviceBot.sendMessage(Number(owner.telegram_id), text, markup).then(
          () => undefined,
          (error: unknown) => log.warn({ funnel_id: owner.funnel_id }, `could not send the owner's notice by the service bot: ${describe(error)}`),
        ),
      );
    }
    if (owner.email) {
      sends.push(
        mailer.send({ to: owner.email, ...rendered.mail, links: [notice.link] }).catch((error: unknown) => {
          log.warn({ funnel_id: owner.funnel_id }, `could not e-mail the owner's notice: ${describe(error)}`);
        }),
      );
    }
    await Promise.all(sends);
  }

  return {
    async tokenRevoked(funnelId) {
      const [owner] = await db.query<Owner>(`select ${OWNER_COLUMNS} from funnels f join users u on u.id = f.owner_id where f.id = $1`, [funnelId]);
      if (!owner) return;
      await tell(owner, {
        kind: 'token_revoked',
        funnelName: owner.funnel_name,
        botUsername: owner.bot_username,
        link: `${config.publicUrl}/content/funnels/${funnelId}/token/`,
      });
    },
    async mailingPaused(mailingId, reason) {
      const [owner] = await db.query<Owner & { mailing_title: string }>(
        `select ${OWNER_COLUMNS}, m.title as mailing_title
           from mailings m join funnels f on f.id = m.funnel_id join users u on u.id = f.owner_id where m.id = $1`,
        [mailingId],
      );
      if (!owner) return;
      await tell(owner, {
        kind: 'mailing_paused',
        mailingTitle: owner.mailing_title,
        funnelName: owner.funnel_name,
        reason,
        link: `${config.publicUrl}/content/funnels/${owner.funnel_id}/mailings/${mailingId}/`,
      });
    },
    async webhookDisabled(webhookId) {
      const [owner] = await db.query<Owner & { url: string }>(
        `select ${OWNER_COLUMNS}, w.url from funnel_webhooks w join funnels f on f.id = w.funnel_id join users u on u.id = f.owner_id where w.id = $1`,
        [webhookId],
      );
      if (!owner) return;
      await tell(owner, {
        kind: 'webhook_disabled',
        url: owner.url,
        funnelName: owner.funnel_name,
        link: `${config.publicUrl}/content/funnels/${owner.funnel_id}/webhooks/`,
      });
    },
  };
}

function describe(error: unknown): string {
  // grammY's errors never carry the token in their message (describeBotApiError's concern is the cause).
  return error instanceof Error ? error.message : String(error);
}
