// react-i18next asks for `use-sync-external-store/shim`, the polyfill of useSyncExternalStore for
// React < 18 (a CommonJS module with a fallback implementation). React 19 has the hook built in:
// vite.config.ts points the import here, so the first paint carries none of the polyfill.
export { useSyncExternalStore } from 'react';
