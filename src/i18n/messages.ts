// The shape of the messages, taken from the English locale file (types only: no JSON in any chunk
// from here), cut into the namespaces of namespaces.ts for i18next's typed keys.
import type en from '../../locales/en.json';
import type { MESSAGE_NAMESPACES, MessageNamespace } from './namespaces';

export type Messages = typeof en;

export type NamespaceMessages<N extends MessageNamespace> = Pick<Messages, (typeof MESSAGE_NAMESPACES)[N][number]>;

type OtherNamespaces = Exclude<MessageNamespace, 'common'>;

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'common';
    fallbackNS: OtherNamespaces[];
    resources: { [N in MessageNamespace]: NamespaceMessages<N> };
    returnNull: false;
  }
}
