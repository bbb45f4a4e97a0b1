// Webhooks end to end, in Chromium against the real server and the fake Bot API: the owner adds an
// outgoing webhook to a local receiver on the funnel's Webhooks screen and is shown its secret once;
// a subscriber presses Start and then reaches a stage through the funnel's incoming URL (copied
// from the screen, as another system would call it); the receiver gets the event signed with that
// secret, the bot sends the stage's message once, and the webhook's log shows the delivery.
import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from './support/test';
import { FUNNELS_API, type PeoplePage } from '../contract/funnels';
import { botMessages, FAKE, fakeBot, signIn } from './support/builder';

test('webhooks: an outgoing webhook to a local receiver, and the incoming URL moves a person', async ({ page, request, context }) => {
  test.setTimeout(120_000);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);

  const received: Array<{ headers: IncomingHttpHeaders; raw: string }> = [];
  const receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ headers: req.headers, raw: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;

  try {
    const key = await signIn(page, request, 'webhooks');
    const headers = { Authorization: `Token ${key}` };
    const bot = await fakeBot(request, 'e2e_hooks');
    const funnel = (await (await request.post(FUNNELS_API.funnels, { headers, data: { bot_token: bot.token, name: 'Course' } })).json()) as { id: number };
    const welcome = (await (await request.post(FUNNELS_API.stages(funnel.id), { headers, data: { title: 'Welcome' } })).json()) as { id: number };
    await request.put(FUNNELS_API.stageMessage(welcome.id), { headers, data: { text: 'Hi! Pay: https://pay.example.com/?p={person_id}', media_id: null, buttons: [], next_button: null } });
    const paid = (await (await request.post(FUNNELS_API.stages(funnel.id), { headers, data: { title: 'Paid' } })).json()) as { id: number };
    await request.put(FUNNELS_API.stageMessage(paid.id), { headers, data: { text: 'Thank you for paying!', media_id: null, buttons: [], next_button: null } });
    expect((await request.post(FUNNELS_API.run(funnel.id), { headers })).ok()).toBe(true);

    // The funnel's screen leads to its webhooks; the owner adds one for "Reached a stage".
    await page.goto(`/content/funnels/${funnel.id}/`);
    await page.getByTestId('webhooks-link').click();
    await expect(page.getByRole('heading', { name: 'Webhooks', exact: true })).toBeVisible();
    await expect(page.getByTestId('webhooks-empty')).toBeVisible();
    await page.getByTestId('webhook-url').fill(receiverUrl);
    await expect(page.getByTestId('event-stage.reached')).toBeChecked();
    await page.getByRole('button', { name: 'Add webhook' }).click();
    const secret = (await page.getByTestId('webhook-secret').textContent())!.trim();
    expect(secret).toMatch(/^whsec_/);
    await page.getByRole('button', { name: 'Done' }).click();
    await expect(page.getByTestId('webhook-row')).toHaveCount(1);
    await expect(page.getByTestId('webhook-row-url')).toHaveText(receiverUrl);

    // The incoming URL, copied as the owner would.
    await page.getByTestId('inbound-copy').click();
    const inboundUrl = await page.evaluate(() => navigator.clipboard.readText());
    expect(inboundUrl).toMatch(new RegExp(`/api/hooks/funnels/${funnel.id}/[A-Za-z0-9_-]+/$`));
    await expect(page.getByTestId('inbound-example')).toContainText(inboundUrl);

    // A subscriber presses Start: they reach Welcome (one delivery); their link carries their id.
    const ann = { id: 8_600_000 + Math.floor(Math.random() * 100_000), first_name: 'Ann' };
    expect((await request.post(`${FAKE}/control/bots/${bot.token}/messages`, { data: { from: ann, text: '/start' } })).ok()).toBe(true);
    await expect.poll(async () => (await botMessages(request, bot, ann.id)).map((m) => m.text), { timeout: 15_000 }).toHaveLength(1);
    const people = (await (await request.get(FUNNELS_API.people(funnel.id), { headers })).json()) as PeoplePage;
    const personId = people.results[0].id;
    expect((await botMessages(request, bot, ann.id))[0].text).toBe(`Hi! Pay: https://pay.example.com/?p=${personId}`);

    // The checkout tells the funnel: once, however often it calls.
    const event = { event_id: `order-${ann.id}`, person_id: personId, action: 'go_to_stage', stage_id: paid.id };
    for (const expected of ['applied', 'duplicate']) {
      const answer = await request.post(inboundUrl, { data: event });
      expect(answer.status(), await answer.text()).toBe(200);
      expect(await answer.json()).toEqual({ status: expected });
    }
    await expect.poll(async () => (await botMessages(request, bot, ann.id)).map((m) => m.text), { timeout: 15_000 }).toContain('Thank you for paying!');

    // The receiver got the stage reached, signed with the secret shown once. (A /start writes no
    // move of its own yet: once it does, Welcome is told too.)
    const stagesReceived = () => received.map((r) => (JSON.parse(r.raw) as { data: { stage_id: number } }).data.stage_id);
    await expect.poll(stagesReceived, { timeout: 15_000 }).toContain(paid.id);
    for (const r of received) {
      expect(r.headers['x-funnel-signature']).toBe(`sha256=${createHmac('sha256', secret).update(r.raw).digest('hex')}`);
      expect(r.headers['x-funnel-event']).toBe('stage.reached');
    }
    expect(stagesReceived().filter((id) => id === paid.id)).toHaveLength(1);
    expect((await botMessages(request, bot, ann.id)).filter((m) => m.text === 'Thank you for paying!')).toHaveLength(1);

    // The log shows the delivery.
    await page.getByTestId('webhook-log-toggle').click();
    await expect(page.getByTestId('delivery-row').first()).toContainText('stage.reached · delivered · 200');
    await expect(page.getByTestId('delivery-row')).toHaveCount(received.length);
  } finally {
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
  }
});
