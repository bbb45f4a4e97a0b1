// The not-found screen, reached through the real route tree: it shows, and React logs nothing on
// the way (a lazily loaded screen that suspends wrongly is only reported in the console).
import { createMemoryHistory, RouterProvider } from '@tanstack/react-router';
import { cleanup, render, screen } from '@testing-library/react';
import { Provider } from 'jotai';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createAppRouter } from '@/router';
import { createAppSession } from '@/api/session';
import { appStore } from '@/state/store';
import { resetEnvironment, useLanguage } from '@/test/support';

describe('the not-found screen', () => {
  beforeEach(async () => {
    resetEnvironment();
    await useLanguage('en');
  });
  afterEach(() => {
    cleanup();
    vi.restoreAllMocks();
  });

  it('shows "Page not found" for an unknown address without a console error', async () => {
    const consoleError = vi.spyOn(console, 'error');
    const router = createAppRouter({ auth: createAppSession(appStore) }, createMemoryHistory({ initialEntries: ['/no-such-page/'] }));
    render(
      <Provider store={appStore}>
        <RouterProvider router={router} />
      </Provider>,
    );
    expect(await screen.findByText('Page not found')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Go to the panel' })).toBeTruthy();
    expect(consoleError.mock.calls.map((call) => call.map(String).join(' '))).toEqual([]);
  });
});
