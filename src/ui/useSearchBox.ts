// A list's search box whose text is part of the address: what is typed applies a moment after the
// last key (not on every key), and a search set from outside (Back, a cleared filter) is shown.
import { useEffect, useState } from 'react';

export const SEARCH_DELAY_MS = 300;

/** `current`: the search in the address; `apply` puts a new one there (undefined: no search). */
export function useSearchBox(current: string | undefined, apply: (search: string | undefined) => void): [string, (text: string) => void] {
  const [text, setText] = useState(current ?? '');
  useEffect(() => {
    const value = text.trim();
    if (value === (current ?? '')) return;
    const timer = setTimeout(() => apply(value || undefined), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  });
  return [text, setText];
}
