// Fields ("ask and remember", issue 24) through the API and the bot: the owner's fields (a key
// unique per funnel and not a built-in one, a choice's options), a stage's question, and answers
// given through the fake Bot API: an invalid e-mail asked again then a valid one kept and moved
// on, a phone shared only through the contact-request keyboard (removed afterwards), a choice
// from its one-time keyboard, an answer update delivered twice kept once, and `{key}` in the next
// stage's message. Ownership: another user's funnel, field, stage or person is 404.
import { and, eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { FIELDS_API, type FunnelField, type PersonFieldValue } from '../../../contract/fields';
import { FUNNELS_API, type PersonDetail, type Stage } from '../../../contract/funnels';
import type { FunnelRuntime } from '../../bots/runtime/runtime';
import { people, personFields, stageMoves, stages as stagesTable } from '../../db/schema';
import { FUNNEL_ERRORS } from '../../funnels/errors';
import { eventually } from '../../test/eventually';
import { testRuntime } from '../../test/funnel-runtime';
import { addPerson, addStage, call, connectFunnel, NOT_FOUND, ok, user, useFunnelsTestEnv } from '../../test/funnels-api';
import { expectJsonError } from '../../test/helpers';
import { fieldsError } from '../funnels/expected-errors';

const env = useFunnelsTestEnv();
const runtimes: FunnelRuntime[] = [];
afterEach(async () => {
  await Promise.all(runtimes.splice(0).map((runtime) => runtime.stop()));
});

const addField = async (key: string, funnelId: number, body: Record<string, unknown>) =>
  ok<FunnelField>(await call(env, key, 'POST', FIELDS_API.fields(funnelId), body), 201);

async function stageWithText(key: string, funnelId: number, title: string, text: string): Promise<Stage> {
  const stage = await addStage(env, key, funnelId, { title });
  ok(await call(env, key, 'PUT', FUNNELS_API.stageMessage(stage.id), { text, media_id: null, buttons: [], next_button: null }));
  return stage;
}

describe('fields', () => {
  it('the owner creates, lists, renames and deletes fields; keys are checked', async () => {
    const key = await user(env);
    const funnel = await connectFunnel(env, key);
    const email = await addField(key, funnel.id, { title: 'E-mail', kind: 'email' });
    expect(email).toMatchObject({ key: 'e_mail', title: 'E-mail', kind: 'email', options: [], people_count: 0, asked_by: [] });
    const city = await addField(key, funnel.id, { title: 'Город', key: 'city', kind: 'text' });
    expect(city.key).toBe('city');
    const plan = await addField(key, funnel.id, { title: 'Plan', kind: 'choice', options: [' Basic ', 'Pro'] });
    expect(plan.options).toEqual(['Basic', 'Pro']);

    const post = (body: Record<string, unknown>) => call(env, key, 'POST', FIELDS_API.fields(funnel.id), body);
    expect(expectJsonError(await post({ title: 'Again', key: 'city', kind: 'text' }), 400)).toEqual(fieldsError({ key: [FUNNEL_ERRORS.fieldKeyTaken] }));
    expect(expectJsonError(await post({ title: 'Name', key: 'first_name', kind: 'text' }), 400)).toEqual(
      fieldsError({ key: [FUNNEL_ERRORS.fieldKeyReserved('first_name')] }),
    );
    expect(expectJsonError(await post({ title: 'One', kind: 'choice', options: ['Only'] }), 400)).toEqual(fieldsError({ options: [FUNNEL_ERRORS.fieldOptions] }));
    expect(expectJsonError(await post({ title: 'Bad', key: 'Bad Key', kind: 'text' }), 400)).toHaveProperty('key');
    expect(expectJsonError(await post({ title: 'Kind', kind: 'colour' }), 400)).toHaveProperty('kind');

    const renamed = ok<FunnelField>(await call(env, key, 'PATCH', FIELDS_API.field(funnel.id, city.id), { title: 'City', key: 'town' }));
    expect(renamed).toMatchObject({ title: 'City', key: 'town' });
    expect(ok<FunnelField[]>(await call(env, key, 'GET', FIELDS_API.fields(funnel.id))).map((f) => f.key)).toEqual(['e_mail', 'town', 'plan']);
    expect((await call(env, key, 'DELETE', FIELDS_API.field(funnel.id, plan.id))).statusCode).toBe(204);
    expect(ok<FunnelField[]>(await call(env, key, 'GET', FIELDS_API.fields(funnel.id))).map((f) => f.key)).toEqual(['e_mail', 'town']);
  });

  it('a stage asks for a field; deleting the field breaks the ask and the funnel cannot run', async () => {
    const key = await user(env);
    const funnel = await connectFunnel(env, key);
    const ask = await stageWithText(key, funnel.id, 'Ask', 'Your e-mail?');
    await stageWithText(key, funnel.id, 'Thanks', 'Thanks');
    const email = await addField(key, funnel.id, { title: 'Email', key: 'email', kind: 'email' });
    const set = ok<Stage>(await call(env, key, 'PUT', FIELDS_API.stageAsk(funnel.id, ask.id), { field_id: email.id, reask_text: 'That is not an e-mail.' }));
    expect(set.ask).toEqual({ field_id: email.id, reask_text: 'That is not an e-mail.' });
    expect(ok<FunnelField>(await call(env, key, 'PATCH', FIELDS_API.field(funnel.id, email.id), {})).asked_by).toEqual([{ id: ask.id, title: 'Ask' }]);

    expect((await call(env, key, 'DELETE', FIELDS_API.field(funnel.id, email.id))).statusCode).toBe(204);
    expect(ok<Stage>(await call(env, key, 'GET', FUNNELS_API.stage(ask.id))).ask).toEqual({ field_id: null, reask_text: 'That is not an e-mail.' });
    const broken = FUNNEL_ERRORS.brokenAsk('Ask');
    expect(ok(await call(env, key, 'GET', FUNNELS_API.run(funnel.id)))).toEqual({ problems: [{ code: 'broken_ask', message: broken.text, detail: 'Ask' }] });

    expect(ok<Stage>(await call(env, key, 'DELETE', FIELDS_API.stageAsk(funnel.id, ask.id))).ask).toBeNull();
    expect(ok(await call(env, key, 'GET', FUNNELS_API.run(funnel.id)))).toEqual({ problems: [] });
  });

  it("another user's funnel, field, stage or person is 404, and their rows stay as they were", async () => {
    const key = await user(env);
    const mine = await connectFunnel(env, key);
    const myField = await addField(key, mine.id, { title: 'City', key: 'city', kind: 'text' });
    const stranger = await user(env);
    const theirs = await connectFunnel(env, stranger);
    const theirField = await addField(stranger, theirs.id, { title: 'City', key: 'city', kind: 'text' });
    const theirStage = await stageWithText(stranger, theirs.id, 'Theirs', 'Hi');
    const theirPerson = await addPerson(env, theirs.id);

    const notFound = async (method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE', url: string, body?: unknown) =>
      expect(expectJsonError(await call(env, key, method, url, body), 404)).toEqual(NOT_FOUND);
    await notFound('GET', FIELDS_API.fields(theirs.id));
    await notFound('POST', FIELDS_API.fields(theirs.id), { title: 'Sneaky', kind: 'text' });
    await notFound('PATCH', FIELDS_API.field(theirs.id, theirField.id), { title: 'Taken' });
    await notFound('PATCH', FIELDS_API.field(mine.id, theirField.id), { title: 'Taken' });
    await notFound('DELETE', FIELDS_API.field(theirs.id, theirField.id));
    await notFound('PUT', FIELDS_API.stageAsk(theirs.id, theirStage.id), { field_id: theirField.id, reask_text: 'x' });
    await notFound('PUT', FIELDS_API.stageAsk(mine.id, theirStage.id), { field_id: myField.id, reask_text: 'x' });
    await notFound('DELETE', FIELDS_API.stageAsk(theirs.id, theirStage.id));
    await notFound('PUT', FIELDS_API.personField(theirPerson.id, theirField.id), { value: 'Paris' });
    await notFound('PUT', FIELDS_API.personField(theirPerson.id, myField.id), { value: 'Paris' });

    expect(ok<FunnelField[]>(await call(env, stranger, 'GET', FIELDS_API.fields(theirs.id)))).toEqual([theirField]);
    const [stage] = await env.t.db.orm.select().from(stagesTable).where(eq(stagesTable.id, theirStage.id));
    expect(stage.ask).toBeNull();
    expect(await env.t.db.orm.select().from(personFields).where(eq(personFields.personId, theirPerson.id))).toEqual([]);
  });

  it("the owner sets a person's value, checked by the field's kind, and sees it on the person's screen", async () => {
    const key = await user(env);
    const funnel = await connectFunnel(env, key);
    const birthday = await addField(key, funnel.id, { title: 'Birthday', key: 'birthday', kind: 'date' });
    const person = await addPerson(env, funnel.id);
    const put = (value: string) => call(env, key, 'PUT', FIELDS_API.personField(person.id, birthday.id), { value });
    expect(expectJsonError(await put('31.02.2000'), 400)).toEqual(fieldsError({ value: [FUNNEL_ERRORS.fieldValue('date')] }));
    expect(ok<PersonFieldValue[]>(await put('01.02.2000'))).toMatchObject([{ field_id: birthday.id, key: 'birthday', value: '2000-02-01' }]);
    expect(ok<PersonDetail>(await call(env, key, 'GET', FUNNELS_API.person(person.id))).fields).toMatchObject([{ title: 'Birthday', value: '2000-02-01' }]);
    expect(ok<PersonFieldValue[]>(await put(''))).toMatchObject([{ value: null }]);
  });
});

describe('copies', () => {
  it('a copied funnel keeps its fields (merged by key) and its stages keep asking for them', async () => {
    const key = await user(env);
    const source = await connectFunnel(env, key);
    const ask = await stageWithText(key, source.id, 'Ask', 'Your city?');
    const city = await addField(key, source.id, { title: 'City', key: 'city', kind: 'text' });
    await addField(key, source.id, { title: 'Plan', key: 'plan', kind: 'choice', options: ['A', 'B'] });
    ok(await call(env, key, 'PUT', FIELDS_API.stageAsk(source.id, ask.id), { field_id: city.id, reask_text: 'Which city?' }));
    const target = await connectFunnel(env, key);
    const own = await addField(key, target.id, { title: 'Town', key: 'city', kind: 'text' });
    ok(await call(env, key, 'POST', FUNNELS_API.copy(source.id), { target_funnel_id: target.id }));
    const fields = ok<FunnelField[]>(await call(env, key, 'GET', FIELDS_API.fields(target.id)));
    expect(fields.map((f) => [f.key, f.title, f.options])).toEqual([
      ['city', 'Town', []],
      ['plan', 'Plan', ['A', 'B']],
    ]);
    const [copied] = ok<Stage[]>(await call(env, key, 'GET', FUNNELS_API.stages(target.id)));
    expect(copied.ask).toEqual({ field_id: own.id, reask_text: 'Which city?' });
  });
});

describe('asking through the bot', () => {
  async function runningFunnel() {
    const key = await user(env);
    const funnel = await connectFunnel(env, key);
    // The runtime starts every running funnel: the earlier tests' ones are stopped.
    await env.t.db.query(`update funnels set state = 'stopped' where id <> $1`, [funnel.id]);
    const runtime = testRuntime(env.t.db, env.fake.url, { tokenOf: () => funnel.token });
    runtimes.push(runtime);
    return { key, funnel, runtime };
  }

  const personOf = (funnelId: number, telegramId: number) =>
    eventually(
      async () => (await env.t.db.orm.select().from(people).where(and(eq(people.funnelId, funnelId), eq(people.telegramId, telegramId))))[0],
      (row) => row !== undefined,
      `person ${telegramId}`,
    );

  /** The person writes (or taps) and waits for the bot's next message. */
  async function andReply(token: string, chatId: number, act: () => void) {
    const before = env.fake.botMessages(token, chatId).length;
    act();
    await env.fake.waitForBotMessage(token, chatId, { predicate: () => env.fake.botMessages(token, chatId).length > before });
    return env.fake.botMessages(token, chatId).at(-1)!;
  }

  it('asks again after an invalid e-mail, then keeps a valid one and moves on, personalising the next message; a repeat is kept once', async () => {
    const { key, funnel, runtime } = await runningFunnel();
    const ask = await stageWithText(key, funnel.id, 'Ask', 'Your e-mail, please?');
    const thanks = await stageWithText(key, funnel.id, 'Thanks', 'We will write to {email} in {city|your town}.');
    const email = await addField(key, funnel.id, { title: 'Email', key: 'email', kind: 'email' });
    await addField(key, funnel.id, { title: 'City', key: 'city', kind: 'text' });
    ok(await call(env, key, 'PUT', FIELDS_API.stageAsk(funnel.id, ask.id), { field_id: email.id, reask_text: 'Hmm, that is not an e-mail. Try again?' }));
    ok(await call(env, key, 'POST', FUNNELS_API.run(funnel.id)));
    await runtime.start();

    const ann = { id: 8101, first_name: 'Ann' };
    expect((await andReply(funnel.token, ann.id, () => env.fake.sendUserMessage(funnel.token, { from: ann, text: '/start' }))).text).toBe('Your e-mail, please?');
    expect((await andReply(funnel.token, ann.id, () => env.fake.sendUserMessage(funnel.token, { from: ann, text: 'ann at example' }))).text).toBe(
      'Hmm, that is not an e-mail. Try again?',
    );
    const person = await personOf(funnel.id, ann.id);
    expect(person.stageId).toBe(ask.id);

    let answer: ReturnType<typeof env.fake.sendUserMessage> | undefined;
    const reply = await andReply(funnel.token, ann.id, () => (answer = env.fake.sendUserMessage(funnel.token, { from: ann, text: ' Ann@Example.COM ' })));
    expect(reply.text).toBe('We will write to ann@example.com in your town.');
    expect((await personOf(funnel.id, ann.id)).stageId).toBe(thanks.id);
    expect(await env.t.db.orm.select({ value: personFields.value }).from(personFields).where(eq(personFields.personId, person.id))).toEqual([{ value: 'ann@example.com' }]);
    const moves = await env.t.db.orm.select().from(stageMoves).where(and(eq(stageMoves.personId, person.id), eq(stageMoves.via, 'answer')));
    expect(moves).toMatchObject([{ fromStageId: ask.id, toStageId: thanks.id }]);
    expect(ok<PersonDetail>(await call(env, key, 'GET', FUNNELS_API.person(person.id))).fields).toMatchObject([{ key: 'email', value: 'ann@example.com' }, { key: 'city', value: null }]);

    // The same update delivered again (a webhook retry): nothing more happens.
    const sent = env.fake.botMessages(funnel.token, ann.id).length;
    const again = testRuntime(env.t.db, env.fake.url, { tokenOf: () => funnel.token, transport: 'webhook' });
    runtimes.push(again);
    expect(await again.deliver(funnel.id, answer!)).toBe('handled');
    expect(await env.t.db.orm.select().from(stageMoves).where(and(eq(stageMoves.personId, person.id), eq(stageMoves.via, 'answer')))).toHaveLength(1);
    expect(env.fake.botMessages(funnel.token, ann.id)).toHaveLength(sent);

    // Past the question, an e-mail is what she wrote: in the inbox, not her answer, nobody moved
    // (the runtime claims it as an answer at once; the move's condition finds her elsewhere).
    env.fake.sendUserMessage(funnel.token, { from: ann, text: 'new@example.com' });
    await eventually(
      () => env.t.db.query<{ text: string }>(`select text from person_events where person_id = $1 and direction = 'in' order by id desc limit 1`, [person.id]),
      (rows) => rows[0]?.text === 'new@example.com',
      'the e-mail in her history',
    );
    expect((await personOf(funnel.id, ann.id)).unreadCount).toBeGreaterThan(0);
    expect((await personOf(funnel.id, ann.id)).stageId).toBe(thanks.id);
    expect(await env.t.db.orm.select({ value: personFields.value }).from(personFields).where(eq(personFields.personId, person.id))).toEqual([{ value: 'ann@example.com' }]);
    expect(await env.t.db.orm.select().from(stageMoves).where(eq(stageMoves.personId, person.id))).toHaveLength(2); // /start, then the answer
  });

  it('asks for a phone with a contact-request keyboard, takes only the person’s own contact, and removes the keyboard', async () => {
    const { key, funnel, runtime } = await runningFunnel();
    const ask = await stageWithText(key, funnel.id, 'Phone', 'Share your number');
    const next = await stageWithText(key, funnel.id, 'Done', 'Got it');
    const phone = await addField(key, funnel.id, { title: 'Phone', key: 'phone', kind: 'phone' });
    ok(await call(env, key, 'PUT', FIELDS_API.stageAsk(funnel.id, ask.id), { field_id: phone.id, reask_text: 'Please tap the button below.' }));
    // Its reply keyboard leaves no room for inline buttons: the editor refuses them.
    const withButton = { text: 'Share your number', media_id: null, buttons: [{ text: 'Site', url: 'https://example.com' }], next_button: null };
    expect(expectJsonError(await call(env, key, 'PUT', FUNNELS_API.stageMessage(ask.id), withButton), 400)).toEqual(fieldsError({ buttons: [FUNNEL_ERRORS.askWithButtons] }));
    ok(await call(env, key, 'POST', FUNNELS_API.run(funnel.id)));
    await runtime.start();

    const bob = { id: 8102, first_name: 'Bob', language_code: 'en' };
    await andReply(funnel.token, bob.id, () => env.fake.sendUserMessage(funnel.token, { from: bob, text: '/start' }));
    expect(env.fake.chatSnapshot(funnel.token, bob.id).reply_keyboard).toMatchObject({ keyboard: [[{ text: '📱 Share my phone number', request_contact: true }]] });
    // Typing a number is not sharing it: asked again, keyboard shown again.
    expect((await andReply(funnel.token, bob.id, () => env.fake.sendUserMessage(funnel.token, { from: bob, text: '+1 555 0100' }))).text).toBe(
      'Please tap the button below.',
    );
    const reply = await andReply(funnel.token, bob.id, () =>
      env.fake.pressReplyButton(funnel.token, { from: bob, text: '📱 Share my phone number', phone_number: '15550100' }),
    );
    expect(reply.text).toBe('Got it');
    expect(env.fake.chatSnapshot(funnel.token, bob.id).reply_keyboard).toBeNull();
    const person = await personOf(funnel.id, bob.id);
    expect(person.stageId).toBe(next.id);
    expect(await env.t.db.orm.select({ value: personFields.value }).from(personFields).where(eq(personFields.personId, person.id))).toEqual([{ value: '+15550100' }]);
  });

  it('asks a choice with its options as a one-time keyboard and takes an option in any case', async () => {
    const { key, funnel, runtime } = await runningFunnel();
    const ask = await stageWithText(key, funnel.id, 'Plan', 'Which plan?');
    await stageWithText(key, funnel.id, 'Done', 'You chose {plan}');
    const plan = await addField(key, funnel.id, { title: 'Plan', key: 'plan', kind: 'choice', options: ['Basic', 'Pro'] });
    ok(await call(env, key, 'PUT', FIELDS_API.stageAsk(funnel.id, ask.id), { field_id: plan.id, reask_text: 'Pick one of the buttons.' }));
    ok(await call(env, key, 'POST', FUNNELS_API.run(funnel.id)));
    await runtime.start();

    const cid = { id: 8103, first_name: 'Cid' };
    await andReply(funnel.token, cid.id, () => env.fake.sendUserMessage(funnel.token, { from: cid, text: '/start' }));
    expect(env.fake.chatSnapshot(funnel.token, cid.id).reply_keyboard).toMatchObject({ keyboard: [[{ text: 'Basic' }], [{ text: 'Pro' }]], one_time_keyboard: true });
    expect((await andReply(funnel.token, cid.id, () => env.fake.sendUserMessage(funnel.token, { from: cid, text: 'Gold' }))).text).toBe('Pick one of the buttons.');
    expect((await andReply(funnel.token, cid.id, () => env.fake.sendUserMessage(funnel.token, { from: cid, text: 'pro' }))).text).toBe('You chose Pro');
    expect(env.fake.chatSnapshot(funnel.token, cid.id).reply_keyboard).toBeNull();
  });
});
