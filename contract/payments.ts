// Payments inside a funnel (issue 24, "Sell"): a payment stage sends a Telegram Stars invoice from
// the funnel's own bot after its message; a payer moves to the stage the owner chose for paid, a
// refund to the one for refunds. Limits (Telegram's for Stars invoices), API paths and the
// invoice payload; the shapes are TypeBox schemas in ./schemas/payments.ts (types re-exported here).
import { fillPath } from './paths';

/** Telegram's limits of an invoice (INVOICE_TITLE_INVALID, INVOICE_DESCRIPTION_INVALID beyond them). */
export const PAYMENT_TITLE_MAX = 32;
export const PAYMENT_DESCRIPTION_MAX = 255;
/** The most one Stars invoice may ask (CURRENCY_TOTAL_AMOUNT_INVALID beyond it). */
export const PAYMENT_AMOUNT_MAX = 100_000;
/** Telegram Stars: the only currency of digital goods sold inside Telegram. */
export const STARS_CURRENCY = 'XTR';
/** An invoice's payload is at most this many bytes. */
export const INVOICE_PAYLOAD_MAX_BYTES = 128;
/** The payload of a payment stage's invoice: "fp:<stage id>:<person id>" (far below 128 bytes). */
export const FUNNEL_PAYMENT_PAYLOAD_PREFIX = 'fp:';

export const PAYMENT_STATES = ['paid', 'refunded'] as const;
export type PaymentState = (typeof PAYMENT_STATES)[number];
export const PAYMENT_PROVIDERS = ['stars', 'external'] as const;
export type PaymentProvider = (typeof PAYMENT_PROVIDERS)[number];

export const PAYMENTS_PATHS = {
  stagePayment: '/api/funnels/:id/stages/:stageId/payment/',
  refund: '/api/funnels/:id/people/:personId/payments/:paymentId/refund/',
} as const;

export const PAYMENTS_API = {
  stagePayment: (id: number, stageId: number) => fillPath(PAYMENTS_PATHS.stagePayment, { id, stageId }),
  refund: (id: number, personId: number, paymentId: number) => fillPath(PAYMENTS_PATHS.refund, { id, personId, paymentId }),
} as const;

/** The invoice payload naming a payment stage and the person it was sent to. */
export function paymentPayload(stageId: number, personId: number): string {
  return `${FUNNEL_PAYMENT_PAYLOAD_PREFIX}${stageId}:${personId}`;
}

/** The stage and person of a payment stage's invoice payload, or null for any other payload. */
export function parsePaymentPayload(payload: string): { stageId: number; personId: number } | null {
  const match = /^fp:(\d{1,10}):(\d{1,10})$/.exec(payload);
  return match ? { stageId: Number(match[1]), personId: Number(match[2]) } : null;
}

export type * from './schemas/payments';
