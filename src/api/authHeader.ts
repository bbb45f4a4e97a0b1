// Spec §6: a stored token goes in the Authorization header with the prefix Token; otherwise,
// if Telegram init data is present, it goes with the prefix TG.
import { TELEGRAM_PREFIX, TOKEN_PREFIX } from '../../contract/constants';

export interface Credentials {
  token: string | null;
  initData: string | null;
}

export function authorizationHeader({ token, initData }: Credentials): string | null {
  if (token) return `${TOKEN_PREFIX} ${token}`;
  if (initData) return `${TELEGRAM_PREFIX} ${initData}`;
  return null;
}
