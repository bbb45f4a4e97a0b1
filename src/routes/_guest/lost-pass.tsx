import { createFileRoute } from '@tanstack/react-router';
import { LostPassScreen } from '../../features/auth/LostPassScreen';

export const Route = createFileRoute('/_guest/lost-pass')({ component: LostPassScreen });
