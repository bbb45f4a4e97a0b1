// The desktop layout (issue 22): on a screen wider than a tablet, the lists of people (contacts, a
// funnel's people, a mailing's recipients, CRM lists) render as tables in a wider column. The
// query lives here once; src/styles.css repeats its number in the `.screen--wide` rules.
import { useSyncExternalStore } from 'react';

export const WIDE_LAYOUT_QUERY = '(min-width: 1025px)';

/** Whether the media query matches now; the component renders again when that changes. */
export function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    (onChange) => {
      const list = window.matchMedia(query);
      list.addEventListener('change', onChange);
      return () => list.removeEventListener('change', onChange);
    },
    () => window.matchMedia(query).matches,
    () => false,
  );
}

/** True on a desktop-wide window: the screens that opt in show tables instead of cards. */
export function useWideLayout(): boolean {
  return useMediaQuery(WIDE_LAYOUT_QUERY);
}
