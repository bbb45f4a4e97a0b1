// Telegram Stars (issue 23): a signed-in user gets an invoice link for a plan, which the Mini App
// opens; an admin refunds a user's last Stars payment (403 for anyone else, before the body is
// looked at). Payments themselves arrive through the service bot, not here.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { BILLING_PATHS } from '../../../contract/billing';
import { AdminRefundInputSchema, AdminRefundSchema, PlanChoiceSchema, StarsInvoiceSchema } from '../../../contract/schemas/billing';
import type { StarsService } from '../../billing/stars';
import { currentAdmin, currentUser } from '../auth/authenticate';

export function starsRoutes({ stars }: { stars: StarsService }) {
  return async function starsRoutesPlugin(untyped: FastifyInstance): Promise<void> {
    const app = untyped.withTypeProvider<TypeBoxTypeProvider>();
    const admin = async (request: FastifyRequest) => {
      currentAdmin(request);
    };

    app.post(BILLING_PATHS.starsInvoice, { schema: { body: PlanChoiceSchema, response: { 200: StarsInvoiceSchema } } }, async (request) =>
      stars.createInvoice(currentUser(request).id, request.body.plan_id),
    );

    app.post(
      BILLING_PATHS.adminRefunds,
      { onRequest: admin, schema: { body: AdminRefundInputSchema, response: { 200: AdminRefundSchema } } },
      async (request) => stars.refundLastPayment(request.body.user_id),
    );
  };
}
