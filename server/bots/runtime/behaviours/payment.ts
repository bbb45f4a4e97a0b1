// Payments of a payment stage's Stars invoice (sent after the stage's message: replies.ts).
// pre_checkout_query: answered at once (Telegram waits 10 s at most), ok only when the payload
// names a payment stage of this funnel asking that amount in Stars and the payer is the person
// the invoice was sent to; else refused with a reason in the person's language.
// successful_payment: claimed, recorded once per charge id and the payer moved to the paid stage,
// in one statement (PAY_PERSON); its reply goes like any move's. refunded_payment (Telegram
// refunded by itself, or after the owner's refund): recorded once, the person moved to the
// refund stage (REFUND_PAYMENT).
import { Composer, type Context } from 'grammy';
import { parsePaymentPayload, STARS_CURRENCY } from '../../../../contract/payments';
import { untilDatabaseAnswers, type FunnelContext } from '../funnel-context';
import { personValues, takeSlot } from '../replies';
import { ALREADY_HANDLED, type PaymentRecorded } from '../store';
import { bestEffort } from './next-step';

/** Why a pre-checkout is refused, in the person's language (Telegram shows it to them). */
export const PAYMENT_REFUSED_TEXT = {
  en: 'This offer is no longer available. Please open the latest message from the bot.',
  ru: 'Это предложение больше не действует. Откройте последнее сообщение бота.',
} as const;

export function paymentBehaviour(fc: FunnelContext): Composer<Context> {
  const behaviour = new Composer();

  behaviour.on('pre_checkout_query', async (ctx) => {
    const query = ctx.preCheckoutQuery;
    if (!(await fc.store.claimUpdate(fc.funnelId, ctx.update.update_id))) return;
    const named = parsePaymentPayload(query.invoice_payload);
    const amount = named
      ? await untilDatabaseAnswers(fc, 'check a payment', () => fc.store.payableAmount(fc.funnelId, named.stageId, named.personId, query.from.id))
      : null;
    const acceptable = amount !== null && query.currency === STARS_CURRENCY && query.total_amount === amount;
    const language = query.from.language_code === 'ru' ? 'ru' : 'en';
    await bestEffort(fc, 'answer a pre-checkout', () =>
      acceptable ? ctx.answerPreCheckoutQuery(true) : ctx.answerPreCheckoutQuery(false, { error_message: PAYMENT_REFUSED_TEXT[language] }),
    );
  });

  behaviour.on('message:successful_payment', async (ctx) => {
    const paid = ctx.msg.successful_payment;
    const named = parsePaymentPayload(paid.invoice_payload);
    const slot = await takeSlot(fc);
    try {
      const recorded = await fc.store.payPerson(fc.funnelId, ctx.update.update_id, ctx.from.id, {
        stageId: named?.stageId ?? null,
        amount: paid.total_amount,
        currency: paid.currency,
        chargeId: paid.telegram_payment_charge_id,
      });
      await deliverMove(fc, ctx.from, recorded, slot);
    } finally {
      slot?.ticket.done(); // unused (nothing to send, or the claim failed): the window moves on
    }
  });

  behaviour.on('message:refunded_payment', async (ctx) => {
    const refunded = ctx.msg.refunded_payment;
    const slot = await takeSlot(fc);
    try {
      const recorded = await fc.store.refundPayment(fc.funnelId, ctx.update.update_id, ctx.from.id, refunded.telegram_payment_charge_id);
      await deliverMove(fc, ctx.from, recorded, slot);
    } finally {
      slot?.ticket.done();
    }
  });

  return behaviour;
}

/** Sends the reply of the stage a payment or refund moved the person to, if any. */
async function deliverMove(
  fc: FunnelContext,
  from: { id: number; first_name: string; last_name?: string; username?: string },
  recorded: PaymentRecorded | typeof ALREADY_HANDLED,
  slot: Awaited<ReturnType<typeof takeSlot>>,
): Promise<void> {
  if (recorded === ALREADY_HANDLED || recorded.replyId === null || recorded.personId === null) return;
  await fc.deliver({ personId: recorded.personId, chatId: from.id, person: personValues(from), reply: { id: recorded.replyId, stageId: recorded.toStageId }, slot });
}
