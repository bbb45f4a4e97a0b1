// The billing API's calls (contract/billing.ts): plans (public), the signed-in user's
// subscription, paying (Stars invoice, card checkout), the cancel link, and the admins' plans.
// Only the billing screens and Settings import this, so it loads with their chunks.
import { BILLING_API, type AdminPlan, type AdminPlanInput, type AdminPlanPatch, type CancelInfo, type CardCheckout, type Plan, type StarsInvoice, type Subscription } from '../../contract/billing';
import { apiPath, authClient, publicClient } from './clients';

export const listPlans = () => publicClient.get(apiPath(BILLING_API.plans)).json<Plan[]>();
export const getSubscription = () => authClient.get(apiPath(BILLING_API.subscription)).json<Subscription>();
export const createStarsInvoice = (planId: number) => authClient.post(apiPath(BILLING_API.starsInvoice), { json: { plan_id: planId } }).json<StarsInvoice>();
export const createCardCheckout = (planId: number) => authClient.post(apiPath(BILLING_API.cardCheckout), { json: { plan_id: planId } }).json<CardCheckout>();
/** The signed cancel link's subscription (no login: the token is the credential). */
export const readCancel = (token: string) => publicClient.get(apiPath(BILLING_API.cancel), { searchParams: { token } }).json<CancelInfo>();
export const confirmCancel = (token: string) => publicClient.post(apiPath(BILLING_API.cancel), { json: { token } }).json<CancelInfo>();
export const listAdminPlans = () => authClient.get(apiPath(BILLING_API.adminPlans)).json<AdminPlan[]>();
export const createPlan = (body: AdminPlanInput) => authClient.post(apiPath(BILLING_API.adminPlans), { json: body }).json<AdminPlan>();
export const updatePlan = (id: number, body: AdminPlanPatch) => authClient.patch(apiPath(BILLING_API.adminPlan(id)), { json: body }).json<AdminPlan>();
