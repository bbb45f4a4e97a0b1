// What the app needs from Telegram, behind a small interface so that the SDK itself is only
// fetched inside Telegram (dynamic import) and the rest of the app never imports it.
import type { ComponentType } from 'react';
import { reportError } from '../errorReporting';

export interface TelegramShell {
  setBackButtonVisible(visible: boolean): void;
  /** Subscribes to the native back button; returns the unsubscribe function. */
  onBackButton(listener: () => void): () => void;
  /** Tells Telegram the app is ready to be shown (after the first render). */
  ready(): void;
}

let shell: TelegramShell | null = null;
let bindings: ComponentType<{ shell: TelegramShell }> | null = null;

export async function startTelegramShell(): Promise<TelegramShell | null> {
  try {
    const [{ initTelegramSdk }, { TelegramBindings }] = await Promise.all([import('./sdk'), import('./TelegramBindings')]);
    shell = initTelegramSdk();
    bindings = TelegramBindings;
  } catch (error) {
    // A broken or unexpected Telegram client must not keep the app from working.
    reportError(error);
    shell = null;
  }
  return shell;
}

export function telegramShell(): TelegramShell | null {
  return shell;
}

/** The root route renders this inside Telegram (back button, ready); null elsewhere. */
export function TelegramRoot() {
  const Bindings = bindings;
  return shell && Bindings ? <Bindings shell={shell} /> : null;
}
