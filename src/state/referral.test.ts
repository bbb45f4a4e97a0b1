import Cookies from 'js-cookie';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PARTNER_API, REF_COOKIE } from '../../contract/partner';
import { resetEnvironment } from '@/test/support';
import { cookieWritesSettled } from './cookies';
import { takeReferral } from './referral';

describe("a partner's web link (?ref=<uid>)", () => {
  let fetchMock: ReturnType<typeof vi.fn>;
  beforeEach(() => {
    resetEnvironment('/');
    Cookies.remove(REF_COOKIE, { path: '/' });
    fetchMock = vi.fn(() => Promise.resolve(new Response(null, { status: 204 })));
    vi.stubGlobal('fetch', fetchMock);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('keeps the uid in the ref cookie, reports the click and leaves the address clean', async () => {
    window.history.replaceState(null, '', '/templates/5/?ref=Ab_9-x&utm=y#tgWebAppData=keep');
    takeReferral();
    await cookieWritesSettled();
    expect(Cookies.get(REF_COOKIE)).toBe('Ab_9-x');
    expect(window.location.pathname).toBe('/templates/5/');
    expect(window.location.search).toBe('?utm=y');
    expect(window.location.hash).toBe('#tgWebAppData=keep');
    expect(fetchMock).toHaveBeenCalledWith(PARTNER_API.clicks, expect.objectContaining({ method: 'POST', body: JSON.stringify({ uid: 'Ab_9-x', kind: 'web' }) }));
  });

  it('is first touch: a later link is counted as a click but does not take the visitor over', async () => {
    Cookies.set(REF_COOKIE, 'first', { path: '/' });
    window.history.replaceState(null, '', '/?ref=second');
    takeReferral();
    await cookieWritesSettled();
    expect(Cookies.get(REF_COOKIE)).toBe('first');
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(window.location.search).toBe('');
  });

  it('ignores a value that is no link code, but still cleans the address', async () => {
    window.history.replaceState(null, '', '/?ref=%3Cscript%3E');
    takeReferral();
    await cookieWritesSettled();
    expect(Cookies.get(REF_COOKIE)).toBeUndefined();
    expect(fetchMock).not.toHaveBeenCalled();
    expect(window.location.search).toBe('');
  });
});
