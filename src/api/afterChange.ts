// Who hears that a change went through (runChange in ./action.ts). Its own module so that main.tsx
// registers the router here without the API calls' code in the first paint.

let afterChange: () => void = () => {};

/**
 * What follows every change that went through (main.tsx: the router marks what it loaded as out of
 * date, so no screen shows data from before the change, and reloads the current one).
 */
export function onApiChange(listener: () => void): void {
  afterChange = listener;
}

export function announceApiChange(): void {
  afterChange();
}
