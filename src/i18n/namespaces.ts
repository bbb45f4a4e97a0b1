// The i18next namespaces: which top-level keys of locales/<language>.json each one holds. The build
// cuts each locale file into these parts (vite.config.ts, `?ns=`), so a screen fetches the strings
// of its own namespaces and not every screen's. Every top-level key is in exactly one namespace.
// Plain data: vite.config.ts imports it too.

export const MESSAGE_NAMESPACES = {
  /** Loaded at start: the app's chrome, transport errors, the error and not-found screens. */
  common: ['app', 'common', 'errors', 'notFound', 'errorScreen'],
  /** Sign-in, and the field labels and checks every account form shares. */
  auth: ['fields', 'validation', 'signIn'],
  /** The other account screens, reached from sign-in or from an e-mail link. */
  account: ['signUp', 'checkEmail', 'lostPass', 'resetPass', 'activate'],
  /** Djoser's messages in the interface language: needed only once a form call has failed. */
  serverErrors: ['serverErrors'],
  panel: ['panel', 'dashboard'],
  settings: ['settings', 'language', 'account'],
  partner: ['partner', 'partnerTransactions', 'partnerLink', 'partnerWithdraw', 'partnerStatistics', 'adminWithdrawals'],
  billing: ['subscribe', 'cancel', 'subscriptionAlert', 'plans'],
  /** The funnel builder's screens. */
  funnels: ['funnels', 'editor', 'mailings', 'letters', 'templates', 'contacts', 'crm', 'deliveryError'],
} as const;

export type MessageNamespace = keyof typeof MESSAGE_NAMESPACES;

export const START_NAMESPACE = 'common' satisfies MessageNamespace;

/**
 * What is wrong with how a locale file's top-level keys fall into the namespaces: a key in no
 * namespace (its strings would never load) or in two, or a namespace key the file lacks.
 */
export function namespaceProblems(messages: Record<string, unknown>): string[] {
  const problems: string[] = [];
  const owners = new Map<string, MessageNamespace[]>();
  for (const [namespace, keys] of Object.entries(MESSAGE_NAMESPACES) as Array<[MessageNamespace, readonly string[]]>) {
    for (const key of keys) {
      owners.set(key, [...(owners.get(key) ?? []), namespace]);
      if (!(key in messages)) problems.push(`"${key}" (namespace ${namespace}) is not in the file`);
    }
  }
  for (const key of Object.keys(messages)) {
    const namespaces = owners.get(key) ?? [];
    if (namespaces.length === 0) problems.push(`"${key}" is in no namespace of src/i18n/namespaces.ts`);
    if (namespaces.length > 1) problems.push(`"${key}" is in more than one namespace: ${namespaces.join(', ')}`);
  }
  return problems;
}
