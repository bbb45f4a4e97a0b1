// Paid plans for e2e: a paid plan turns gating on for every user of the shared e2e server, so
// each spec that makes one archives it when its test ends (`withCardPlan`), whatever happened.
import type { APIRequestContext } from '@playwright/test';
import { BILLING_API } from '../../contract/billing';
import { adminToken } from './api';
import { E2E_ADMIN_EMAIL } from './env';
import { expect } from './test';

/** Runs `use` with a new paid plan of $12.99 a month by card (made by the admin of ADMIN_EMAILS), archived afterwards. */
export async function withCardPlan(request: APIRequestContext, use: (planId: number) => Promise<void>): Promise<void> {
  const headers = { authorization: `Token ${await adminToken(request, E2E_ADMIN_EMAIL)}` };
  const res = await request.post(BILLING_API.adminPlans, {
    headers,
    data: { title: `Card ${Date.now().toString(36)}`, limits: { running_funnels: null, people: null, mailings: true, letters: true }, price_card: 1299, card_currency: 'USD' },
  });
  expect(res.status(), await res.text()).toBe(201);
  const planId = ((await res.json()) as { id: number }).id;
  try {
    await use(planId);
  } finally {
    const archived = await request.patch(BILLING_API.adminPlan(planId), { headers, data: { archived: true } });
    expect(archived.status(), await archived.text()).toBe(200);
  }
}
