// The in-page back control of inner screens. Inside Telegram the native back button does this
// job (telegram/BackButtonSync.tsx), so nothing is drawn there.
import { Link, type LinkComponentProps } from '@tanstack/react-router';
import { inTelegram } from '@/telegram/launch';
import { ChevronLeftIcon } from './icons';

/** `params` fills the target's path parameters (`$funnelId`), as on any Link. */
export function BackLink({ to, params, label }: { to: LinkComponentProps['to']; params?: Record<string, string>; label: string }) {
  if (inTelegram()) return null;
  return (
    <Link to={to} params={params as never} className="back-link">
      <ChevronLeftIcon />
      <span>{label}</span>
    </Link>
  );
}
