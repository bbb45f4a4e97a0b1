// Who a mailing goes to, said plainly: on the form the user picks "Only people of…" and "Except…"
// with explicit controls (no tap cycle), and the audience is written in words, in English and in
// Russian, on the form, on the send confirmation, on the saved (scheduled) mailing and in the list.
// The paid-speed switch has a human label, no raw API parameter. The screens are photographed at a
// phone's width and a desktop's, in both languages, in the light and dark themes and inside
// Telegram; the screenshots land in .tmp/screens/mailing-audience-*.png.
import { expect, test, type APIRequestContext, type Page } from './support/test';
import { LANGUAGE_COOKIE, type Language } from '../contract/constants';
import { FUNNELS_API } from '../contract/funnels';
import { MAILINGS_API } from '../contract/mailings';
import { FAKE, fakeBot, signIn } from './support/builder';
import { BASE_URL } from './support/env';
import { DARK_THEME, LIGHT_THEME, openAsMiniApp, signedInitData, startAsTelegramUser, telegramUser } from './support/telegram';

interface Funnel {
  funnelId: number;
  paid: number;
  trial: number;
  refund: number;
}

/**
 * A running funnel with stages Paid and Trial (named in `language`) and a tag Refund: Ann and Cleo
 * are in Paid, Cleo is tagged Refund, Boris stays in Trial.
 */
async function paidFunnel(request: APIRequestContext, headers: Record<string, string>, language: Language): Promise<Funnel> {
  const [paidTitle, trialTitle, refundTitle] = language === 'ru' ? ['Оплатили', 'Пробный', 'Возврат'] : ['Paid', 'Trial', 'Refund'];
  const bot = await fakeBot(request, 'e2e_aud');
  const created = await request.post(FUNNELS_API.funnels, { headers, data: { bot_token: bot.token } });
  expect(created.status(), await created.text()).toBe(201);
  const funnelId = ((await created.json()) as { id: number }).id;
  const stageIds: number[] = [];
  for (const title of [trialTitle, paidTitle]) {
    const stage = (await (await request.post(FUNNELS_API.stages(funnelId), { headers, data: { title } })).json()) as { id: number };
    await request.put(FUNNELS_API.stageMessage(stage.id), { headers, data: { text: `${title}!`, media_id: null, buttons: [], next_button: null } });
    stageIds.push(stage.id);
  }
  const [trial, paid] = stageIds;
  const refund = ((await (await request.post(FUNNELS_API.tags(funnelId), { headers, data: { title: refundTitle } })).json()) as { id: number }).id;
  expect((await request.post(FUNNELS_API.run(funnelId), { headers })).ok()).toBe(true);
  const base = 8_000_000 + Math.floor(Math.random() * 1_000_000) * 10;
  const names = ['Ann', 'Boris', 'Cleo'];
  for (const [i, name] of names.entries()) {
    await request.post(`${FAKE}/control/bots/${bot.token}/messages`, { data: { from: { id: base + i, first_name: name }, text: '/start' } });
  }
  let people: Array<{ id: number; first_name: string }> = [];
  await expect
    .poll(
      async () => {
        people = ((await (await request.get(FUNNELS_API.people(funnelId), { headers })).json()) as { results: typeof people }).results;
        return people.length;
      },
      { timeout: 30_000 },
    )
    .toBe(names.length);
  const byName = (name: string) => people.find((p) => p.first_name === name)!.id;
  for (const name of ['Ann', 'Cleo']) {
    expect((await request.patch(FUNNELS_API.person(byName(name)), { headers, data: { stage_id: paid } })).ok()).toBe(true);
  }
  expect((await request.post(FUNNELS_API.personTags(byName('Cleo')), { headers, data: { tag_id: refund } })).status()).toBe(201);
  return { funnelId, paid, trial, refund };
}

const WORDS = {
  en: {
    title: 'Title',
    text: 'Text',
    everyone: 'Audience: everyone in the funnel',
    paidOnly: 'Audience: stage “Paid”',
    paidButRefund: 'Audience: stage “Paid”, except tag “Refund”',
    count1: '1 person will receive it',
    count3: '3 people will receive it',
    paidLabel: 'Faster sending (paid, up to 1,000 messages a second)',
    later: 'At a date and time',
    schedule: 'Schedule',
    scheduled: 'Scheduled',
  },
  ru: {
    title: 'Название',
    text: 'Текст',
    everyone: 'Аудитория: все люди воронки',
    paidOnly: 'Аудитория: этап «Оплатили»',
    paidButRefund: 'Аудитория: этап «Оплатили», кроме тега «Возврат»',
    count1: 'Получит 1 человек',
    count3: 'Получат 3 человека',
    paidLabel: 'Ускоренная рассылка (платно, до 1000 сообщений в секунду)',
    later: 'В назначенные дату и время',
    schedule: 'Запланировать',
    scheduled: 'Запланирована',
  },
} as const;

for (const language of ['en', 'ru'] as const) {
  test(`only a stage, except a tag: the audience in words on the form, the confirmation, the mailing and the list (${language})`, async ({ page, request }) => {
    test.setTimeout(90_000);
    const words = WORDS[language];
    const key = await signIn(page, request, `aud-${language}`);
    await page.context().addCookies([{ name: LANGUAGE_COOKIE, value: language, url: BASE_URL }]);
    const funnel = await paidFunnel(request, { Authorization: `Token ${key}` }, language);

    await page.goto(`/content/funnels/${funnel.funnelId}/mailings/new/`);
    await page.getByTestId('mailing-title').fill('Thanks');
    await page.getByRole('textbox', { name: words.text, exact: true }).click();
    await page.keyboard.type('Hi, thank you!');
    await expect(page.getByTestId('audience-words')).toHaveText(words.everyone);
    await expect(page.getByTestId('audience-count')).toHaveText(words.count3);

    // "Only…" first, then the stage among its choices.
    await expect(page.getByTestId(`audience-only-stages-${funnel.paid}`)).toBeHidden();
    await page.getByTestId('audience-only').check({ force: true });
    await page.getByTestId(`audience-only-stages-${funnel.paid}`).click();
    await expect(page.getByTestId(`audience-only-stages-${funnel.paid}`)).toHaveAttribute('aria-pressed', 'true');
    await expect(page.getByTestId('audience-words')).toHaveText(words.paidOnly);
    // The tag under "Except", in its own group: Cleo (Paid, Refund) is left out.
    await page.getByTestId(`audience-except-tags-${funnel.refund}`).click();
    await expect(page.getByTestId(`audience-except-tags-${funnel.refund}`)).toHaveAttribute('aria-pressed', 'true');
    await expect(page.getByTestId(`audience-only-tags-${funnel.refund}`)).toHaveAttribute('aria-pressed', 'false');
    await expect(page.getByTestId('audience-words')).toHaveText(words.paidButRefund);
    await expect(page.getByTestId('audience-count')).toHaveText(words.count1);

    // The paid-speed switch speaks the user's language, no API parameter names.
    await expect(page.getByRole('switch', { name: words.paidLabel })).not.toBeChecked();
    await expect(page.locator('body')).not.toContainText('allow_paid_broadcast');

    await page.getByTestId('save-mailing').click();
    await expect(page.getByRole('heading', { name: 'Thanks' })).toBeVisible();
    await expect(page.getByTestId('mailing-audience')).toHaveText(words.paidButRefund);

    // The confirmation says who it goes to before it is scheduled.
    await page.getByTestId('send-mailing').click();
    const dialog = page.getByRole('alertdialog');
    await expect(dialog.getByTestId('send-audience')).toHaveText(words.paidButRefund);
    await dialog.getByText(words.later).click();
    await dialog.getByRole('button', { name: words.schedule }).click();
    await expect(page.getByTestId('mailing-state')).toHaveText(words.scheduled);
    await expect(page.getByTestId('mailing-audience')).toHaveText(words.paidButRefund);

    // The list of mailings says it too.
    await page.goto(`/content/funnels/${funnel.funnelId}/mailings/`);
    await expect(page.getByTestId('mailing-card-audience')).toHaveText(words.paidButRefund);

    // Editing it again shows the same choice in the same controls.
    await page.getByTestId('mailing-card').click();
    await page.getByTestId('edit-mailing').click();
    await expect(page.getByTestId('audience-only')).toBeChecked();
    await expect(page.getByTestId(`audience-only-stages-${funnel.paid}`)).toHaveAttribute('aria-pressed', 'true');
    await expect(page.getByTestId(`audience-except-tags-${funnel.refund}`)).toHaveAttribute('aria-pressed', 'true');
    await expect(page.getByTestId('audience-words')).toHaveText(words.paidButRefund);
  });
}

test('a stage moves between "only" and "except" and "everyone" forgets the choice until "only" again', async ({ page, request }) => {
  const key = await signIn(page, request, 'aud-move');
  await page.context().addCookies([{ name: LANGUAGE_COOKIE, value: 'en', url: BASE_URL }]);
  const funnel = await paidFunnel(request, { Authorization: `Token ${key}` }, 'en');
  await page.goto(`/content/funnels/${funnel.funnelId}/mailings/new/`);
  await page.getByTestId('audience-only').check({ force: true });
  await page.getByTestId(`audience-only-stages-${funnel.paid}`).click();
  await expect(page.getByTestId('audience-count')).toHaveText('2 people will receive it');
  // The same stage under "Except" leaves "Only": a stage is taken in or left out, never both.
  await page.getByTestId(`audience-except-stages-${funnel.paid}`).click();
  await expect(page.getByTestId(`audience-only-stages-${funnel.paid}`)).toHaveAttribute('aria-pressed', 'false');
  await expect(page.getByTestId('audience-words')).toHaveText('Audience: everyone except stage “Paid”');
  await expect(page.getByTestId('audience-count')).toHaveText('1 person will receive it');
  await page.getByTestId(`audience-except-stages-${funnel.paid}`).click();
  await page.getByTestId(`audience-only-stages-${funnel.trial}`).click();
  await expect(page.getByTestId('audience-words')).toHaveText('Audience: stage “Trial”');
  // "Everyone" sends to all; "Only…" again brings the stage back.
  await page.getByTestId('audience-everyone').check({ force: true });
  await expect(page.getByTestId('audience-words')).toHaveText('Audience: everyone in the funnel');
  await expect(page.getByTestId('audience-count')).toHaveText('3 people will receive it');
  await page.getByTestId('audience-only').check({ force: true });
  await expect(page.getByTestId('audience-words')).toHaveText('Audience: stage “Trial”');
  await expect(page.getByTestId('audience-count')).toHaveText('1 person will receive it');
});

/** No part of the page is wider than the screen. */
async function fits(page: Page, name: string) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow, `${name} is wider than the screen`).toBeLessThanOrEqual(0);
  await page.screenshot({ path: `.tmp/screens/mailing-audience-${name}.png`, fullPage: true });
}

/** The form, the mailing and its confirmation, photographed. */
async function photograph(page: Page, open: (path: string) => Promise<void>, funnelId: number, mailingId: number, shot: string) {
  await open(`/content/funnels/${funnelId}/mailings/${mailingId}/edit/`);
  await expect(page.getByTestId('audience-count')).toBeVisible();
  await fits(page, `${shot}-form`);
  await open(`/content/funnels/${funnelId}/mailings/${mailingId}/`);
  await expect(page.getByTestId('mailing-audience')).toBeVisible();
  await page.getByTestId('send-mailing').click();
  await expect(page.getByRole('alertdialog').getByTestId('send-audience')).toBeVisible();
  await fits(page, `${shot}-confirm`);
  await open(`/content/funnels/${funnelId}/mailings/`);
  await expect(page.getByTestId('mailing-card-audience')).toBeVisible();
  await fits(page, `${shot}-list`);
}

async function draft(request: APIRequestContext, headers: Record<string, string>, funnel: Funnel): Promise<number> {
  const created = await request.post(MAILINGS_API.mailings(funnel.funnelId), {
    headers,
    data: {
      title: 'Thanks',
      message: { text: 'Hi, thank you!', buttons: [] },
      audience: { stages_in: [funnel.paid], stages_out: [], tags_in: [], tags_out: [funnel.refund] },
      paid_broadcast: true,
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  return ((await created.json()) as { id: number }).id;
}

const widths = [
  { name: 'phone', use: { viewport: { width: 390, height: 844 } } },
  { name: 'desktop', use: { viewport: { width: 1280, height: 800 }, isMobile: false, hasTouch: false, deviceScaleFactor: 1 } },
] as const;

for (const width of widths) {
  test.describe(`at ${width.name} width`, () => {
    test.use(width.use);
    for (const language of ['en', 'ru'] as const) {
      test(`the audience screens fit (${language}), light, dark and inside Telegram`, async ({ page, request }) => {
        test.setTimeout(120_000);
        const key = await signIn(page, request, `aud-shot-${language}`);
        await page.context().addCookies([{ name: LANGUAGE_COOKIE, value: language, url: BASE_URL }]);
        const headers = { Authorization: `Token ${key}` };
        const funnel = await paidFunnel(request, headers, language);
        const mailingId = await draft(request, headers, funnel);
        for (const scheme of ['light', 'dark'] as const) {
          await page.emulateMedia({ colorScheme: scheme });
          await photograph(page, (path) => page.goto(path).then(() => undefined), funnel.funnelId, mailingId, `${width.name}-${language}-${scheme}`);
        }

        // Inside Telegram the user is the one of the init data (no token cookie).
        await page.context().clearCookies();
        await page.context().addCookies([{ name: LANGUAGE_COOKIE, value: language, url: BASE_URL }]);
        const initData = signedInitData({ ...telegramUser(), language_code: language });
        await startAsTelegramUser(request, initData); // "Start here" on an earlier first open
        const tgHeaders = { Authorization: `TG ${initData}` };
        const tgFunnel = await paidFunnel(request, tgHeaders, language);
        const tgMailingId = await draft(request, tgHeaders, tgFunnel);
        for (const [themeName, theme] of [['dark', DARK_THEME], ['light', LIGHT_THEME]] as const) {
          await photograph(
            page,
            async (path) => {
              // A fresh document each time: only the address's #fragment would differ otherwise.
              await page.goto('about:blank');
              await openAsMiniApp(page, path, initData, theme);
            },
            tgFunnel.funnelId,
            tgMailingId,
            `${width.name}-${language}-telegram-${themeName}`,
          );
        }
      });
    }
  });
}
