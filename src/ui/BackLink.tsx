// The in-page back control of inner screens. Inside Telegram the native back button does this
// job (telegram/BackButtonSync.tsx), so nothing is drawn there.
import { Link, type LinkComponentProps } from '@tanstack/react-router';
import { inTelegram } from '@/telegram/launch';
import { ChevronLeftIcon } from './icons';

export function BackLink({ to, label }: { to: LinkComponentProps['to']; label: string }) {
  if (inTelegram()) return null;
  return (
    <Link to={to} className="back-link">
      <ChevronLeftIcon />
      <span>{label}</span>
    </Link>
  );
}
