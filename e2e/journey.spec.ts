// Issue 24's journey end to end, in Chromium against the real server and the fake Bot API: the
// owner connects a bot and builds a funnel that branches (two choice buttons), asks for an e-mail,
// waits 1 minute and sells in Stars; two sources give two start links. Ann comes by one link,
// takes the Basic branch, answers the e-mail (a wrong one first: asked again), waits (the test
// clock moves a minute), is reminded, presses the next-step button, gets the invoice and pays. Bob
// comes by the other link and takes the Pro branch. The owner then sees, as text on the screens:
// each person's stage, source, e-mail, history and payment, the revenue on the dashboard, the
// results per stage and by source. Stages and their plain messages are made through the API (the
// steps other specs cover in detail); the choice buttons, the field and the ask, the wait, the
// payment, the sources and the run are made in the UI. Screenshots of the main screens at 390 px
// (en and ru, light and dark) go to /tmp/journey-*.png.
import { AUTH_COOKIE, LANGUAGE_COOKIE } from '../contract/constants';
import { FUNNELS_API } from '../contract/funnels';
import { botMessages, FAKE, fakeBot, signIn, type FakeBot, type FakeMessage } from './support/builder';
import { BASE_URL } from './support/env';
import { expect, test, type APIRequestContext, type Page } from './support/test';

interface Subscriber {
  id: number;
  first_name: string;
  last_name: string;
}

interface ReceivedMessage extends FakeMessage {
  invoice?: { title: string; total_amount: number; currency: string };
}

/** What a subscriber sees in the chat, oldest first: a message's text, or an invoice as one line. */
async function chatOf(request: APIRequestContext, bot: FakeBot, subscriber: Subscriber): Promise<ReceivedMessage[]> {
  return (await botMessages(request, bot, subscriber.id)) as ReceivedMessage[];
}
const shown = (message: ReceivedMessage) => message.text ?? `Invoice “${message.invoice?.title}”: ${message.invoice?.total_amount} ${message.invoice?.currency}`;

async function say(request: APIRequestContext, bot: FakeBot, from: Subscriber, text: string) {
  const sent = await request.post(`${FAKE}/control/bots/${bot.token}/messages`, { data: { from, text } });
  expect(sent.ok(), await sent.text()).toBe(true);
}

/** The subscriber presses the inline button `text` under the newest message that has it. */
async function press(request: APIRequestContext, bot: FakeBot, from: Subscriber, text: string) {
  const withButton = (await chatOf(request, bot, from)).filter((m) => m.reply_markup?.inline_keyboard.flat().some((b) => b.text === text)).at(-1);
  const button = withButton?.reply_markup?.inline_keyboard.flat().find((b) => b.text === text);
  expect(button?.callback_data, `a button “${text}” in ${from.first_name}'s chat`).toBeTruthy();
  const pressed = await request.post(`${FAKE}/control/bots/${bot.token}/callback-queries`, {
    data: { from, message_id: withButton!.message_id, callback_data: button!.callback_data },
  });
  expect(pressed.ok(), await pressed.text()).toBe(true);
}

/** Opens the person's screen from the funnel's people list, as the owner would. */
async function openPerson(page: Page, funnelId: number, name: string) {
  await page.goto(`/content/funnels/${funnelId}/people/`);
  await page.getByTestId('person-row').filter({ hasText: name }).click();
  await expect(page.getByRole('heading', { name })).toBeVisible();
}

test('the journey: a choice, an e-mail asked, a wait, a sale in Stars, and what the owner sees of two subscribers', async ({ page, request, context }) => {
  test.setTimeout(150_000);
  const key = await signIn(page, request, 'journey');
  const headers = { Authorization: `Token ${key}` };
  const bot = await fakeBot(request, 'e2e_journey');

  // The owner connects the bot.
  await page.goto('/content/funnels/new/');
  await page.getByLabel('Bot token').fill(bot.token);
  await page.getByRole('button', { name: 'Connect' }).click();
  await expect(page.getByText(`@${bot.username}`).first()).toBeVisible();
  const funnelId = Number(new URL(page.url()).pathname.split('/').filter(Boolean).pop());
  expect(funnelId).toBeGreaterThan(0);

  // The stages and their messages (the message editor itself is covered by funnels.spec.ts).
  const stageIds = new Map<string, number>();
  const stagesToMake: Array<[string, string, string | null]> = [
    ['Welcome', 'Which course is yours?', null],
    ['Basic', 'Basic it is! Your e-mail, please?', null],
    ['Thanks', 'Thanks! We will write to {e_mail}.', null],
    ['Reminder', 'Still thinking? The course is 50 Stars.', 'Buy the course'],
    ['Offer', 'The course is ready', null],
    ['Paid', 'Thank you! Here is the course', null],
    ['Pro', 'Pro opens next month: we will let you know.', null],
  ];
  for (const [title, text, nextButton] of stagesToMake) {
    const made = await request.post(FUNNELS_API.stages(funnelId), { headers, data: { title } });
    expect(made.status(), await made.text()).toBe(201);
    const stage = (await made.json()) as { id: number };
    const message = await request.put(FUNNELS_API.stageMessage(stage.id), {
      headers,
      data: { text, media_id: null, buttons: [], next_button: nextButton ? { text: nextButton } : null },
    });
    expect(message.ok(), await message.text()).toBe(true);
    stageIds.set(title, stage.id);
  }
  const stageUrl = (title: string) => `/content/funnels/${funnelId}/stages/${stageIds.get(title)}/`;

  // Welcome: two choice buttons, to two branches.
  await page.goto(`${stageUrl('Welcome')}message/`);
  await expect(page.getByRole('heading', { name: 'Message' })).toBeVisible();
  await page.getByRole('button', { name: 'Add a choice button' }).click();
  await page.getByLabel('Text of choice button 1').fill('Basic course');
  await page.getByLabel('Stage of choice button 1').selectOption({ label: 'Basic' });
  await page.getByRole('button', { name: 'Add a choice button' }).click();
  await page.getByLabel('Text of choice button 2').fill('Pro course');
  await page.getByLabel('Stage of choice button 2').selectOption({ label: 'Pro' });
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('heading', { name: 'Welcome' })).toBeVisible();
  await expect(page.getByTestId('choice-targets')).toHaveText(/“Basic course” → Basic.*“Pro course” → Pro/);

  // An E-mail field, and Basic asks for it.
  await page.goto(`/content/funnels/${funnelId}/`);
  await page.getByTestId('fields-link').click();
  await page.getByTestId('field-create').click();
  const sheet = page.getByRole('alertdialog');
  await sheet.getByTestId('field-title').fill('E-mail');
  await expect(sheet.getByTestId('field-key')).toHaveValue('e_mail');
  await sheet.getByTestId('field-kind').selectOption('email');
  await sheet.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByTestId('field-row')).toContainText('{e_mail} · E-mail');
  await page.goto(stageUrl('Basic'));
  await page.getByTestId('stage-ask-edit').click();
  await sheet.getByTestId('ask-field').selectOption({ label: 'E-mail' });
  await sheet.getByTestId('ask-reask').fill('That is not an e-mail. Try again, please.');
  await sheet.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByTestId('stage-ask-summary')).toHaveText('Asks for: E-mail');

  // Thanks waits a minute, then reminds.
  await page.goto(stageUrl('Thanks'));
  await page.getByTestId('stage-wait-edit').click();
  await sheet.getByTestId('wait-amount').fill('1');
  await sheet.getByTestId('wait-unit').selectOption('minutes');
  await sheet.getByTestId('wait-stage').selectOption({ label: 'Reminder' });
  await sheet.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByTestId('stage-wait-summary')).toHaveText('After 1 minute, if they are still here, move them to “Reminder”.');

  // Offer sells the course for 50 Stars; payers go to Paid.
  await page.goto(stageUrl('Offer'));
  await page.getByTestId('stage-payment-edit').click();
  await sheet.getByTestId('payment-title').fill('The course');
  await sheet.getByTestId('payment-description').fill('Ten lessons on brewing coffee at home');
  await sheet.getByTestId('payment-amount').fill('50');
  await sheet.getByTestId('payment-paid-stage').selectOption({ label: 'Paid' });
  await sheet.getByTestId('payment-refund-stage').selectOption({ label: 'Welcome' });
  await sheet.getByRole('button', { name: 'Save' }).click();
  await expect(sheet).toHaveCount(0);
  await expect(page.getByTestId('stage-payment-summary')).toHaveText('After the message: an invoice “The course” for 50 ★');
  await expect(page.getByTestId('stage-payment')).toContainText('Paid → Paid');

  // Two sources, each with its start link.
  await page.goto(`/content/funnels/${funnelId}/`);
  await page.getByTestId('sources-link').click();
  await expect(page.getByRole('heading', { name: 'Sources', exact: true })).toBeVisible();
  for (const name of ['Instagram ad', 'Blog post']) {
    await page.getByLabel('Name', { exact: true }).fill(name);
    await page.getByRole('button', { name: 'Add the source' }).click();
    await expect(page.getByTestId('source-row').filter({ hasText: name })).toBeVisible();
  }
  const startPayload = async (name: string) => {
    const link = (await page.getByTestId('source-row').filter({ hasText: name }).getByTestId('source-link').textContent())!.trim();
    return new URL(link).searchParams.get('start')!;
  };
  const instagram = await startPayload('Instagram ad');
  const blog = await startPayload('Blog post');
  expect(instagram).not.toBe(blog);

  // The owner runs the bot.
  await page.goto(`/content/funnels/${funnelId}/`);
  await page.getByRole('button', { name: 'Run the bot' }).click();
  await page.getByRole('alertdialog', { name: 'Are you sure?' }).getByRole('button', { name: 'Run the bot' }).click();
  await expect(page.getByTestId('funnel-state').first()).toHaveText('Running');

  // Ann comes from Instagram and takes Basic; Bob comes from the blog and takes Pro.
  const base = 8_600_000 + Math.floor(Math.random() * 300_000);
  const ann: Subscriber = { id: base + 1, first_name: 'Ann', last_name: 'Lee' };
  const bob: Subscriber = { id: base + 2, first_name: 'Bob', last_name: 'Stone' };
  const annChat = async () => (await chatOf(request, bot, ann)).map(shown);
  const bobChat = async () => (await chatOf(request, bot, bob)).map(shown);
  await say(request, bot, ann, `/start ${instagram}`);
  await say(request, bot, bob, `/start ${blog}`);
  await expect.poll(annChat).toEqual(['Which course is yours?']);
  await expect.poll(bobChat).toEqual(['Which course is yours?']);
  await press(request, bot, ann, 'Basic course');
  await press(request, bot, bob, 'Pro course');
  await expect.poll(annChat).toEqual(['Which course is yours?', 'Basic it is! Your e-mail, please?']);
  await expect.poll(bobChat).toEqual(['Which course is yours?', 'Pro opens next month: we will let you know.']);

  // Ann answers the question: a wrong address is asked again, a right one is kept and used.
  await say(request, bot, ann, 'ann at example');
  await expect.poll(annChat).toEqual(['Which course is yours?', 'Basic it is! Your e-mail, please?', 'That is not an e-mail. Try again, please.']);
  await say(request, bot, ann, 'ann@example.com');
  const beforeTheWait = ['Which course is yours?', 'Basic it is! Your e-mail, please?', 'That is not an e-mail. Try again, please.', 'Thanks! We will write to ann@example.com.'];
  await expect.poll(annChat).toEqual(beforeTheWait);

  // The owner sees her waiting in Thanks, with the timer on her screen.
  await openPerson(page, funnelId, 'Ann Lee');
  await expect(page.getByTestId('person-timer')).toHaveText('Moves to “Reminder” in 1 min');

  // A minute passes: the wait brings her to Reminder (its message once), and she presses its button.
  expect((await request.post('/api/test/clock/', { headers, data: { advance_seconds: 60 } })).status()).toBe(204);
  await expect.poll(annChat, { timeout: 15_000 }).toEqual([...beforeTheWait, 'Still thinking? The course is 50 Stars.']);
  await press(request, bot, ann, 'Buy the course');
  let annMessages: ReceivedMessage[] = [];
  await expect
    .poll(async () => (annMessages = await chatOf(request, bot, ann)).map(shown), { timeout: 15_000 })
    .toEqual([...beforeTheWait, 'Still thinking? The course is 50 Stars.', 'The course is ready', 'Invoice “The course”: 50 XTR']);

  // She pays the invoice and gets Paid's message.
  const invoice = annMessages.find((m) => m.invoice)!;
  const paid = await request.post(`${FAKE}/fake/payInvoiceMessage`, { data: { token: bot.token, chat_id: ann.id, message_id: invoice.message_id } });
  expect(((await paid.json()) as { status: string }).status).toBe('paid');
  await expect.poll(async () => (await annChat()).at(-1), { timeout: 15_000 }).toBe('Thank you! Here is the course');
  // Bob, in his branch, got nothing more: no wait, no invoice.
  expect(await bobChat()).toEqual(['Which course is yours?', 'Pro opens next month: we will let you know.']);

  // The people list: each one's stage, source and e-mail.
  await page.goto(`/content/funnels/${funnelId}/people/`);
  const rows = page.getByTestId('person-row');
  await expect(rows).toHaveCount(2);
  const annRow = rows.filter({ hasText: 'Ann Lee' });
  const bobRow = rows.filter({ hasText: 'Bob Stone' });
  await expect(annRow).toContainText('Paid');
  await expect(annRow).toContainText('Instagram ad');
  await expect(annRow).toContainText('ann@example.com');
  await expect(bobRow).toContainText('Pro');
  await expect(bobRow).toContainText('Blog post');
  await expect(bobRow).not.toContainText('@example.com');

  // Ann's screen: where she is, where she came from, her e-mail, her payment and her way there.
  await annRow.click();
  await expect(page.getByRole('heading', { name: 'Ann Lee' })).toBeVisible();
  await expect(page.getByRole('link', { name: /Stage\s*Paid/ })).toBeVisible();
  await expect(page.getByTestId('person-source')).toHaveText('Instagram ad');
  await expect(page.getByLabel('Value of “E-mail”')).toHaveValue('ann@example.com');
  await expect(page.getByTestId('person-payment')).toHaveCount(1);
  await expect(page.getByTestId('person-payment')).toContainText('50 ★');
  await expect(page.getByTestId('person-payment-state')).toHaveText('Paid');
  await expect(page.getByTestId('person-timers')).toHaveCount(0);
  // The e-mail's box is the app's input, as tall as the stage picker above it (not the browser's bare box).
  const pickerBox = (await page.getByLabel('Move to a stage', { exact: true }).boundingBox())!;
  expect((await page.getByLabel('Value of “E-mail”').boundingBox())!.height).toBe(pickerBox.height);
  const history = page.getByTestId('history');
  await expect(history).toContainText('Came by the link “Instagram ad”');
  for (const step of ['Sent: Welcome', 'Basic course', 'Sent: Basic', 'ann at example', 'ann@example.com', 'Sent: Thanks', 'Sent: Reminder', 'Sent: Offer', 'Sent: Paid']) {
    await expect(history).toContainText(step);
  }
  await expect(history).not.toContainText('Sent: Pro');

  // Bob's screen: his branch, his source, no e-mail, no payment.
  await openPerson(page, funnelId, 'Bob Stone');
  await expect(page.getByRole('link', { name: /Stage\s*Pro/ })).toBeVisible();
  await expect(page.getByTestId('person-source')).toHaveText('Blog post');
  await expect(page.getByLabel('Value of “E-mail”')).toHaveValue('');
  await expect(page.getByTestId('person-payment')).toHaveCount(0);
  await expect(page.getByTestId('history')).toContainText('Pro course');
  await expect(page.getByTestId('history')).toContainText('Sent: Pro');
  await expect(page.getByTestId('history')).not.toContainText('Sent: Basic');

  // The funnel's results: per stage, who reached it and where they went, and the revenue.
  await page.goto(`/content/funnels/${funnelId}/`);
  await expect(page.getByTestId('funnel-revenue')).toHaveText('Revenue: 50 ★ · 1 paid');
  const results = page.getByTestId('stage-result');
  await expect(results.getByTestId('stage-reached')).toHaveText(['2', '1', '1', '1', '1', '1', '1']);
  await expect(results.nth(0).getByTestId('stage-move')).toHaveText(['→ Basic: 1 by the button “Basic course”', '→ Pro: 1 by the button “Pro course”']);
  await expect(results.nth(1).getByTestId('stage-move')).toHaveText(['→ Thanks: 1 by an answer']);
  await expect(results.nth(2).getByTestId('stage-move')).toHaveText(['→ Reminder: 1 after a wait']);
  await expect(results.nth(3).getByTestId('stage-move')).toHaveText(['→ Offer: 1 by the next-step button']);
  await expect(results.nth(4).getByTestId('stage-move')).toHaveText(['→ Paid: 1 after paying']);
  await expect(results.nth(4).getByTestId('stage-revenue')).toHaveText('Paid: 1 · 50 ★');
  await expect(results.nth(6).getByTestId('stage-moves')).toHaveCount(0);

  // The results by source: one person each; Instagram's reached Paid and brought the revenue.
  await page.getByTestId('sources-link').click();
  const bySource = page.getByTestId('source-result');
  await expect(bySource).toHaveCount(3);
  const instagramResult = bySource.filter({ hasText: 'Instagram ad' });
  const blogResult = bySource.filter({ hasText: 'Blog post' });
  await expect(instagramResult.getByTestId('source-result-people')).toHaveText('1 person');
  await expect(blogResult.getByTestId('source-result-people')).toHaveText('1 person');
  await expect(bySource.filter({ hasText: 'No source' }).getByTestId('source-result-people')).toHaveText('0 people');
  // Reached per stage, in the funnel's order: Welcome, Basic, Thanks, Reminder, Offer, Paid, Pro.
  await expect(instagramResult.getByTestId('source-result-reached')).toHaveText(['1', '1', '1', '1', '1', '1', '0']);
  await expect(blogResult.getByTestId('source-result-reached')).toHaveText(['1', '0', '0', '0', '0', '0', '1']);
  await expect(instagramResult.getByTestId('source-result-paid')).toHaveText('1');
  await expect(instagramResult.getByTestId('source-result-revenue')).toHaveText('50 ★');
  await expect(blogResult.getByTestId('source-result-paid')).toHaveText('0');
  await expect(blogResult.getByTestId('source-result-revenue')).toHaveText('0 ★');
  // Opened afresh by its address (a reload, a shared link), the screen keeps its layout: the
  // results in rows, not a bulleted list, and the start links within the phone's width.
  await page.reload();
  await expect(bySource).toHaveCount(3);
  await expect(bySource.first()).toHaveCSS('display', 'flex');
  for (const link of await page.getByTestId('source-link').all()) {
    const box = (await link.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(page.viewportSize()!.width);
  }

  // The dashboard: the revenue, and this funnel's.
  await page.goto('/content/dashboard/');
  await expect(page.getByTestId('dashboard-revenue')).toContainText('50 ★');
  await expect(page.getByTestId('dashboard-funnel-revenue')).toContainText('50 ★');

  // Screenshots of the journey's main screens at phone size, in both languages and both themes.
  await page.setViewportSize({ width: 390, height: 844 });
  for (const language of ['en', 'ru'] as const) {
    for (const theme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: theme });
      await context.addCookies([
        { name: AUTH_COOKIE, value: key, url: BASE_URL },
        { name: LANGUAGE_COOKIE, value: language, url: BASE_URL },
      ]);
      const shot = (name: string) => `/tmp/journey-${name}-${language}-${theme}.png`;
      for (const title of ['Welcome', 'Basic', 'Thanks', 'Offer']) {
        await page.goto(stageUrl(title));
        await expect(page.getByTestId('stage-payment')).toBeVisible();
        await page.screenshot({ path: shot(`stage-${title.toLowerCase()}`), fullPage: true });
      }
      await page.goto(`/content/funnels/${funnelId}/people/`);
      await expect(page.getByTestId('person-row')).toHaveCount(2);
      await page.screenshot({ path: shot('people'), fullPage: true });
      await page.getByTestId('person-row').filter({ hasText: 'Ann Lee' }).click();
      await expect(page.getByTestId('person-payment')).toBeVisible();
      await page.screenshot({ path: shot('person'), fullPage: true });
      await page.goto(`/content/funnels/${funnelId}/`);
      await expect(page.getByTestId('funnel-revenue')).toBeVisible();
      await page.getByTestId('stage-result').first().evaluate((result) => result.scrollIntoView({ block: 'start' }));
      await page.screenshot({ path: shot('results') });
      await page.goto(`/content/funnels/${funnelId}/sources/`);
      await expect(page.getByTestId('source-result')).toHaveCount(3);
      await page.screenshot({ path: shot('sources'), fullPage: true });
      await page.goto('/content/dashboard/');
      await expect(page.getByTestId('dashboard-revenue')).toBeVisible();
      await page.screenshot({ path: shot('dashboard'), fullPage: true });
      // The bot's long username stays in its column, not under the state badge beside it.
      const botLine = page.getByTestId('dashboard-funnel').getByText(`@${bot.username}`);
      expect(await botLine.evaluate((line) => line.scrollWidth <= line.clientWidth)).toBe(true);
    }
  }
});
