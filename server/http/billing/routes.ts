// The billing API (issue 23). Anyone sees the plans and opens a cancel link (signed: no login);
// the signed-in user sees where they stand; admins edit the plans (403 for anyone else, before
// the body is read). Stars invoices, the card checkout and its webhook, and refunds are added by
// their own plugins.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { BILLING_PATHS } from '../../../contract/billing';
import {
  AdminPlanInputSchema,
  AdminPlanListSchema,
  AdminPlanPatchSchema,
  AdminPlanSchema,
  CancelInfoSchema,
  CancelTokenSchema,
  PlanListSchema,
  SubscriptionSchema,
} from '../../../contract/schemas/billing';
import { parseId } from '../../funnels/access';
import type { Services } from '../../services';
import { currentAdmin, currentUser } from '../auth/authenticate';

export type BillingRoutesDeps = Pick<Services, 'billing'>;

const params = Type.Object({ id: Type.String() });

/** The signed-in part: the user's subscription, and the admins' plans. */
export function billingRoutes({ billing }: BillingRoutesDeps) {
  return async function signedIn(untyped: FastifyInstance): Promise<void> {
    const app = untyped.withTypeProvider<TypeBoxTypeProvider>();
    const admin = async (request: FastifyRequest) => {
      currentAdmin(request);
    };

    app.get(BILLING_PATHS.subscription, { schema: { response: { 200: SubscriptionSchema } } }, async (request) => billing.subscription(currentUser(request).id));

    app.get(BILLING_PATHS.adminPlans, { onRequest: admin, schema: { response: { 200: AdminPlanListSchema } } }, async () => billing.adminPlans());
    app.post(BILLING_PATHS.adminPlans, { onRequest: admin, schema: { body: AdminPlanInputSchema, response: { 201: AdminPlanSchema } } }, async (request, reply) =>
      reply.code(201).send(await billing.createPlan(request.body)),
    );
    app.patch(BILLING_PATHS.adminPlan, { onRequest: admin, schema: { params, body: AdminPlanPatchSchema, response: { 200: AdminPlanSchema } } }, async (request) =>
      billing.updatePlan(parseId(request.params.id), request.body),
    );
    app.delete(BILLING_PATHS.adminPlan, { onRequest: admin, schema: { params } }, async (request, reply) => {
      const { archived } = await billing.removePlan(parseId(request.params.id));
      // A used plan stays (archived): it is answered as it now is.
      if (archived) return reply.code(200).send((await billing.adminPlans()).find((plan) => plan.id === parseId(request.params.id)));
      return reply.code(204).send();
    });
  };
}

/** No login: the plans on offer, and the signed cancel link. */
export function billingPublicRoutes({ billing }: BillingRoutesDeps) {
  return async function open(untyped: FastifyInstance): Promise<void> {
    const app = untyped.withTypeProvider<TypeBoxTypeProvider>();
    app.get(BILLING_PATHS.plans, { schema: { response: { 200: PlanListSchema } } }, async () => billing.listPlans());
    app.get(BILLING_PATHS.cancel, { schema: { querystring: CancelTokenSchema, response: { 200: CancelInfoSchema } } }, async (request) =>
      billing.cancelPreview(request.query.token),
    );
    app.post(BILLING_PATHS.cancel, { schema: { body: CancelTokenSchema, response: { 200: CancelInfoSchema } } }, async (request) =>
      billing.cancelByToken(request.body.token),
    );
  };
}
