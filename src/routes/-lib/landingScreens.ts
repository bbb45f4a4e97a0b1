// The screens an app start lands on most (the Mini App's menu button opens / → the panel; links
// open a funnel), and what each needs from the start: its route file (vite.config.ts preloads that
// route's code from the HTML), its messages and its API requests (index.html's boot script,
// api/bootScript.ts, sends them before the app's code has arrived). Plain data: vite.config.ts
// imports it.
import { FUNNELS_API, FUNNELS_PATHS, type StatsPeriod } from '../../../contract/funnels';
import { LETTERS_PATHS } from '../../../contract/letters';
// Relative, not '@/': vite.config.ts imports this file, and the Node side knows no '@/' path.
// eslint-disable-next-line no-restricted-imports
import type { MessageNamespace } from '../../i18n/namespaces';

export interface LandingScreen {
  /** The page paths it is opened at (with their trailing slash). */
  path: RegExp;
  /** Whether it needs a session (a guest opening it is sent to sign in: nothing to preload). */
  session: boolean;
  routeFile: string;
  messages: MessageNamespace[];
  /**
   * The GET requests its loader makes, as templates of bootScript.ts: `:id` is the path's first
   * group, `{tz}` the browser's time zone, `{period}` the address's period ('all' by default).
   */
  requests: string[];
}

/** A funnel's figures for a period, as its loader asks for them (the query in the clients' order). */
export function statsRequest(funnelId: number, period: StatsPeriod, timeZone: string): string {
  return `${FUNNELS_API.stats(funnelId)}?${new URLSearchParams({ tz: timeZone, period }).toString()}`;
}

export const LANDING_SCREENS: readonly LandingScreen[] = [
  {
    path: /^\/(?:content\/panel\/)?$/,
    session: true,
    routeFile: 'src/routes/_authenticated/content/panel.tsx',
    messages: ['panel'],
    requests: [FUNNELS_PATHS.funnels],
  },
  {
    path: /^\/content\/funnels\/([1-9][0-9]{0,15})\/$/,
    session: true,
    routeFile: 'src/routes/_authenticated/content/funnels/$funnelId/index.tsx',
    messages: ['funnels'],
    requests: [FUNNELS_PATHS.funnel, FUNNELS_PATHS.stages, `${FUNNELS_PATHS.stats}?tz={tz}&period={period}`, LETTERS_PATHS.series],
  },
  {
    path: /^\/sign-in\/$/,
    session: false,
    routeFile: 'src/routes/_guest/sign-in.tsx',
    messages: ['auth'],
    requests: [],
  },
];
