// The partner programme end to end, in Chromium against the real server: a partner's web link
// brings a new visitor (the click is counted, the uid kept in the ref cookie, the address
// cleaned), who signs up and is attributed to the partner; the partner sees the click and the
// sign-up on the dashboard.
import { PARTNER_API, REF_COOKIE, type PartnerLink } from '../contract/partner';
import { ROUTES } from '../contract/routes';
import { linkIn, waitForMail } from './support/mail';
import { newUser } from './support/api';
import { signIn } from './support/builder';
import { BASE_URL } from './support/env';
import { expect, test, type APIRequestContext, type Page } from './support/test';

const auth = (token: string) => ({ authorization: `Token ${token}` });

async function defaultLink(request: APIRequestContext, token: string): Promise<PartnerLink> {
  const res = await request.get(PARTNER_API.links, { headers: auth(token) });
  expect(res.status(), await res.text()).toBe(200);
  const links = (await res.json()) as PartnerLink[];
  const link = links.find((candidate) => candidate.is_default);
  if (!link) throw new Error('the partner has no default link');
  return link;
}

/** Signs up through the form (the ref cookie goes along) and activates from the e-mail. */
async function signUpAndActivate(page: Page, prefix: string): Promise<void> {
  const user = newUser(prefix);
  await page.goto(ROUTES.signUp);
  await page.getByLabel('First name').fill(user.firstName);
  await page.getByLabel('Last name').fill(user.lastName);
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password', { exact: true }).fill(user.password);
  await page.getByLabel('Repeat password').fill(user.password);
  const since = Date.now();
  await page.getByRole('button', { name: 'Sign up' }).click();
  await expect(page.getByRole('heading', { name: 'Check entered email' })).toBeVisible();
  await page.goto(linkIn(await waitForMail(user.email, since, '/activate/'), '/activate/'));
  await expect(page.getByRole('heading', { name: 'Account activated' })).toBeVisible();
}

test("a partner's web link brings a visitor who signs up; the partner sees the click and the sign-up", async ({ page, browser, request }) => {
  const partnerToken = await signIn(page, request, 'partner');
  const link = await defaultLink(request, partnerToken);
  expect(link.web_url).toBe(`${BASE_URL}/?ref=${link.uid}`);

  // The partner's dashboard before anyone came: no clicks, the links to share.
  await page.goto(ROUTES.partnerDashboard);
  await expect(page.getByTestId('partner-total-clicks')).toHaveText('0');
  await expect(page.getByTestId('partner-link-web').getByTestId('partner-link-url')).toHaveText(link.web_url);
  await expect(page.getByRole('heading', { name: 'Share your link' })).toBeVisible();

  // A new visitor opens the link: the address loses ?ref=, the cookie keeps the uid.
  const visitorContext = await browser.newContext();
  const visitor = await visitorContext.newPage();
  await visitor.goto(link.web_url);
  // A guest at / goes on to sign in: wherever they are, ?ref= is gone.
  await expect(visitor).toHaveURL(/\/sign-in\//);
  expect(new URL(visitor.url()).searchParams.has('ref')).toBe(false);
  await expect.poll(async () => (await visitorContext.cookies()).find((cookie) => cookie.name === REF_COOKIE)?.value).toBe(link.uid);
  await signUpAndActivate(visitor, 'referred');
  await visitorContext.close();

  // The partner sees the click and the sign-up, on the dashboard and on the link's own screen.
  await page.reload();
  await expect(page.getByTestId('partner-total-clicks')).toHaveText('1');
  await expect(page.getByTestId('partner-total-signups')).toHaveText('1');
  await page.getByTestId('partner-link-stats').first().click();
  await expect(page).toHaveURL(new RegExp(`/partner/dashboard/${link.uid}/$`));
  await expect(page.getByTestId('partner-funnel-clicks')).toContainText('1');
  await expect(page.getByTestId('partner-funnel-signups')).toContainText('1');
  await expect(page.getByTestId('partner-chart').locator('canvas')).toBeVisible();
});
