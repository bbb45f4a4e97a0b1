// Card payment in Chromium through the fake Stripe the e2e setup starts (playwright.config.ts):
// the server's checkout sends the payer to the fake's page, Pay sends the server Stripe-signed
// webhooks and comes back to /sbscrb/?paid=1, and the subscription is then active by card.
// The /sbscrb/ screen itself is the billing screens' business: here its address is only reached.
import { BILLING_API, CARD_SUBSCRIBE_ROUTE } from '../contract/billing';
import type { Subscription } from '../contract/schemas/billing';
import { createActiveUser, loginToken } from './support/api';
import { withCardPlan } from './support/billing';
import { BASE_URL, FAKE_STRIPE_URL } from './support/env';
import { expect, test, type APIRequestContext } from './support/test';

const auth = (token: string) => ({ authorization: `Token ${token}` });

async function subscription(request: APIRequestContext, token: string): Promise<Subscription> {
  const res = await request.get(BILLING_API.subscription, { headers: auth(token) });
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()) as Subscription;
}

test('a card payment on the provider\'s page comes back to /sbscrb/ with the subscription active', async ({ page, request }) => {
  await withCardPlan(request, async (planId) => {
    const token = await loginToken(request, await createActiveUser(request));
    const checkout = await request.post(BILLING_API.cardCheckout, { headers: auth(token), data: { plan_id: planId } });
    expect(checkout.status(), await checkout.text()).toBe(200);
    const { url } = (await checkout.json()) as { url: string };
    expect(url.startsWith(`${FAKE_STRIPE_URL}/`)).toBe(true);

    // Where the payer lands: answered here, so that only the payment is under test.
    await page.route(`${BASE_URL}${CARD_SUBSCRIBE_ROUTE}**`, (route) => route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>back</title><p>back in the app</p>' }));
    await page.goto(url);
    await expect(page.getByText('12.99 USD')).toBeVisible();
    await expect(page.getByRole('link', { name: 'Cancel' })).toHaveAttribute('href', `${BASE_URL}${CARD_SUBSCRIBE_ROUTE}`);
    await page.getByRole('button', { name: 'Pay' }).click();
    await page.waitForURL(`${BASE_URL}${CARD_SUBSCRIBE_ROUTE}?paid=1`);

    await expect.poll(async () => (await subscription(request, token)).state).toBe('active');
    expect(await subscription(request, token)).toMatchObject({ method: 'card', plan: { id: planId } });
  });
});
