// The Cordova wrapper: once the device is ready, hide the native splash screen after
// SPLASH_HIDE_DELAY_MS (spec §4).
import { SPLASH_HIDE_DELAY_MS } from '../contract/constants';

declare global {
  interface Window {
    cordova?: unknown;
  }
  interface Navigator {
    splashscreen?: { hide(): void; show?(): void };
  }
}

export function startCordova(): void {
  if (!window.cordova) return;
  document.addEventListener(
    'deviceready',
    () => {
      setTimeout(() => navigator.splashscreen?.hide(), SPLASH_HIDE_DELAY_MS);
    },
    { once: true },
  );
}
