// Telegram Mini App set-up with @telegram-apps/sdk-react v3, as the official template does it:
// `init()` reads the launch parameters itself (retrieveLaunchParams), every call is guarded with
// `.ifAvailable()`. Only ever imported dynamically, from shell.tsx, when the page runs inside
// Telegram. The mock environment for development lives in mockEnv.ts, never loaded in production.
import { backButton, closingBehavior, init, invoice, miniApp, openTelegramLink, themeParams, viewport } from '@telegram-apps/sdk-react';
import type { InvoiceOutcome, TelegramShell } from './types';

const INVOICE_OUTCOMES: readonly string[] = ['paid', 'cancelled', 'failed', 'pending'] satisfies InvoiceOutcome[];

/** How long to wait for the client's viewport and safe-area answers before giving up on them. */
const VIEWPORT_MOUNT_TIMEOUT_MS = 5_000;

function applyColorScheme(dark: boolean): void {
  // Form controls and scrollbars follow the Telegram theme, not the OS one.
  document.documentElement.dataset.colorScheme = dark ? 'dark' : 'light';
}

export function initTelegramSdk(): TelegramShell {
  init();

  // Theme: --tg-theme-* variables (the app's colours are built on them) and --tg-bg-color & co.
  miniApp.mountSync.ifAvailable(); // mounts the theme params too
  themeParams.bindCssVars.ifAvailable();
  miniApp.bindCssVars.ifAvailable();
  applyColorScheme(themeParams.isDark());
  themeParams.isDark.sub(applyColorScheme);

  backButton.mount.ifAvailable();
  closingBehavior.mount.ifAvailable();

  // Viewport: full height, and --tg-viewport-* variables (heights, safe-area insets). Mounting
  // waits for the client's answers, so it runs in the background and never holds the render.
  viewport.expand.ifAvailable();
  if (viewport.mount.isAvailable()) {
    viewport
      .mount({ timeout: VIEWPORT_MOUNT_TIMEOUT_MS })
      .then(() => {
        viewport.bindCssVars.ifAvailable();
      })
      .catch(() => {
        // Older clients may not answer; CSS falls back to env(safe-area-inset-*).
      });
  }

  return {
    setBackButtonVisible(visible) {
      if (visible) backButton.show.ifAvailable();
      else backButton.hide.ifAvailable();
    },
    onBackButton(listener) {
      const [subscribed, off] = backButton.onClick.ifAvailable(listener);
      return subscribed ? off : () => {};
    },
    ready() {
      miniApp.ready.ifAvailable();
    },
    openTelegramLink(url) {
      const [called] = openTelegramLink.ifAvailable(url);
      return called;
    },
    setClosingConfirmation(enabled) {
      if (enabled) closingBehavior.enableConfirmation.ifAvailable();
      else closingBehavior.disableConfirmation.ifAvailable();
    },
    async openInvoice(url) {
      if (!invoice.open.isAvailable()) return null;
      const status = await invoice.open(url, 'url');
      // Telegram may add statuses; an unknown one is treated as still pending.
      return INVOICE_OUTCOMES.includes(status) ? (status as InvoiceOutcome) : 'pending';
    },
  };
}
