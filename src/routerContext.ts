// What every route's beforeLoad receives (typed router context, as in TanStack's
// authenticated-routes example).
import type { AuthSession } from './state/session';

export interface RouterContext {
  auth: AuthSession;
}
