// Renders the real route tree on a memory history.
import { createMemoryHistory, RouterProvider } from '@tanstack/react-router';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { Provider } from 'jotai';
import Cookies from 'js-cookie';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { API } from '../contract/auth';
import { FUNNELS_API } from '../contract/funnels';
import { PARTNER_API } from '../contract/partner';
import { LANGUAGE_COOKIE } from '../contract/constants';
import { ROUTES } from '../contract/routes';
import { createAppRouter } from './router';
import { initDataAtom, setToken, userAtom } from './state/auth';
import { createAppSession } from './api/session';
import { cookieWritesSettled } from './state/cookies';
import { appStore } from './state/store';
import { alice, fakeFetch, json, resetEnvironment, useLanguage } from './test/support';

function renderAt(path: string) {
  const router = createAppRouter({ auth: createAppSession(appStore) }, createMemoryHistory({ initialEntries: [path] }));
  render(
    <Provider store={appStore}>
      <RouterProvider router={router} />
    </Provider>,
  );
  return router;
}

describe('the route tree', () => {
  beforeEach(async () => {
    resetEnvironment();
    await useLanguage('en');
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('renders the sign-in form in English', async () => {
    renderAt(ROUTES.signIn);
    expect(await screen.findByRole('button', { name: 'Sign in' })).toBeTruthy();
    expect(screen.getByLabelText('Email')).toBeTruthy();
    expect(screen.getByLabelText('Password')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Sign up' }).getAttribute('href')).toBe(ROUTES.signUp);
    expect(screen.getByRole('link', { name: 'Forgot password?' }).getAttribute('href')).toBe(ROUTES.lostPass);
    await waitFor(() => expect(document.title).toContain('Sign in'));
  });

  it('renders the sign-in form in Russian', async () => {
    await useLanguage('ru');
    renderAt(ROUTES.signIn);
    expect(await screen.findByRole('button', { name: 'Войти' })).toBeTruthy();
    expect(screen.getByLabelText('Пароль')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Зарегистрироваться' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Sign in' })).toBeNull();
  });

  it('renders every sign-up field with its label', async () => {
    renderAt(ROUTES.signUp);
    await screen.findByRole('button', { name: 'Sign up' });
    for (const label of ['First name', 'Last name', 'Email', 'Password', 'Repeat password']) {
      expect(screen.getByLabelText(label)).toBeTruthy();
    }
  });

  it('checks the sign-up form on the client before sending anything', async () => {
    const requests = fakeFetch(() => json({}, 201));
    renderAt(ROUTES.signUp);
    fireEvent.change(await screen.findByLabelText('Email'), { target: { value: 'not-an-email' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'short' } });
    fireEvent.change(screen.getByLabelText('Repeat password'), { target: { value: 'other' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign up' }));
    expect(await screen.findByText('Enter a valid email address.')).toBeTruthy();
    expect(screen.getByText('Use at least 8 characters.')).toBeTruthy();
    expect(screen.getByText('Passwords do not match.')).toBeTruthy();
    expect(screen.getAllByText('Fill in this field.')).toHaveLength(2);
    expect(requests).toHaveLength(0);
  });

  it('sends a guest from a protected route to /sign-in/', async () => {
    const router = renderAt(ROUTES.settings);
    await waitFor(() => expect(router.state.location.pathname).toBe(ROUTES.signIn));
    expect(await screen.findByRole('button', { name: 'Sign in' })).toBeTruthy();
  });

  it('sends the empty path through the panel guard', async () => {
    const router = renderAt('/');
    await waitFor(() => expect(router.state.location.pathname).toBe(ROUTES.signIn));
  });

  it('lets a signed-in user into the panel and greets them by first name', async () => {
    setToken('good', appStore);
    const requests = fakeFetch((request) => json(request.path === FUNNELS_API.funnels ? [] : alice));
    const router = renderAt('/');
    await waitFor(() => expect(router.state.location.pathname).toBe(ROUTES.panel));
    expect(await screen.findByText('Hi, Alice!')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Settings' }).getAttribute('href')).toBe(ROUTES.settings);
    // The user first; then, for the panel's list, their funnels.
    expect(requests[0]?.path).toBe(API.me);
    expect(requests.map((r) => r.path).filter((path) => path !== API.me && path !== FUNNELS_API.funnels)).toEqual([]);
  });

  it('sends a signed-in visitor away from a guest-only route', async () => {
    setToken('good', appStore);
    fakeFetch(() => json(alice));
    const router = renderAt(ROUTES.signUp);
    await waitFor(() => expect(router.state.location.pathname).toBe(ROUTES.panel));
  });

  it('redirects /partner/ to /partner/dashboard/ for a signed-in user', async () => {
    appStore.set(initDataAtom, 'query_id=1&hash=x');
    const totals = { clicks: 3, signups: 1, paying: 1, revenue: [{ amount: 1000, currency: 'USD' }], commission: [{ amount: 300, currency: 'USD' }] };
    const link = { uid: 'abcd1234', label: null, is_default: true, created_at: '2026-11-01T00:00:00Z', web_url: 'http://app.test/?ref=abcd1234', bot_url: null, app_url: null, totals };
    const balance = { balances: [{ currency: 'USD', available: 0, pending: 300, debt: 0, minimum_withdrawal: 1000 }], commission_percent: 30, hold_days: 14, hold_seconds: 14 * 86_400, minimum_withdrawal: [] };
    fakeFetch((request) => json(request.path === PARTNER_API.links ? [link] : request.path === PARTNER_API.balance ? balance : alice));
    const router = renderAt(ROUTES.partner);
    await waitFor(() => expect(router.state.location.pathname).toBe(ROUTES.partnerDashboard));
    expect(await screen.findByText('http://app.test/?ref=abcd1234')).toBeTruthy();
    expect(screen.getByTestId('partner-pending').textContent).toBe('$3.00');
  });

  it('switches the language at once, remembers it and keeps it on the account', async () => {
    setToken('good', appStore);
    appStore.set(userAtom, alice);
    const requests = fakeFetch((request) => json(request.method === 'PATCH' ? { ...alice, language: 'ru' } : alice));
    renderAt(ROUTES.language);
    const russian = await screen.findByLabelText('Русский');
    expect(screen.getByRole('heading', { name: 'Language' })).toBeTruthy();
    await act(async () => {
      fireEvent.click(russian);
    });
    expect(await screen.findByRole('heading', { name: 'Язык' })).toBeTruthy();
    await cookieWritesSettled();
    expect(Cookies.get(LANGUAGE_COOKIE)).toBe('ru');
    expect(document.documentElement.lang).toBe('ru');
    await waitFor(() => expect(requests).toContainEqual(expect.objectContaining({ method: 'PATCH', path: API.me, body: { language: 'ru' } })));
    expect((screen.getByLabelText('Русский') as HTMLInputElement).checked).toBe(true);
  });

  it('shows a network failure of sign-in in the top notice and leaves nothing spinning', async () => {
    fakeFetch(() => {
      throw new TypeError('Failed to fetch');
    });
    renderAt(ROUTES.signIn);
    fireEvent.change(await screen.findByLabelText('Email'), { target: { value: 'a@example.com' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'whatever-123' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    const notice = await screen.findByRole('alert');
    expect(notice.textContent).toMatch(/connection/i);
    await waitFor(() => expect(screen.queryByRole('status', { name: 'Loading' })).toBeNull());
  });

  it('shows Djoser errors above the form and next to the fields', async () => {
    fakeFetch(() => json({ non_field_errors: ['Unable to log in with provided credentials.'] }, 400));
    renderAt(ROUTES.signIn);
    fireEvent.change(await screen.findByLabelText('Email'), { target: { value: 'a@example.com' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'wrong-password' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect((await screen.findByTestId('form-alert')).textContent).toContain('Unable to log in with provided credentials.');
  });
});
