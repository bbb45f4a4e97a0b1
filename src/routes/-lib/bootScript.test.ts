// index.html's boot script: what it asks for at once must be exactly what the landing screen's
// loader then takes (landingData matches by path and query), else the screen waits for a second
// request; and what it preloads must be the code and strings in the language the app will pick.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { STATS_PERIODS } from '../../../contract/funnels';
import { ROUTES } from '../../../contract/routes';
import { LANDING_SCREENS, statsRequest } from '@/routes/-lib/landingScreens';
import { landingBoot, type BootPlan, type EarlyRequests } from '@/api/bootScript';
import { landingData } from '@/api/landingData';
import { timeZone } from '@/api/timeZone';

const plan: BootPlan = {
  base: '/',
  telegram: ['assets/theme.js'],
  session: ['assets/api.js'],
  me: '/api/users/me/',
  languages: ['en', 'ru'],
  messages: {
    en: { common: 'assets/en-common.js', panel: 'assets/en-panel.js', funnels: 'assets/en-funnels.js', auth: 'assets/en-auth.js' },
    ru: { common: 'assets/ru-common.js', panel: 'assets/ru-panel.js', funnels: 'assets/ru-funnels.js', auth: 'assets/ru-auth.js' },
  },
  screens: LANDING_SCREENS.map((screen) => ({ path: screen.path.source, session: screen.session, chunks: [`assets/${screen.messages[0]}-screen.js`], messages: screen.messages, requests: screen.requests })),
  periods: [...STATS_PERIODS],
  notSignInTokenPaths: [ROUTES.cancel],
};

const fetched: Array<{ path: string; authorization: string }> = [];

function preloaded(): string[] {
  return [...document.head.querySelectorAll<HTMLLinkElement>('link[rel="modulepreload"]')].map((link) => new URL(link.href).pathname);
}

function boot(address: string): EarlyRequests | undefined {
  window.history.replaceState(null, '', address);
  landingBoot(plan);
  return (window as unknown as { __funnelsEarly?: EarlyRequests }).__funnelsEarly;
}

const initData = (languageCode: string) => new URLSearchParams({ user: JSON.stringify({ id: 7, first_name: 'Anna', language_code: languageCode }), auth_date: '1', hash: 'abc' }).toString();

beforeEach(() => {
  fetched.length = 0;
  vi.stubGlobal(
    'fetch',
    vi.fn((path: string, init: RequestInit) => {
      fetched.push({ path, authorization: (init.headers as Record<string, string>).Authorization });
      return Promise.resolve(new Response(JSON.stringify({ path }), { status: 200, headers: { 'content-type': 'application/json' } }));
    }),
  );
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  document.head.innerHTML = '';
  document.cookie = 'auth_token=; max-age=0; path=/';
  document.cookie = 'language=; max-age=0; path=/';
  sessionStorage.clear();
  delete (window as unknown as { __funnelsEarly?: EarlyRequests }).__funnelsEarly;
});

describe('the boot script of index.html', () => {
  it('opened from the menu button, asks for the user and the funnels with the init data, and preloads the panel in the Telegram user’s language', () => {
    boot(`/#${new URLSearchParams({ tgWebAppData: initData('ru'), tgWebAppPlatform: 'android' }).toString()}`);
    expect(fetched).toEqual([
      { path: '/api/users/me/', authorization: `TG ${initData('ru')}` },
      { path: '/api/funnels/', authorization: `TG ${initData('ru')}` },
    ]);
    expect(preloaded()).toEqual(['/assets/ru-common.js', '/assets/theme.js', '/assets/api.js', '/assets/panel-screen.js', '/assets/ru-panel.js']);
  });

  it('with a session cookie, asks for a funnel screen’s data exactly as its loader asks for it, so the loader takes the answers', async () => {
    document.cookie = 'auth_token=tok123; path=/';
    document.cookie = 'language=en; path=/';
    const early = boot('/content/funnels/42/?period=7d');
    const stats = statsRequest(42, '7d', timeZone());
    expect(fetched.map((request) => request.path)).toEqual(['/api/users/me/', '/api/funnels/42/', '/api/funnels/42/stages/', '/api/funnels/42/series/', stats]);
    expect(new Set(fetched.map((request) => request.authorization))).toEqual(new Set(['Token tok123']));
    expect(Object.keys(early?.requests ?? {})).toContain(stats);
    // The loader's call for the same path takes the early answer instead of asking again.
    const fallback = vi.fn(() => Promise.resolve({ path: 'asked again' }));
    await expect(landingData(stats, fallback)).resolves.toEqual({ path: stats });
    expect(fallback).not.toHaveBeenCalled();
    // Taken once: a later load asks the server.
    await expect(landingData(stats, fallback)).resolves.toEqual({ path: 'asked again' });
  });

  it('reads the time zone (slow the first time on a phone) only once the screen’s code and its other data are on their way', () => {
    document.cookie = 'auth_token=tok123; path=/';
    document.cookie = 'language=en; path=/';
    const DateTimeFormat = Intl.DateTimeFormat;
    const atFirstRead: { preloaded: string[]; fetched: string[] }[] = [];
    vi.spyOn(Intl, 'DateTimeFormat').mockImplementation((...args: ConstructorParameters<typeof Intl.DateTimeFormat>) => {
      atFirstRead.push({ preloaded: preloaded(), fetched: fetched.map((request) => request.path) });
      return new DateTimeFormat(...args);
    });
    boot('/content/funnels/42/');
    expect(atFirstRead[0]).toEqual({
      preloaded: ['/assets/en-common.js', '/assets/api.js', '/assets/funnels-screen.js', '/assets/en-funnels.js'],
      fetched: ['/api/users/me/', '/api/funnels/42/', '/api/funnels/42/stages/', '/api/funnels/42/series/'],
    });
    expect(fetched.map((request) => request.path)).toContain(statsRequest(42, 'all', timeZone()));
  });

  it('an unknown period is asked for as the screen shows it: all', () => {
    document.cookie = 'auth_token=tok123; path=/';
    boot('/content/funnels/42/?period=forever');
    expect(fetched.map((request) => request.path)).toContain(statsRequest(42, 'all', timeZone()));
  });

  it('the signed cancel link’s ?token= is not a sign-in: a visitor opening it asks for nothing', () => {
    boot(`${ROUTES.cancel}?token=2.1.signature`);
    expect(fetched).toEqual([]);
  });

  it('a ?token= elsewhere is a sign-in token, as state/token.ts takes it', () => {
    boot('/content/panel/?token=tok456');
    expect(fetched.map((request) => request.authorization)).toEqual(['Token tok456', 'Token tok456']);
  });

  it('a startapp launch asks only for the user: it lands on another screen', () => {
    boot(`/#${new URLSearchParams({ tgWebAppData: initData('en'), tgWebAppStartParam: 'tpl_5' }).toString()}`);
    expect(fetched.map((request) => request.path)).toEqual(['/api/users/me/']);
  });

  it('a guest asks for nothing and gets the sign-in screen’s code and strings in the browser’s language', () => {
    vi.spyOn(navigator, 'language', 'get').mockReturnValue('ru-RU');
    boot('/sign-in/');
    expect(fetched).toEqual([]);
    expect(preloaded()).toEqual(['/assets/ru-common.js', '/assets/auth-screen.js', '/assets/ru-auth.js']);
  });

  it('a guest at a screen that needs a session gets no screen code: the guard sends them to sign in', () => {
    boot('/content/panel/');
    expect(fetched).toEqual([]);
    expect(preloaded()).toEqual(['/assets/en-common.js']);
  });

  it('the language cookie wins over Telegram’s language, as the app’s rule says', () => {
    document.cookie = 'language=en; path=/';
    boot(`/#${new URLSearchParams({ tgWebAppData: initData('ru') }).toString()}`);
    expect(preloaded()).toContain('/assets/en-common.js');
    expect(preloaded()).not.toContain('/assets/ru-common.js');
  });
});
