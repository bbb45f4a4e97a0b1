// Boot order: error reporting → i18n → Telegram shell → router → render on #app.
import './styles.css';
import { RouterProvider } from '@tanstack/react-router';
import { Provider as StoreProvider } from 'jotai';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { loadErrorReporting, reportError, startErrorReporting } from './errorReporting';
import { initI18n, loadMessages } from './i18n/i18n';
import { startupLanguage } from './i18n/language';
import { createAppRouter } from './router';
import { activeAtom, initDataAtom, tokenAtom } from './state/auth';
import { onApiChange } from './api/afterChange';
import { authSession } from './api/session';
import { cookieWritesSettled, holdCookieWrites, loadCookieLibrary } from './state/cookies';
import { appStore } from './state/store';
import { startupToken } from './state/token';
import { readTelegramLaunch } from './telegram/launch';
import { REF_QUERY_PARAM } from '../contract/partner-ref';
import { ROUTES } from '../contract/routes';

const FIRST_PAINT_FALLBACK_MS = 3_000;

/** Runs `work` once the first contentful paint has happened (or after a while, at the latest). */
function afterFirstPaint(work: () => void): void {
  let done = false;
  const run = () => {
    if (done) return;
    done = true;
    setTimeout(work, 0);
  };
  try {
    const observer = new PerformanceObserver((list) => {
      if (list.getEntriesByName('first-contentful-paint').length > 0) {
        observer.disconnect();
        run();
      }
    });
    observer.observe({ type: 'paint', buffered: true });
  } catch {
    // No paint timing in this browser: the fallback below does the job.
  }
  setTimeout(run, FIRST_PAINT_FALLBACK_MS);
}

async function boot(): Promise<void> {
  startErrorReporting();
  // The language cookie's write-back waits for the first paint, and js-cookie with it: it is not
  // part of the first paint.
  const releaseCookieWrites = holdCookieWrites();
  // Synchronous, before anything can navigate: the token (moving ?token= into the cookie and out
  // of the address) and Telegram's init data (read from the hash while it is still there).
  appStore.set(tokenAtom, startupToken());
  // A token from the address is in its cookie before the app shows the visitor signed in (a
  // reload keeps them signed in); without one, nothing is queued and nothing is fetched.
  const tokenSaved = cookieWritesSettled();
  // A partner's web link (?ref=): its parameter leaves the address before the router reads it; the
  // module comes only with the parameter, alongside the messages.
  const referral = new URLSearchParams(window.location.search).has(REF_QUERY_PARAM)
    ? import('./state/referral').then(({ takeReferral }) => takeReferral(), reportError)
    : undefined;
  const launchHash = window.location.hash;
  const launch = readTelegramLaunch();
  appStore.set(initDataAtom, launch.initData);
  // A signed-in start calls the API at once (the guard loads the user): fetch the clients now,
  // alongside the messages. A guest's first screen does not need them before first paint.
  const api = () => import('./api/users');
  const language = startupLanguage(launch.initData);
  // With a session, index.html's boot script has already asked for the current user and the
  // landing screen's data (api/bootScript.ts); the guard and the loader take the answers.
  if (appStore.get(activeAtom)) void api();

  // Telegram shell: its colours before the first paint (from the launch parameters, fetched
  // alongside the messages, and only inside Telegram); the SDK after the first paint. Opened by a
  // startapp link (t.me/<service bot>?startapp=tpl_5), it starts at that screen.
  const telegram = launch.inTelegram
    ? [
        import('./telegram/theme').then(({ applyLaunchTheme }) => void applyLaunchTheme(), reportError),
        import('./telegram/startPath').then(({ goToStartPath }) => goToStartPath(launchHash), reportError),
      ]
    : [];
  await Promise.all([initI18n(language), tokenSaved, referral, ...telegram]);
  // Only inside the Cordova wrapper (its deviceready fires for listeners added late, too).
  if (window.cordova) void import('./cordova').then(({ startCordova }) => startCordova(), reportError);

  // '/' is the panel (routes/index.tsx redirects there): said here, before the router reads the
  // address, so that the first open from the menu button is one navigation, not a redirect and a
  // second match, load and render.
  if (window.location.pathname === '/') window.history.replaceState(window.history.state, '', `${ROUTES.panel}${window.location.search}`);
  const router = createAppRouter({ auth: authSession });
  // After any change made through the API, what the router loaded before it is out of date.
  onApiChange(() => void router.invalidate());
  const container = document.getElementById('app');
  if (!container) throw new Error('#app is missing from index.html');
  createRoot(container).render(
    <StrictMode>
      <StoreProvider store={appStore}>
        <RouterProvider router={router} />
      </StoreProvider>
    </StrictMode>,
  );

  afterFirstPaint(() => {
    if (launch.inTelegram) void import('./telegram/shell').then(({ startTelegramShell }) => startTelegramShell());
    void loadErrorReporting();
    // Loaded now, so that signing in or out never waits for it.
    void loadCookieLibrary().catch(() => {
      // Tried again by the first write.
    });
    releaseCookieWrites();
    void api();
    // The top notice is there before anything can go wrong (even with the connection gone).
    void import('./ui/TopNotice');
    void loadMessages('serverErrors')?.catch(() => {
      // Only a head start: a form loads them when it shows the server's errors.
    });
    const active = appStore.get(activeAtom);
    void import('./preloadScreens').then(({ preloadLikelyScreens }) => preloadLikelyScreens(router, active));
  });
}

void boot();
