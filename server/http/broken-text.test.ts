// One rule for text in every JSON body: a string with an unpaired UTF-16 surrogate ("\ud800"
// written in the JSON) cannot be stored by PostgreSQL, so it is refused with a 400 naming the
// field, the same on every route — never a 500, never stored half-way.
import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { API } from '../../contract/auth';
import { FUNNELS_API } from '../../contract/funnels';
import { GOOD_PASSWORD, uniqueEmail } from '../test/helpers';
import { MESSAGES } from './errors';
import { addStage, addTag, connectFunnel, ok, useFunnelsTestEnv, user } from '../test/funnels-api';

const env = useFunnelsTestEnv();

/** Sends a raw JSON text, so that the escapes reach the server as written. */
function send(method: 'POST' | 'PUT' | 'PATCH', url: string, json: string, key?: string): Promise<LightMyRequestResponse> {
  return env.t.app.inject({
    method,
    url,
    headers: { 'content-type': 'application/json', ...(key ? { authorization: `Token ${key}` } : {}) },
    payload: json,
  });
}

function refused(res: LightMyRequestResponse, field: string) {
  expect(res.statusCode, res.body).toBe(400);
  expect(res.json()).toEqual({ [field]: [MESSAGES.brokenText] });
}

describe('text with a broken character', () => {
  it('is refused in a stage message: text, a button URL, the next-step text', async () => {
    const key = await user(env);
    const funnel = await connectFunnel(env, key);
    const stage = await addStage(env, key, funnel.id);
    const url = FUNNELS_API.stageMessage(stage.id);
    refused(await send('PUT', url, '{"text":"hi \\ud800"}', key), 'text');
    refused(await send('PUT', url, '{"text":"a lone low half \\udc00 here"}', key), 'text');
    refused(await send('PUT', url, '{"text":"ok","buttons":[{"text":"Go","url":"https://example.com/\\ud83d"}]}', key), 'buttons');
    refused(await send('PUT', url, '{"text":"ok","next_button":{"text":"Next \\udbff"}}', key), 'next_button');
    // Nothing was stored, and a well-formed pair (an emoji) still passes.
    const saved = ok<{ text: string }>(await send('PUT', url, '{"text":"hi \\ud83d\\ude00"}', key));
    expect(saved.text).toBe('hi 😀');
  });

  it('is refused in a funnel name and a tag title', async () => {
    const key = await user(env);
    const funnel = await connectFunnel(env, key, 'Shop');
    refused(await send('PATCH', FUNNELS_API.funnel(funnel.id), '{"name":"Shop \\ud800"}', key), 'name');
    refused(await send('POST', FUNNELS_API.tags(funnel.id), '{"title":"vip \\ud800"}', key), 'title');
    const tag = await addTag(env, key, funnel.id, 'vip');
    refused(await send('PATCH', FUNNELS_API.tag(tag.id), '{"title":"\\udc00"}', key), 'title');
    expect(ok<{ name: string }>(await env.t.app.inject({ method: 'GET', url: FUNNELS_API.funnel(funnel.id), headers: { authorization: `Token ${key}` } })).name).toBe('Shop');
  });

  it('is refused in the auth API too, naming each field that holds one', async () => {
    const email = uniqueEmail('broken');
    const res = await send(
      'POST',
      API.register,
      JSON.stringify({ email, password: GOOD_PASSWORD, re_password: GOOD_PASSWORD, first_name: 'X', last_name: 'Y' })
        .replace('"X"', '"Al\\ud800ice"')
        .replace('"Y"', '"\\udfff"'),
    );
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ first_name: [MESSAGES.brokenText], last_name: [MESSAGES.brokenText] });
    // The account was not made: the same e-mail registers cleanly afterwards.
    const clean = await send('POST', API.register, JSON.stringify({ email, password: GOOD_PASSWORD, re_password: GOOD_PASSWORD, first_name: 'Al', last_name: 'Y' }));
    expect(clean.statusCode, clean.body).toBe(201);
  });

  it('in a key or in the body as a whole is a non-field error', async () => {
    refused(await send('POST', API.login, '{"\\ud800":"x"}'), 'non_field_errors');
    refused(await send('POST', API.login, '"\\ud800"'), 'non_field_errors');
  });
});
