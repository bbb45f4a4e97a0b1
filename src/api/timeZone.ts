/** The browser's time zone: the server counts a funnel's figures by the owner's days. */
export const timeZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
