// The screen a `startapp` link opens (t.me/<service bot>?startapp=tpl_5 → /templates/5/). Only
// inside Telegram: main.tsx fetches this alongside the Telegram theme, off a plain browser's first paint.
import { TEMPLATE_START_PREFIX, TEMPLATE_START_REF_SUFFIX } from '../../contract/templates-start';
import { hashParams } from './launch';

/** The app's screens a `startapp` parameter may open: a template's preview (its shared link may carry a partner's ref). */
const START_ROUTES: Array<[RegExp, (match: RegExpMatchArray) => string]> = [
  [new RegExp(`^${TEMPLATE_START_PREFIX}([1-9][0-9]{0,9})${TEMPLATE_START_REF_SUFFIX}$`), (m) => `/templates/${m[1]}/`],
];

/** The start parameter of this launch (the hash's tgWebAppStartParam, or start_param in its init data) as a path. */
export function startPathFrom(hash: string): string | null {
  const params = hashParams(hash);
  const initData = params.get('tgWebAppData');
  const start = params.get('tgWebAppStartParam') ?? (initData ? new URLSearchParams(initData).get('start_param') : null);
  if (!start) return null;
  for (const [pattern, path] of START_ROUTES) {
    const match = start.match(pattern);
    if (match) return path(match);
  }
  return null;
}

/** Opened by a startapp link: starts at that screen (before the router reads the address). */
export function goToStartPath(hash: string): void {
  const path = startPathFrom(hash);
  if (path && window.location.pathname !== path) window.history.replaceState(null, '', `${path}${window.location.hash}`);
}
