// What the subscription screens load: the plans (public), and the signed-in visitor's subscription.
import type { Plan, Subscription } from '../../../contract/billing';
import { loadMessages } from '@/i18n/i18n';
import type { AuthSession } from '@/state/session';

export interface SubscribeData {
  plans: Plan[];
  /** Null for a visitor who is not signed in (the plans are public; paying asks for the account). */
  subscription: Subscription | null;
}

export async function loadSubscribe(auth: AuthSession): Promise<SubscribeData> {
  const [api] = await Promise.all([import('@/api/billing'), loadMessages('billing', 'auth')]);
  const signedIn = auth.isActive() && Boolean(auth.user() ?? (await auth.loadUser()));
  const [plans, subscription] = await Promise.all([api.listPlans(), signedIn ? api.getSubscription() : Promise.resolve(null)]);
  return { plans, subscription };
}

/** Whether anything is for sale: a plan with a price. A fresh install has none and gates nothing. */
export function hasPaidPlan(plans: Plan[]): boolean {
  return plans.some((plan) => !plan.is_free && (plan.price_stars !== null || plan.price_card !== null));
}
