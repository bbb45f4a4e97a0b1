// What the app needs from Telegram, behind a small interface so that the SDK itself is only
// fetched inside Telegram (dynamic import) and the rest of the app never imports it.
import { useSyncExternalStore, type ComponentType } from 'react';
import { reportError } from '@/errorReporting';
import type { TelegramShell } from './types';


interface Loaded {
  shell: TelegramShell;
  Bindings: ComponentType<{ shell: TelegramShell }>;
}

let loaded: Loaded | null = null;
const listeners = new Set<() => void>();

/**
 * Loads the SDK and sets the Mini App up (see sdk.ts). Called after the first paint: Telegram's
 * colours are already on the page by then (theme.ts applyLaunchTheme), so nothing flashes.
 */
export async function startTelegramShell(): Promise<TelegramShell | null> {
  try {
    // Development only (a plain browser playing Telegram): the SDK's mock environment. The
    // condition is false in a production build, which therefore carries no mock code.
    if (import.meta.env.DEV) await import('./mockEnv').then(({ mockTelegramForDevelopment }) => mockTelegramForDevelopment());
    const [{ initTelegramSdk }, { TelegramBindings }] = await Promise.all([import('./sdk'), import('./TelegramBindings')]);
    loaded = { shell: initTelegramSdk(), Bindings: TelegramBindings };
    for (const listener of listeners) listener();
  } catch (error) {
    // A broken or unexpected Telegram client must not keep the app from working.
    reportError(error);
  }
  return loaded?.shell ?? null;
}

export function telegramShell(): TelegramShell | null {
  return loaded?.shell ?? null;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The root route renders this: inside Telegram, once the SDK is up, the back button and ready. */
export function TelegramRoot() {
  const current = useSyncExternalStore(subscribe, () => loaded);
  return current ? <current.Bindings shell={current.shell} /> : null;
}
