// An upload over the limit that gets past the app's own size check (a file that says it is small)
// reaches the server, which refuses it with 413 and its JSON before the body has arrived: Chromium
// must read that answer, not a reset connection, and the screen says 'File too big'.
import { expect, failedRequest, test, type Page } from './support/test';
import { CRM_API } from '../contract/crm';
import { FUNNELS_API, PHOTO_MAX_BYTES } from '../contract/funnels';
import { LETTERS_API } from '../contract/letters';
import { fakeBot, signIn } from './support/builder';

/** Every file picked on the page says it is tiny: the app's own check lets it through to the server. */
async function filesSayTheyAreSmall(page: Page): Promise<void> {
  await page.addInitScript(() => {
    Object.defineProperty(File.prototype, 'size', { get: () => 1024, configurable: true });
  });
}

test('a picture over the limit, sent past the app\'s check, is answered 413 and shown as File too big', async ({ allowConsoleError, page, request }) => {
  allowConsoleError(failedRequest(413, /\/api\/folders\/\d+\/picture\//));
  const key = await signIn(page, request, 'upload');
  const folder = (await (await request.post(CRM_API.folders, { headers: { Authorization: `Token ${key}` }, data: { name: 'Big pictures' } })).json()) as { id: number };
  // The app checks a file's size before sending it: make every picked file say it is tiny, so
  // the real bytes go to the server as an older or tampered client would send them.
  await filesSayTheyAreSmall(page);
  // A phone's upload: slow enough that the server's answer comes while the body is still going.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 20, downloadThroughput: -1, uploadThroughput: 2 * 1024 * 1024 });
  await page.goto(`/content/folders/${folder.id}/`);
  await expect(page.getByTestId('folder-title')).toHaveText('Big pictures');

  const refused = page.waitForResponse((response) => response.url().endsWith(CRM_API.image(folder.id, 'picture')) && response.request().method() === 'PUT');
  await page.getByTestId('folder-picture-input').setInputFiles({ name: 'huge.png', mimeType: 'image/png', buffer: Buffer.alloc(8 * 1024 * 1024, 1) });
  const response = await refused;
  expect(response.status()).toBe(413);
  // The answer's JSON reached the page: its code and the limit it names are what the screen says
  // (the app's own check was passed, so this can only come from the server).
  await expect(page.getByText('File too big. The file size must not exceed 2 MB')).toBeVisible();
  await expect(page.getByTestId('folder-picture-image')).toHaveCount(0);
});

// The three message editors (a stage's message, a mailing, a letter) share one way of picking a
// file: a picture the server refuses as too big (413) is 'File too big' on each of them, with the
// server's words under it (the mailing and letter editors once said 'The file wasn't uploaded' or
// only showed the top notice).
test('a picture over the limit in the stage, mailing and letter editors: each says File too big', async ({ allowConsoleError, page, request }) => {
  allowConsoleError(failedRequest(413, /\/api\/funnels\/\d+\/media\//));
  const key = await signIn(page, request, 'upload_editors');
  const headers = { Authorization: `Token ${key}` };
  const bot = await fakeBot(request, 'e2e_upload');
  const funnel = (await (await request.post(FUNNELS_API.funnels, { headers, data: { bot_token: bot.token, name: 'Uploads' } })).json()) as { id: number };
  const stage = (await (await request.post(FUNNELS_API.stages(funnel.id), { headers, data: { title: 'Welcome' } })).json()) as { id: number };
  const series = (await (await request.post(LETTERS_API.series(funnel.id), { headers, data: { name: 'Warm-up', time_zone: 'Europe/Berlin' } })).json()) as { id: number };
  await filesSayTheyAreSmall(page);

  const editors = [
    `/content/funnels/${funnel.id}/stages/${stage.id}/message/`,
    `/content/funnels/${funnel.id}/mailings/new/`,
    `/content/funnels/${funnel.id}/series/${series.id}/letters/new/`,
  ];
  for (const path of editors) {
    await page.goto(path);
    await expect(page.getByTestId('media-input'), path).toBeAttached();
    await page.getByTestId('media-input').setInputFiles({ name: 'huge.png', mimeType: 'image/png', buffer: Buffer.alloc(PHOTO_MAX_BYTES + 1024 * 1024, 1) });
    // The app's own check was passed (the file said it was tiny): these words are the server's 413.
    const problem = page.getByRole('alert').filter({ hasText: 'File too big. The file size must not exceed 10 MB.' });
    await expect(problem, path).toBeVisible();
    await expect(problem.locator('strong'), path).toHaveText('File too big');
  }
});

// The server checks a file by its first bytes, not its name: a text file renamed .png passes
// the app's check (its type says image/png) and is refused with 'Incorrect data', attaching nothing.
test('a text file renamed .png is refused as Incorrect data; a real PNG is then attached', async ({ allowConsoleError, page, request }) => {
  allowConsoleError(failedRequest(400, /\/api\/funnels\/\d+\/media\//));
  const key = await signIn(page, request, 'upload_content');
  const headers = { Authorization: `Token ${key}` };
  const bot = await fakeBot(request, 'e2e_upload_content');
  const funnel = (await (await request.post(FUNNELS_API.funnels, { headers, data: { bot_token: bot.token, name: 'Renamed files' } })).json()) as { id: number };
  const stage = (await (await request.post(FUNNELS_API.stages(funnel.id), { headers, data: { title: 'Welcome' } })).json()) as { id: number };
  await page.goto(`/content/funnels/${funnel.id}/stages/${stage.id}/message/`);
  await expect(page.getByTestId('media-input')).toBeAttached();

  await page.getByTestId('media-input').setInputFiles({ name: 'notes.png', mimeType: 'image/png', buffer: Buffer.from('My shopping list, renamed notes.png\n') });
  const problem = page.getByRole('alert').filter({ hasText: 'Incorrect data' });
  await expect(problem).toBeVisible();
  await expect(problem.locator('strong')).toHaveText("The file wasn't uploaded");
  await expect(page.getByText('notes.png')).toHaveCount(0);

  const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
  await page.getByTestId('media-input').setInputFiles({ name: 'dot.png', mimeType: 'image/png', buffer: png });
  await expect(page.getByText('dot.png')).toBeVisible();
  await expect(problem).toHaveCount(0);
});
