// The two JSON clients of spec §7: authenticated (100 s) and public (20 s). Paths in contract/auth.ts
// start with '/', ky's prefixUrl wants them without it: `apiPath` bridges the two.
import ky, { type KyInstance } from 'ky';
import { AUTH_CLIENT_TIMEOUT_MS, PUBLIC_CLIENT_TIMEOUT_MS } from '../../contract/constants';
import { initDataAtom, tokenAtom } from '@/state/auth';
import { appStore, type AppStore } from '@/state/store';
import { authorizationHeader } from './authHeader';

export function apiPath(path: string): string {
  return path.replace(/^\/+/, '');
}

export function createAuthClient(store: AppStore = appStore): KyInstance {
  return ky.create({
    prefixUrl: '/',
    timeout: AUTH_CLIENT_TIMEOUT_MS,
    retry: 0,
    hooks: {
      beforeRequest: [
        (request) => {
          const header = authorizationHeader({ token: store.get(tokenAtom), initData: store.get(initDataAtom) });
          if (header) request.headers.set('Authorization', header);
        },
      ],
    },
  });
}

export function createPublicClient(): KyInstance {
  return ky.create({ prefixUrl: '/', timeout: PUBLIC_CLIENT_TIMEOUT_MS, retry: 0 });
}

export const authClient = createAuthClient();
export const publicClient = createPublicClient();
