// Telegram's theme from the launch parameters, on the page before the first paint inside
// Telegram. Its own module: a plain browser never fetches it.
import { launchQuery } from './launch';

const THEME_COLOR = /^#[0-9a-f]{6}$/i;

/** Perceived lightness (0..1) of a #rrggbb colour. */
function lightness(hex: string): number {
  const n = parseInt(hex.slice(1), 16);
  return (0.299 * ((n >> 16) & 255) + 0.587 * ((n >> 8) & 255) + 0.114 * (n & 255)) / 255;
}

/**
 * Puts Telegram's theme (tgWebAppThemeParams) on <html> as the same --tg-theme-* variables the
 * SDK binds, so the first paint already has Telegram's colours while the SDK itself loads after
 * it. Returns false when the launch carries no theme.
 */
export function applyLaunchTheme(root: HTMLElement = document.documentElement): boolean {
  const json = new URLSearchParams(launchQuery() ?? '').get('tgWebAppThemeParams');
  if (!json) return false;
  let theme: unknown;
  try {
    theme = JSON.parse(json);
  } catch {
    return false;
  }
  if (!theme || typeof theme !== 'object') return false;
  for (const [key, value] of Object.entries(theme)) {
    if (typeof value === 'string' && THEME_COLOR.test(value)) root.style.setProperty(`--tg-theme-${key.replace(/_/g, '-')}`, value);
  }
  const bg = (theme as Record<string, unknown>).bg_color;
  if (typeof bg === 'string' && THEME_COLOR.test(bg)) root.dataset.colorScheme = lightness(bg) < 0.5 ? 'dark' : 'light';
  return true;
}
