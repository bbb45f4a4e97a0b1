// Each screen opened fresh by its address (a new browser context, no other screen loaded before)
// shows the elements several features share styled as src/styles.css says: those classes live in
// the shared stylesheet of the first paint, not in one feature's stylesheet that only its own
// screens load (a mailing or a folder screen once showed full-width 50 px "small" buttons and a
// bare warning until a funnel screen had been visited).
import { expect, test, type APIRequestContext, type Locator, type Page } from './support/test';
import { AUTH_COOKIE } from '../contract/constants';
import { CRM_API } from '../contract/crm';
import { FUNNELS_API } from '../contract/funnels';
import { TEMPLATES_API } from '../contract/templates';
import { adminToken } from './support/api';
import { fakeBot } from './support/builder';
import { BASE_URL, E2E_ADMIN_EMAIL } from './support/env';

/** src/styles.css: .button--small. */
const SMALL_BUTTON = { 'min-height': '36px', 'font-size': '15px', 'padding-left': '14px', 'border-top-left-radius': '10px' };
/** src/styles.css: .section-footer--warning. */
const WARNING = { 'margin-top': '8px', 'padding-top': '10px', 'padding-left': '12px', 'border-top-left-radius': '12px' };

interface Owned {
  token: string;
  funnelId: number;
  archivedFolderId: number;
  unpublishedTemplateId: number;
}

/** One account (the admin, who alone may publish templates) with a funnel, an archived folder and an unpublished template. */
async function ownedThings(request: APIRequestContext): Promise<Owned> {
  const token = await adminToken(request, E2E_ADMIN_EMAIL);
  const headers = { Authorization: `Token ${token}` };
  const created = async <T>(response: Promise<Awaited<ReturnType<APIRequestContext['post']>>>): Promise<T> => {
    const res = await response;
    expect(res.ok(), await res.text()).toBe(true);
    return (await res.json()) as T;
  };
  const bot = await fakeBot(request, 'e2e_styles');
  const funnel = await created<{ id: number }>(request.post(FUNNELS_API.funnels, { headers, data: { bot_token: bot.token, name: 'Styles' } }));
  await created(request.post(FUNNELS_API.stages(funnel.id), { headers, data: { title: 'Welcome' } }));
  const folder = await created<{ id: number }>(request.post(CRM_API.folders, { headers, data: { name: 'Old client' } }));
  expect((await request.post(CRM_API.archive(folder.id), { headers })).ok()).toBe(true);
  const template = await created<{ id: number }>(request.post(TEMPLATES_API.templates, { headers, data: { funnel_id: funnel.id, name: 'Styles template' } }));
  expect((await request.patch(TEMPLATES_API.template(template.id), { headers, data: { published: false } })).ok()).toBe(true);
  return { token, funnelId: funnel.id, archivedFolderId: folder.id, unpublishedTemplateId: template.id };
}

let owned: Owned;
test.beforeAll(async ({ playwright }) => {
  const request = await playwright.request.newContext({ baseURL: BASE_URL });
  owned = await ownedThings(request);
  await request.dispose();
});

/** Opens `path` as the first screen of a fresh page, signed in. */
async function openFresh(page: Page, path: string): Promise<void> {
  await page.context().addCookies([{ name: AUTH_COOKIE, value: owned.token, url: BASE_URL }]);
  await page.goto(path);
}

/** Waits until the element's computed style has these values (the shared stylesheet applied). */
async function expectStyled(element: Locator, expected: Record<string, string>): Promise<void> {
  await expect(element).toBeVisible();
  await expect
    .poll(() => element.evaluate((node, names) => Object.fromEntries(names.map((name) => [name, getComputedStyle(node).getPropertyValue(name)])), Object.keys(expected)))
    .toEqual(expected);
}

test('a new mailing, opened by its address: the editor\'s small button', async ({ page }) => {
  await openFresh(page, `/content/funnels/${owned.funnelId}/mailings/new/`);
  await expectStyled(page.getByRole('button', { name: 'Add a link button' }), SMALL_BUTTON);
});

test('an archived folder, opened by its address: the warning under its header', async ({ page }) => {
  await openFresh(page, `/content/folders/${owned.archivedFolderId}/`);
  await expectStyled(page.locator('.section-footer--warning'), WARNING);
});

test('the contacts, opened by their address: the small CSV button', async ({ page }) => {
  await openFresh(page, '/content/contacts/');
  await expectStyled(page.getByTestId('contacts-csv'), SMALL_BUTTON);
});

test('an unpublished template, opened by its address: the warning', async ({ page }) => {
  await openFresh(page, `/templates/${owned.unpublishedTemplateId}/`);
  await expectStyled(page.locator('.section-footer--warning'), WARNING);
});

test('the account settings, opened by their address: the small save button', async ({ page }) => {
  await openFresh(page, '/settings/account/');
  await expectStyled(page.locator('form button.button--small').first(), SMALL_BUTTON);
});
