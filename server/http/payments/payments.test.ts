// Payments inside a funnel (issue 24, "Sell"), through the API, the bot runtime and the fake Bot
// API: a stage's Stars invoice settings (Telegram's limits, stages of the same funnel, another
// user's 404), the invoice sent after the stage's message, the pre-checkout answered, a
// successful payment delivered twice recorded once and the payer moved once to the paid stage
// with its tag, the revenue in the stats, the dashboard and the sources' results, the owner's
// refund (a second one refused clearly), and a deleted paid stage breaking the payment.
import { and, asc, eq } from 'drizzle-orm';
import type { Message } from 'grammy/types';
import { afterEach, describe, expect, it } from 'vitest';
import { FUNNELS_API, type DashboardFunnel, type Funnel, type FunnelStats, type PersonDetail, type Stage } from '../../../contract/funnels';
import { PAYMENTS_API, type PersonPayment } from '../../../contract/payments';
import { TEMPLATES_API, type Template } from '../../../contract/templates';
import { SOURCE_START_PREFIX, SOURCES_API, type FunnelSource, type SourceStats } from '../../../contract/sources';
import { setRole } from '../../accounts/roles';
import type { FunnelRuntime } from '../../bots/runtime/runtime';
import { funnelPayments, people, personTags, stageMoves, stages } from '../../db/schema';
import { eventually } from '../../test/eventually';
import { testRuntime } from '../../test/funnel-runtime';
import { addRunnableStage, addTag, call, connectFunnel, NOT_FOUND, ok, user, useFunnelsTestEnv } from '../../test/funnels-api';
import { signedInUser } from '../../test/helpers';

const env = useFunnelsTestEnv();
const runtimes: FunnelRuntime[] = [];
/** Every funnel's token: a runtime runs each funnel still running in the database (those of earlier tests too). */
const tokens = new Map<number, string>();
afterEach(async () => {
  await Promise.all(runtimes.splice(0).map((runtime) => runtime.stop()));
});

const COURSE = { title: 'Course', description: 'Ten lessons on funnels', amount: 500 };

async function stageRow(id: number) {
  const [row] = await env.t.db.orm.select().from(stages).where(eq(stages.id, id));
  return row;
}

/** A funnel of three stages: "Offer" (the payment stage), "Paid" (tagged "buyer") and "Refunded". */
async function shop(key: string) {
  const funnel = await connectFunnel(env, key, 'Course shop');
  tokens.set(funnel.id, funnel.token);
  const offer = await addRunnableStage(env, key, funnel.id, { title: 'Offer' });
  const buyer = await addTag(env, key, funnel.id, 'buyer');
  const paid = await addRunnableStage(env, key, funnel.id, { title: 'Paid', tag_id: buyer.id });
  const refunded = await addRunnableStage(env, key, funnel.id, { title: 'Refunded' });
  return { funnel, offer, paid, refunded, buyer };
}

describe('payment settings of a stage', () => {
  it('PUT sets the invoice (answer: the stage), with Telegram’s limits and stages of the same funnel; DELETE clears it', async () => {
    const key = await user(env);
    const { funnel, offer, paid, refunded } = await shop(key);
    const other = await connectFunnel(env, key, 'Other');
    const elsewhere = await addRunnableStage(env, key, other.id, { title: 'Elsewhere' });
    const path = PAYMENTS_API.stagePayment(funnel.id, offer.id);
    const body = { ...COURSE, paid_stage_id: paid.id, refund_stage_id: refunded.id };

    const refusals: Array<[Record<string, unknown>, Record<string, unknown>]> = [
      [{ title: 'x'.repeat(33) }, { title: ['Ensure this field has no more than 32 characters.'] }],
      [{ description: 'x'.repeat(256) }, { description: ['Ensure this field has no more than 255 characters.'] }],
      [{ title: '   ' }, { title: ['This field may not be blank.'] }],
      [{ amount: 0 }, { amount: ['Ensure this value is greater than or equal to 1.'] }],
      [{ amount: 100_001 }, { amount: ['Ensure this value is less than or equal to 100000.'] }],
      [{ paid_stage_id: elsewhere.id }, { paid_stage_id: [`Invalid pk "${elsewhere.id}" - object does not exist.`] }],
      [{ refund_stage_id: null }, { refund_stage_id: ['This field may not be null.'] }],
    ];
    for (const [change, errors] of refusals) {
      const res = await call(env, key, 'PUT', path, { ...body, ...change });
      expect({ change, status: res.statusCode, body: res.json() }).toMatchObject({ change, status: 400, body: errors });
    }
    expect((await stageRow(offer.id)).payment).toBeNull();

    const set = ok<Stage>(await call(env, key, 'PUT', path, { ...body, title: '  Course ' }));
    expect(set).toMatchObject({ id: offer.id, title: 'Offer', payment: body });
    expect(ok<Stage>(await call(env, key, 'GET', FUNNELS_API.stage(offer.id))).payment).toEqual(body);
    expect(ok<Stage>(await call(env, key, 'DELETE', path))).toMatchObject({ id: offer.id, payment: null });
    expect((await stageRow(offer.id)).payment).toBeNull();
  });

  it('another user’s funnel or stage is 404, and nothing of theirs is written', async () => {
    const owner = await user(env);
    const stranger = await user(env);
    const { funnel, offer, paid, refunded } = await shop(owner);
    const body = { ...COURSE, paid_stage_id: paid.id, refund_stage_id: refunded.id };
    ok(await call(env, owner, 'PUT', PAYMENTS_API.stagePayment(funnel.id, offer.id), body));
    const theirs = await connectFunnel(env, stranger, 'Theirs');
    for (const path of [PAYMENTS_API.stagePayment(funnel.id, offer.id), PAYMENTS_API.stagePayment(theirs.id, offer.id)]) {
      expect((await call(env, stranger, 'PUT', path, { ...body, amount: 1 })).json()).toEqual(NOT_FOUND);
      expect((await call(env, stranger, 'DELETE', path)).json()).toEqual(NOT_FOUND);
    }
    expect((await stageRow(offer.id)).payment).toEqual(body);
  });

  it('deleting the paid stage breaks the payment: shown null, and the run is refused with broken_payment', async () => {
    const key = await user(env);
    const { funnel, offer, paid, refunded } = await shop(key);
    ok(await call(env, key, 'PUT', PAYMENTS_API.stagePayment(funnel.id, offer.id), { ...COURSE, paid_stage_id: paid.id, refund_stage_id: refunded.id }));
    expect(ok<{ problems: Array<{ code: string }> }>(await call(env, key, 'GET', FUNNELS_API.run(funnel.id))).problems).toEqual([]);
    expect((await call(env, key, 'DELETE', FUNNELS_API.stage(paid.id))).statusCode).toBe(204);
    expect(ok<Stage>(await call(env, key, 'GET', FUNNELS_API.stage(offer.id))).payment).toMatchObject({ paid_stage_id: null, refund_stage_id: refunded.id });
    expect(ok<{ problems: Array<{ code: string; detail?: string }> }>(await call(env, key, 'GET', FUNNELS_API.run(funnel.id))).problems).toEqual([
      expect.objectContaining({ code: 'broken_payment', detail: 'Offer' }),
    ]);
    const run = await call(env, key, 'POST', FUNNELS_API.run(funnel.id));
    expect(run.statusCode).toBe(400);
    expect(run.body).toContain('broken_payment');
  });
});

describe('copies and templates', () => {
  it('a funnel copied into another keeps its payment stage, leading to the copies of its paid and refund stages', async () => {
    const key = await user(env);
    const { funnel, offer, paid, refunded } = await shop(key);
    ok(await call(env, key, 'PUT', PAYMENTS_API.stagePayment(funnel.id, offer.id), { ...COURSE, paid_stage_id: paid.id, refund_stage_id: refunded.id }));
    const target = await connectFunnel(env, key, 'Target');
    ok(await call(env, key, 'POST', FUNNELS_API.copy(funnel.id), { target_funnel_id: target.id }));
    const copied = ok<Stage[]>(await call(env, key, 'GET', FUNNELS_API.stages(target.id)));
    const idOf = (title: string) => copied.find((stage) => stage.title === title)!.id;
    expect(copied.find((stage) => stage.title === 'Offer')!.payment).toEqual({ ...COURSE, paid_stage_id: idOf('Paid'), refund_stage_id: idOf('Refunded') });
    expect(idOf('Paid')).not.toBe(paid.id);
  });

  it('a template keeps the payment stage: a funnel made from it sells the same, leading to its own stages', async () => {
    const account = await signedInUser(env.t);
    await setRole(env.t.db, account.email, 'admin');
    const { funnel, offer, paid, refunded } = await shop(account.key);
    ok(await call(env, account.key, 'PUT', PAYMENTS_API.stagePayment(funnel.id, offer.id), { ...COURSE, paid_stage_id: paid.id, refund_stage_id: refunded.id }));
    const template = ok<Template>(await call(env, account.key, 'POST', TEMPLATES_API.templates, { funnel_id: funnel.id, name: 'Course shop' }), 201);
    const affiliate = await user(env);
    const made = ok<Funnel>(await call(env, affiliate, 'POST', TEMPLATES_API.add(template.id)), 201);
    const madeStages = ok<Stage[]>(await call(env, affiliate, 'GET', FUNNELS_API.stages(made.id)));
    const idOf = (title: string) => madeStages.find((stage) => stage.title === title)!.id;
    expect(madeStages.find((stage) => stage.title === 'Offer')!.payment).toEqual({ ...COURSE, paid_stage_id: idOf('Paid'), refund_stage_id: idOf('Refunded') });
  });
});

describe('selling through the bot', () => {
  it('sends a Stars invoice after the message; a payment delivered twice is recorded once, moves the payer once with the tag, and shows as revenue; a refund moves them to the refund stage, a second is refused', async () => {
    const key = await user(env);
    const { funnel, offer, paid, refunded, buyer } = await shop(key);
    ok(await call(env, key, 'PUT', PAYMENTS_API.stagePayment(funnel.id, offer.id), { ...COURSE, paid_stage_id: paid.id, refund_stage_id: refunded.id }));
    const source = ok<FunnelSource>(await call(env, key, 'POST', SOURCES_API.sources(funnel.id), { name: 'Blog' }), 201);
    ok(await call(env, key, 'POST', FUNNELS_API.run(funnel.id)));
    const runtime = testRuntime(env.t.db, env.fake.url, { tokenOf: (row) => tokens.get(row.id)!, heartbeatMs: 200 });
    runtimes.push(runtime);
    await runtime.start();

    const ann = { id: 8101, first_name: 'Ann', language_code: 'en' };
    env.fake.sendUserMessage(funnel.token, { from: ann, text: `/start ${SOURCE_START_PREFIX}${source.code}` });
    const invoice = await env.fake.waitForBotMessage(funnel.token, ann.id, { predicate: (message: Message) => message.invoice !== undefined });
    const sent = env.fake.botMessages(funnel.token, ann.id);
    expect(sent.map((m) => m.text ?? m.invoice?.title)).toEqual(['Hello from Offer', 'Course']);
    const [person] = await env.t.db.orm.select().from(people).where(and(eq(people.funnelId, funnel.id), eq(people.telegramId, ann.id)));
    const [call0] = env.fake.calls(funnel.token, 'sendInvoice');
    expect(call0.params).toMatchObject({ currency: 'XTR', provider_token: '', payload: `fp:${offer.id}:${person.id}`, title: 'Course', description: COURSE.description });
    expect(call0.params.prices).toEqual([{ label: 'Course', amount: 500 }]);

    const outcome = await env.fake.payInvoiceMessage({ token: funnel.token, chatId: ann.id, messageId: invoice.message_id });
    expect(outcome).toEqual({ status: 'paid', chargeId: expect.any(String) });
    expect((await env.fake.waitForCall(funnel.token, 'answerPreCheckoutQuery')).params).toMatchObject({ ok: true });
    await env.fake.waitForBotMessage(funnel.token, ann.id, { predicate: (message: Message) => message.text === 'Hello from Paid' });
    // Telegram delivers the successful_payment again (a bot that died before confirming it).
    const paidMessage = env.fake.chatMessages(funnel.token, ann.id).find((entry) => entry.message.successful_payment)!;
    env.fake.redeliverMessage(funnel.token, ann.id, paidMessage.message.message_id);
    await env.fake.waitForBotState(funnel.token, (state) => state.polling && state.pending_update_count === 0);

    const payments = await env.t.db.orm.select().from(funnelPayments).where(eq(funnelPayments.funnelId, funnel.id));
    expect(payments).toEqual([expect.objectContaining({ personId: person.id, stageId: offer.id, amount: 500, currency: 'XTR', provider: 'stars', chargeId: outcome.chargeId, state: 'paid' })]);
    const moves = () => env.t.db.orm.select({ to: stageMoves.toStageId, via: stageMoves.via }).from(stageMoves).where(eq(stageMoves.personId, person.id)).orderBy(asc(stageMoves.id));
    // /start placed them in the offer (the first stage), the payment moved them once.
    expect(await moves()).toEqual([
      { to: offer.id, via: 'start' },
      { to: paid.id, via: 'payment' },
    ]);
    expect(env.fake.botMessages(funnel.token, ann.id).filter((m) => m.text === 'Hello from Paid')).toHaveLength(1);
    expect((await env.t.db.orm.select().from(personTags).where(eq(personTags.personId, person.id))).map((t) => t.tagId)).toEqual([buyer.id]);

    // Revenue: per stage and funnel, on the dashboard, by source.
    const stats = ok<FunnelStats>(await call(env, key, 'GET', `${FUNNELS_API.stats(funnel.id)}?period=today`));
    expect(stats).toMatchObject({ paid: 1, revenue: 500 });
    expect(stats.stages.find((s) => s.stage_id === offer.id)).toMatchObject({ paid: 1, revenue: 500 });
    const dashboard = ok<DashboardFunnel[]>(await call(env, key, 'GET', `${FUNNELS_API.dashboard}?period=7d`));
    expect(dashboard.find((f) => f.id === funnel.id)).toMatchObject({ paid: 1, revenue: 500 });
    const bySource = ok<SourceStats>(await call(env, key, 'GET', `${SOURCES_API.stats(funnel.id)}?period=30d`));
    expect(bySource.sources.find((s) => s.id === source.id)).toMatchObject({ people: 1, paid: 1, revenue: 500 });

    // The person's screen, then the refund.
    const detail = ok<PersonDetail>(await call(env, key, 'GET', FUNNELS_API.person(person.id)));
    expect(detail.payments).toEqual([expect.objectContaining({ id: payments[0].id, amount: 500, state: 'paid', stage_id: offer.id, refunded_at: null })]);
    const stranger = await user(env);
    const refundPath = PAYMENTS_API.refund(funnel.id, person.id, payments[0].id);
    expect((await call(env, stranger, 'POST', refundPath)).json()).toEqual(NOT_FOUND);
    const refund = ok<PersonPayment>(await call(env, key, 'POST', refundPath));
    expect(refund).toMatchObject({ id: payments[0].id, state: 'refunded', refunded_at: expect.any(String) });
    await env.fake.waitForBotMessage(funnel.token, ann.id, { predicate: (message: Message) => message.text === 'Hello from Refunded' });
    await eventually(moves, (rows) => rows.length === 3, 'the refund move');
    expect(await moves()).toEqual([
      { to: offer.id, via: 'start' },
      { to: paid.id, via: 'payment' },
      { to: refunded.id, via: 'refund' },
    ]);
    const again = await call(env, key, 'POST', refundPath);
    expect({ status: again.statusCode, body: again.json() }).toEqual({
      status: 400,
      body: { detail: 'This payment has been refunded already.', code: 'payment_refunded' },
    });
    // Refunded Stars are no revenue.
    expect(ok<FunnelStats>(await call(env, key, 'GET', FUNNELS_API.stats(funnel.id)))).toMatchObject({ paid: 0, revenue: 0 });
    expect(env.fake.botMessages(funnel.token, ann.id).filter((m) => m.text === 'Hello from Refunded')).toHaveLength(1);
  });

  it('refuses a pre-checkout whose price is no longer the stage’s, in the person’s language: nothing is recorded', async () => {
    const key = await user(env);
    const { funnel, offer, paid, refunded } = await shop(key);
    const body = { ...COURSE, paid_stage_id: paid.id, refund_stage_id: refunded.id };
    ok(await call(env, key, 'PUT', PAYMENTS_API.stagePayment(funnel.id, offer.id), body));
    ok(await call(env, key, 'POST', FUNNELS_API.run(funnel.id)));
    const runtime = testRuntime(env.t.db, env.fake.url, { tokenOf: (row) => tokens.get(row.id)! });
    runtimes.push(runtime);
    await runtime.start();
    const ivan = { id: 8201, first_name: 'Иван', language_code: 'ru' };
    env.fake.sendUserMessage(funnel.token, { from: ivan, text: '/start' });
    const invoice = await env.fake.waitForBotMessage(funnel.token, ivan.id, { predicate: (message: Message) => message.invoice !== undefined });
    ok(await call(env, key, 'PUT', PAYMENTS_API.stagePayment(funnel.id, offer.id), { ...body, amount: 900 }));
    expect(await env.fake.payInvoiceMessage({ token: funnel.token, chatId: ivan.id, messageId: invoice.message_id })).toEqual({ status: 'failed' });
    expect((await env.fake.waitForCall(funnel.token, 'answerPreCheckoutQuery')).params).toMatchObject({
      ok: false,
      error_message: 'Это предложение больше не действует. Откройте последнее сообщение бота.',
    });
    expect(await env.t.db.orm.select().from(funnelPayments).where(eq(funnelPayments.funnelId, funnel.id))).toEqual([]);
  });
});
