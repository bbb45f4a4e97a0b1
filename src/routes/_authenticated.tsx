// Login required: the guard chain of spec §4 runs here, before any protected screen.
import { createFileRoute } from '@tanstack/react-router';
import { requireUser } from '@/features/auth/guards';

export const Route = createFileRoute('/_authenticated')({
  beforeLoad: ({ context, location }) => requireUser(context.auth, location.href),
});
