// Guests only: a signed-in (active) visitor is sent on (where sign-in would send them, else '/').
import { createFileRoute } from '@tanstack/react-router';
import { requireGuest } from '@/features/auth/guards';

export const Route = createFileRoute('/_guest')({
  beforeLoad: ({ context, search }) => requireGuest(context.auth, search as { redirect?: unknown }),
});
