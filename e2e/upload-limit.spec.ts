// An upload over the limit that gets past the app's own size check (a file that says it is small)
// reaches the server, which refuses it with 413 and its JSON before the body has arrived: Chromium
// must read that answer, not a reset connection, and the screen says 'File too big'.
import { expect, test } from '@playwright/test';
import { CRM_API } from '../contract/crm';
import { signIn } from './support/builder';

test('a picture over the limit, sent past the app\'s check, is answered 413 and shown as File too big', async ({ page, request }) => {
  const key = await signIn(page, request, 'upload');
  const folder = (await (await request.post(CRM_API.folders, { headers: { Authorization: `Token ${key}` }, data: { name: 'Big pictures' } })).json()) as { id: number };
  // The app checks a file's size before sending it: make every picked file say it is tiny, so
  // the real bytes go to the server as an older or tampered client would send them.
  await page.addInitScript(() => {
    Object.defineProperty(File.prototype, 'size', { get: () => 1024, configurable: true });
  });
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
