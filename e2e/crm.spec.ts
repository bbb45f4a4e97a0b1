// CRM folders and lists end to end, in Chromium against the real server and the fake Bot API: a
// folder made by name, given a picture and a background (a picture over the limit says 'File too
// big'), a funnel put in it and the funnels list filtered by it; then the contacts filtered by a
// tag, the filter saved as a list, and the list mailed: only its people get the message.
import { deflateSync } from 'node:zlib';
import { expect, test } from './support/test';
import { FUNNELS_API } from '../contract/funnels';
import { botMessages, FAKE, fakeBot, signIn, typeMessage } from './support/builder';

/** A real PNG (a gradient), so the browser shows it. */
function png(width: number, height: number): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (b: Buffer) => {
    let c = 0xffffffff;
    for (const x of b) c = crcTable[(c ^ x) & 0xff] ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type), data]);
    const sum = Buffer.alloc(4);
    sum.writeUInt32BE(crc(body));
    return Buffer.concat([len, body, sum]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8;
  header[9] = 2;
  const rows: Buffer[] = [];
  for (let y = 0; y < height; y++) {
    const row = Buffer.alloc(1 + width * 3);
    for (let x = 0; x < width; x++) row.set([(x * 255) / width, (y * 255) / height, 160], 1 + x * 3);
    rows.push(row);
  }
  return Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk('IHDR', header), chunk('IDAT', deflateSync(Buffer.concat(rows))), chunk('IEND', Buffer.alloc(0))]);
}

test('a folder with a picture and a background; a list made from a filter and mailed', async ({ page, request }) => {
  test.setTimeout(150_000);
  const key = await signIn(page, request, 'crm');
  const headers = { Authorization: `Token ${key}` };
  const bot = await fakeBot(request, 'e2e_crm');
  const funnel = (await (await request.post(FUNNELS_API.funnels, { headers, data: { bot_token: bot.token, name: 'Coffee' } })).json()) as { id: number };
  const stage = (await (await request.post(FUNNELS_API.stages(funnel.id), { headers, data: { title: 'Welcome' } })).json()) as { id: number };
  await request.put(FUNNELS_API.stageMessage(stage.id), { headers, data: { text: 'Welcome!', media_id: null, buttons: [], next_button: null } });
  expect((await request.post(FUNNELS_API.run(funnel.id), { headers })).ok()).toBe(true);
  await request.post(FUNNELS_API.tags(funnel.id), { headers, data: { title: 'regular' } });
  const booksBot = await fakeBot(request, 'e2e_crm2');
  const books = (await (await request.post(FUNNELS_API.funnels, { headers, data: { bot_token: booksBot.token, name: 'Books' } })).json()) as { id: number };
  const booksStage = (await (await request.post(FUNNELS_API.stages(books.id), { headers, data: { title: 'Hello' } })).json()) as { id: number };
  await request.put(FUNNELS_API.stageMessage(booksStage.id), { headers, data: { text: 'Hello!', media_id: null, buttons: [], next_button: null } });
  expect((await request.post(FUNNELS_API.run(books.id), { headers })).ok()).toBe(true);
  const base = 6_000_000 + Math.floor(Math.random() * 1_000_000) * 10;
  const people = [
    { id: base + 1, first_name: 'Ann' },
    { id: base + 2, first_name: 'Boris' },
    { id: base + 3, first_name: 'Cleo' },
  ];
  for (const from of people) await request.post(`${FAKE}/control/bots/${bot.token}/messages`, { data: { from, text: '/start' } });
  await expect.poll(async () => ((await (await request.get(FUNNELS_API.people(funnel.id), { headers })).json()) as { count: number }).count, { timeout: 30_000 }).toBe(3);
  // Ann also starts the Books bot: one contact across two bots.
  await request.post(`${FAKE}/control/bots/${booksBot.token}/messages`, { data: { from: people[0], text: '/start' } });
  await expect.poll(async () => ((await (await request.get(FUNNELS_API.people(books.id), { headers })).json()) as { count: number }).count, { timeout: 30_000 }).toBe(1);

  // A folder, from the panel.
  await page.goto('/content/panel/');
  await page.getByRole('link', { name: /CRM folders/ }).click();
  await expect(page.getByRole('heading', { name: 'CRM folders' })).toBeVisible();
  await expect(page.getByText('No folders yet')).toBeVisible();
  await page.getByTestId('folder-name').fill('Spring sale');
  await page.getByTestId('add-folder').click();
  await expect(page.getByTestId('folder-title')).toHaveText('Spring sale');

  // Its picture and background; a picture over 2 MB is refused before it is sent.
  await page.getByTestId('folder-picture-input').setInputFiles({ name: 'big.png', mimeType: 'image/png', buffer: Buffer.alloc(3 * 1024 * 1024, 1) });
  await expect(page.getByText('File too big. The file size must not exceed 2 MB')).toBeVisible();
  await page.getByTestId('folder-picture-input').setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: png(64, 64) });
  await expect(page.getByText('Picture saved')).toBeVisible();
  await expect(page.getByTestId('folder-picture-image')).toBeVisible();
  await expect(page.getByTestId('folder-picture-image')).toHaveJSProperty('naturalWidth', 64);
  await page.getByTestId('folder-background-input').setInputFiles({ name: 'bg.png', mimeType: 'image/png', buffer: png(200, 360) });
  await expect(page.getByText('Background saved')).toBeVisible();
  await expect(page.getByTestId('folder-background-image')).toHaveCSS('background-image', /^url\("blob:/);

  // A funnel in the folder; the funnels list filtered by it.
  await page.getByTestId('folder-funnel-choice').selectOption({ label: 'Coffee' });
  await page.getByTestId('folder-funnel-add').click();
  await expect(page.getByTestId('folder-funnel')).toContainText('Coffee');
  await expect(page.getByTestId('folder-contacts')).toContainText('3');
  await page.goto('/content/funnels/');
  await expect(page.getByTestId('funnel-card')).toHaveCount(2);
  await page.getByTestId('funnels-folder').filter({ hasText: 'Spring sale' }).click();
  await expect(page.getByTestId('funnel-card')).toHaveCount(1);
  await expect(page.getByTestId('funnel-card')).toContainText('Coffee');

  // Two people tagged, the tag filter saved as a list of the folder.
  await page.goto('/content/contacts/');
  await page.getByTestId('contacts-funnel').selectOption({ label: 'Coffee' });
  await expect(page.getByTestId('contact-row')).toHaveCount(3);
  await page.getByRole('checkbox', { name: 'Pick Ann' }).check();
  await page.getByRole('checkbox', { name: 'Pick Cleo' }).check();
  await page.getByTestId('bulk-tag').selectOption({ label: 'regular' });
  await page.getByTestId('bulk-add').click();
  await expect(page.getByText('Tagged 2 people')).toBeVisible();
  await page.getByTestId('contacts-tag').selectOption({ label: 'regular' });
  await expect(page.getByTestId('contact-row')).toHaveCount(2);
  await page.getByTestId('save-segment').click();
  const dialog = page.getByRole('alertdialog');
  await dialog.getByTestId('list-name').fill('Regulars');
  await dialog.getByTestId('list-folder').selectOption({ label: 'Spring sale' });
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('heading', { name: 'Regulars' })).toBeVisible();
  await expect(page.getByTestId('list-count')).toHaveText('2');

  // The list mailed from the Coffee bot: Ann and Cleo get it, Boris does not.
  await page.getByTestId('list-mail-add').click();
  await expect(page.getByTestId('audience-count')).toHaveText('2 people will receive it');
  await page.getByLabel('Title').fill('For regulars');
  await typeMessage(page, ['Hi regulars']);
  await page.getByTestId('save-mailing').click();
  await expect(page.getByRole('heading', { name: 'For regulars' })).toBeVisible();
  await page.getByTestId('send-mailing').click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Send now' }).click();
  await expect(page.getByTestId('mailing-percent')).toHaveText('100%', { timeout: 30_000 });
  await expect(page.getByTestId('progress-sent')).toHaveText('2 sent');
  const texts = async (chatId: number) => (await botMessages(request, bot, chatId)).map((m) => m.text).filter((text) => text === 'Hi regulars');
  expect(await texts(people[0].id)).toEqual(['Hi regulars']);
  expect(await texts(people[2].id)).toEqual(['Hi regulars']);
  expect(await texts(people[1].id)).toEqual([]);

  // Ann's screen: her other funnel, and her history across both bots.
  await page.goto('/content/contacts/');
  await expect(page.getByTestId('contact-row')).toHaveCount(4);
  await page.getByTestId('contacts-funnel').selectOption({ label: 'Coffee' });
  await expect(page.getByTestId('contact-row')).toHaveCount(3);
  await page.getByTestId('contact-row').filter({ hasText: 'Ann' }).getByRole('link').click();
  await expect(page.getByRole('heading', { name: 'Ann' })).toBeVisible();
  await expect(page.getByTestId('other-funnel')).toContainText('Books');
  await page.getByRole('tab', { name: 'All bots' }).click();
  await expect(page.getByRole('tab', { name: 'All bots' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByTestId('contact-history')).toContainText('Books');
  await expect(page.getByTestId('contact-history')).toContainText('Hi regulars');

  // The folder's screen lists it.
  await page.goto('/content/folders/');
  await page.getByTestId('folder-card').filter({ hasText: 'Spring sale' }).click();
  await expect(page.getByTestId('folder-list')).toContainText('Regulars');
});
