import { useRouter } from '@tanstack/react-router';
import type { AuthSession } from '@/state/session';

/** The session from the router context (tests give the router their own). */
export function useAuth(): AuthSession {
  return useRouter().options.context.auth;
}
