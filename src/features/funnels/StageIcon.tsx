// The glyphs of contract STAGE_ICONS, in the app's line-icon style, on the stage's colour.
import type { StageIcon as StageIconName } from '../../../contract/funnels';
import { Svg } from '@/ui/svg';

const GLYPHS: Record<StageIconName, React.ReactNode> = {
  flag: <path d="M5 21V4.5M5 4.5h11l-2 4 2 4H5" />,
  gift: (
    <>
      <rect x="3.5" y="8.5" width="17" height="4" rx="1" />
      <path d="M5 12.5V20h14v-7.5M12 8.5V20M12 8.5c-1.5-3.5-5.5-4-5.5-1.5 0 1.5 2.5 1.5 5.5 1.5zM12 8.5c1.5-3.5 5.5-4 5.5-1.5 0 1.5-2.5 1.5-5.5 1.5z" />
    </>
  ),
  star: <path d="M12 3.5l2.6 5.3 5.9.9-4.3 4.1 1 5.8L12 16.9l-5.2 2.7 1-5.8-4.3-4.1 5.9-.9z" />,
  fire: <path d="M12 21c3.9 0 6.5-2.6 6.5-6.2 0-3.4-2.3-5.6-3.6-8.3-.6 2-1.6 3-2.9 3.5C12.5 6.8 11 4.5 8.5 3c.4 3-1.6 5-2.6 6.8-.9 1.5-1.4 3-1.4 4.9C4.5 18.4 8 21 12 21z" />,
  heart: <path d="M12 20s-7.5-4.6-7.5-10.2A4.3 4.3 0 0112 7.2a4.3 4.3 0 017.5 2.6C19.5 15.4 12 20 12 20z" />,
  bolt: <path d="M13 3L5 13.5h6L10 21l8-10.5h-6z" />,
  chat: <path d="M4.5 5.5h15a1 1 0 011 1v10a1 1 0 01-1 1H10l-4.5 3.5v-3.5h-1a1 1 0 01-1-1v-10a1 1 0 011-1z" />,
  cart: (
    <>
      <path d="M3 4h2.5l2.2 10.5h10.6L20.5 7H6.6" />
      <circle cx="9" cy="19" r="1.5" />
      <circle cx="17" cy="19" r="1.5" />
    </>
  ),
  money: (
    <>
      <rect x="2.5" y="6" width="19" height="12" rx="2.5" />
      <circle cx="12" cy="12" r="2.8" />
      <path d="M6 9.5v.1M18 14.5v.1" />
    </>
  ),
  book: <path d="M4.5 5.5A2 2 0 016.5 3.5H19.5V17H6.5a2 2 0 00-2 2zM4.5 19a2 2 0 002 2h13v-4" />,
  video: (
    <>
      <rect x="3" y="6.5" width="13" height="11" rx="2.5" />
      <path d="M16 10.5l5-3v9l-5-3z" />
    </>
  ),
  check: <path d="M5 12.5l4.5 4.5L19 7.5" />,
};

export function StageGlyph({ icon }: { icon: StageIconName }) {
  return <Svg>{GLYPHS[icon] ?? GLYPHS.flag}</Svg>;
}

/** The stage's icon in a rounded square of its colour (as in the lists). */
export function StageBadge({ icon, color, size = 'row' }: { icon: StageIconName; color: string; size?: 'row' | 'large' }) {
  return (
    <span className={`stage-badge stage-badge--${size}`} style={{ background: color }} aria-hidden="true">
      <StageGlyph icon={icon} />
    </span>
  );
}
