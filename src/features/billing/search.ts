// The search of /subscribe/ and /sbscrb/, parsed in the route tree itself (the first paint's
// code): kept apart from the screens' code, and tiny.

/** The search of /subscribe/ and /sbscrb/: the plan chosen before signing in, and the return from the card checkout. */
export interface SubscribeSearch {
  plan?: number;
  paid?: 1;
}

export function validateSubscribeSearch(search: Record<string, unknown>): SubscribeSearch {
  const plan = Number(search.plan);
  return {
    ...(Number.isSafeInteger(plan) && plan > 0 ? { plan } : {}),
    ...(String(search.paid) === '1' ? { paid: 1 as const } : {}),
  };
}
