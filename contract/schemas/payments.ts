// Every shape of payments inside a funnel (see ./funnels.ts for how these are used). The SPA
// imports the types only, through contract/payments.ts.
import { Type, type Static } from 'typebox';
import { PAYMENT_AMOUNT_MAX, PAYMENT_DESCRIPTION_MAX, PAYMENT_PROVIDERS, PAYMENT_STATES, PAYMENT_TITLE_MAX } from '../payments';
import { Nullable, StringEnum, Text } from './common';

const Timestamp = () => Text();

/**
 * A payment stage: after its message the person gets a Stars invoice (title, description, amount
 * in Stars); a payer moves to paid_stage_id, a refund to refund_stage_id. A stage id is null when
 * that stage was deleted: the payment is broken (the funnel cannot run until it is fixed).
 */
export const StagePaymentSchema = Type.Object({
  title: Text(PAYMENT_TITLE_MAX, 1),
  description: Text(PAYMENT_DESCRIPTION_MAX, 1),
  amount: Type.Integer({ minimum: 1, maximum: PAYMENT_AMOUNT_MAX }),
  paid_stage_id: Nullable(Type.Integer()),
  refund_stage_id: Nullable(Type.Integer()),
});
export type StagePayment = Static<typeof StagePaymentSchema>;

/** One payment of a person, on their screen. */
export const PersonPaymentSchema = Type.Object({
  id: Type.Integer(),
  /** The payment stage (null: deleted since, or paid elsewhere). */
  stage_id: Nullable(Type.Integer()),
  amount: Type.Integer(),
  currency: Text(),
  provider: StringEnum(PAYMENT_PROVIDERS),
  charge_id: Text(),
  state: StringEnum(PAYMENT_STATES),
  created_at: Timestamp(),
  refunded_at: Nullable(Timestamp()),
});
export type PersonPayment = Static<typeof PersonPaymentSchema>;
