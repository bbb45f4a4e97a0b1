// The screens an app start lands on most (the Mini App's menu button opens / → the panel; links
// open a funnel), and what each needs from the start: its route file (vite.config.ts preloads that
// route's code from the HTML when the visitor has a session), its messages and its API requests
// (main.tsx starts them with the code: routes/-lib/landing.ts). Plain data: vite.config.ts imports
// it too.
import { FUNNELS_API, STATS_PERIODS, type StatsPeriod } from '../../../contract/funnels';
import { LETTERS_API } from '../../../contract/letters';
// Relative, not '@/': vite.config.ts imports this file, and the Node side knows no '@/' path.
// eslint-disable-next-line no-restricted-imports
import type { MessageNamespace } from '../../i18n/namespaces';

export interface LandingScreen {
  /** The page paths it is opened at (with their trailing slash). */
  path: RegExp;
  routeFile: string;
  messages: MessageNamespace[];
  /** The GET requests its loader makes (path and query), for the address it is opened at. */
  requests(match: RegExpExecArray, search: URLSearchParams, timeZone: string): string[];
}

/** A funnel's figures for a period, as its loader asks for them (the query in the clients' order). */
export function statsRequest(funnelId: number, period: StatsPeriod, timeZone: string): string {
  return `${FUNNELS_API.stats(funnelId)}?${new URLSearchParams({ tz: timeZone, period }).toString()}`;
}

function periodOf(search: URLSearchParams): StatsPeriod {
  const period = search.get('period');
  return STATS_PERIODS.find((known) => known === period) ?? 'all';
}

export const LANDING_SCREENS: readonly LandingScreen[] = [
  {
    path: /^\/(?:content\/panel\/)?$/,
    routeFile: 'src/routes/_authenticated/content/panel.tsx',
    messages: ['panel'],
    requests: () => [FUNNELS_API.funnels],
  },
  {
    path: /^\/content\/funnels\/([1-9][0-9]{0,15})\/$/,
    routeFile: 'src/routes/_authenticated/content/funnels/$funnelId/index.tsx',
    messages: ['funnels'],
    requests: (match, search, timeZone) => {
      const id = Number(match[1]);
      return [FUNNELS_API.funnel(id), FUNNELS_API.stages(id), statsRequest(id, periodOf(search), timeZone), LETTERS_API.series(id)];
    },
  },
];
