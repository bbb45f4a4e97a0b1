import { HTTPError, TimeoutError } from 'ky';
import { describe, expect, it } from 'vitest';
import { parseErrorBody, toApiFailure } from './errors';
import { isTransportFailure } from './failure';

const request = new Request('http://localhost/api/users/');

describe('error mapping', () => {
  it('recognises transport failures: network, abort, timeout', async () => {
    expect(await toApiFailure(new TypeError('Failed to fetch'))).toEqual({ kind: 'network' });
    expect(await toApiFailure(new DOMException('The user aborted a request.', 'AbortError'))).toEqual({ kind: 'aborted' });
    expect(await toApiFailure(new TimeoutError(request))).toEqual({ kind: 'timeout' });
    expect(isTransportFailure({ kind: 'timeout' })).toBe(true);
    expect(isTransportFailure({ kind: 'http', status: 400, fields: {}, messages: [] })).toBe(false);
  });

  it("reads Djoser's bodies from HTTP errors: fields, non_field_errors and detail", async () => {
    const response = new Response(JSON.stringify({ email: ['Enter a valid email address.'], non_field_errors: ["The two password fields didn't match."] }), { status: 400 });
    const failure = await toApiFailure(new HTTPError(response, request, {} as never));
    expect(failure).toEqual({
      kind: 'http',
      status: 400,
      fields: { email: ['Enter a valid email address.'] },
      messages: ["The two password fields didn't match."],
    });
    expect(parseErrorBody({ detail: 'Stale token for given user.' })).toEqual({ fields: {}, messages: ['Stale token for given user.'] });
  });

  it("keeps the product API's codes beside its texts, and never takes `codes` for a field", () => {
    expect(
      parseErrorBody({
        title: ['A tag with this title already exists.'],
        text: ['Ensure this field has no more than 4096 characters.', 'Odd.'],
        codes: { title: [{ code: 'tag_title_taken' }], text: [{ code: 'too_long', count: 4096 }, { code: 'made_up' }] },
      }),
    ).toEqual({
      fields: { title: ['A tag with this title already exists.'], text: ['Ensure this field has no more than 4096 characters.', 'Odd.'] },
      messages: [],
      codes: { fields: { title: [{ code: 'tag_title_taken' }], text: [{ code: 'too_long', count: 4096 }, null] }, messages: [] },
    });
    expect(parseErrorBody({ detail: 'File too big. The file size must not exceed 10 MB.', code: 'file_too_big', count: 10 })).toEqual({
      fields: {},
      messages: ['File too big. The file size must not exceed 10 MB.'],
      codes: { fields: {}, messages: [{ code: 'file_too_big', count: 10 }] },
    });
  });

  it('copes with an empty or non-JSON error body', async () => {
    const failure = await toApiFailure(new HTTPError(new Response('<html>502</html>', { status: 502 }), request, {} as never));
    expect(failure).toEqual({ kind: 'http', status: 502, fields: {}, messages: [] });
  });

  it('keeps anything else as unknown', async () => {
    const error = new Error('bug');
    expect(await toApiFailure(error)).toEqual({ kind: 'unknown', error });
  });
});
