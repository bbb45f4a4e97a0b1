/**
 * A ref callback that focuses its element once, as it is added to the page: what `autoFocus` does
 * in React. Preact (the app's renderer, vite.config.ts) only writes the `autofocus` attribute,
 * which browsers follow on page load, not for an element added later. A module-level function,
 * so a re-render never calls it again.
 */
export function focusOnMount(element: HTMLElement | null): void {
  element?.focus();
}
