// The billing service's messages, thrown as a DomainError (../domain-error.ts).
import type { DomainMessage } from '../domain-error';

export const BILLING_ERRORS = {
  /** 402 for every gated action (the app shows 'Subscription isn't active'). */
  subscriptionInactive: { code: 'subscription_inactive', text: "Subscription isn't active" },
  badCancelToken: { code: 'invalid', text: 'This link is not valid. Open the latest link from the service bot or the e-mail.' },
  oldCancelToken: { code: 'invalid', text: 'This link belongs to an earlier subscription. Open the latest link from the service bot or the e-mail.' },
  nothingToCancel: { code: 'invalid', text: 'There is no subscription to cancel.' },
  cardCurrencyWithPrice: { code: 'invalid', text: 'A card price needs its currency, and a currency needs a price.' },
  freePlanPriced: { code: 'invalid', text: 'The free plan has no price.' },
  cancelUnavailable: { code: 'invalid', text: 'The payment service could not be reached. Try again in a minute.' },
} as const satisfies Record<string, DomainMessage>;
