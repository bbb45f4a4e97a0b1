// The payments API (issue 24, "Sell"): a stage's Stars invoice (PUT sets it, DELETE clears it;
// both answer the whole stage) and the owner's refund of a person's payment. Handlers parse ids
// and call server/funnels/payments.ts, which names the signed-in owner in every statement:
// another user's funnel, stage, person or payment is 404.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { PAYMENTS_PATHS } from '../../../contract/payments';
import { StageSchema } from '../../../contract/schemas/funnels';
import { PersonPaymentSchema, StagePaymentSchema } from '../../../contract/schemas/payments';
import { parseId } from '../../funnels/access';
import type { Services } from '../../services';
import { currentUser } from '../auth/authenticate';

export type PaymentRoutesDeps = Pick<Services, 'payments'>;

/** Path ids as text: the handler parses them (anything but an id of ours is 404, not 400). */
const stageParams = Type.Object({ id: Type.String(), stageId: Type.String() });
const refundParams = Type.Object({ id: Type.String(), personId: Type.String(), paymentId: Type.String() });

const ownerOf = (request: FastifyRequest) => currentUser(request).id;

export function paymentRoutes({ payments }: PaymentRoutesDeps) {
  return async function plugin(untyped: FastifyInstance): Promise<void> {
    const app = untyped.withTypeProvider<TypeBoxTypeProvider>();

    app.put(PAYMENTS_PATHS.stagePayment, { schema: { params: stageParams, body: StagePaymentSchema, response: { 200: StageSchema } } }, async (request) =>
      payments.setStagePayment(ownerOf(request), parseId(request.params.id), parseId(request.params.stageId), request.body),
    );
    app.delete(PAYMENTS_PATHS.stagePayment, { schema: { params: stageParams, response: { 200: StageSchema } } }, async (request) =>
      payments.clearStagePayment(ownerOf(request), parseId(request.params.id), parseId(request.params.stageId)),
    );
    app.post(PAYMENTS_PATHS.refund, { schema: { params: refundParams, response: { 200: PersonPaymentSchema } } }, async (request) =>
      payments.refund(ownerOf(request), parseId(request.params.id), parseId(request.params.personId), parseId(request.params.paymentId)),
    );
  };
}
