// Development only (`npm run dev` in a plain browser playing a Mini App, e.g. from the fake Bot
// API's page): shell.tsx imports this under `import.meta.env.DEV`, so production code never
// mocks anything. Telegram's real clients send launch parameters the SDK accepts; a hand-made
// launch may lack fields the SDK insists on (its init data's `signature`), and then every SDK
// call would be unavailable. Here the SDK is given the platform, version and theme it needs
// through its own mockTelegramEnv (the init data itself is the server's business: it goes raw in
// the TG header).
import { mockTelegramEnv, retrieveLaunchParams } from '@telegram-apps/sdk-react';
import { launchQuery } from './launch';

export function mockTelegramForDevelopment(): void {
  try {
    retrieveLaunchParams();
    return; // the SDK accepts the launch as it is
  } catch {
    // fall through: give the SDK what it needs
  }
  const params = new URLSearchParams(launchQuery() ?? '');
  params.delete('tgWebAppData');
  mockTelegramEnv({ launchParams: params });
}
