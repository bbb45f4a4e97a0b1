// Guests only: a signed-in (active) visitor is sent to '/'.
import { createFileRoute } from '@tanstack/react-router';
import { requireGuest } from '@/features/auth/guards';

export const Route = createFileRoute('/_guest')({
  beforeLoad: ({ context }) => requireGuest(context.auth),
});
