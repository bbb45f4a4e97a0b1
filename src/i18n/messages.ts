// The shape of a locale file, taken from the English one (type only: no JSON in this chunk).
import type en from '../../locales/en.json';

export type Messages = typeof en;

declare module 'i18next' {
  interface CustomTypeOptions {
    resources: { translation: Messages };
    returnNull: false;
  }
}
