// The shape of the messages, taken from the English locale file (types only: no JSON in any chunk
// from here). For i18next's typed keys the start namespace holds them all: every namespace of
// namespaces.ts joins it once loaded (i18n.ts, joinStartNamespace).
import type en from '../../locales/en.json';

export type Messages = typeof en;

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'common';
    resources: { common: Messages };
    returnNull: false;
  }
}
