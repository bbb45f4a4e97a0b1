// Icons of the top notice and of status screens; kept apart from icons.tsx so that the
// always-loaded shell does not pull in every icon.
import { Svg, type IconProps } from './svg';

export const CheckCircleIcon = (p: IconProps) => (
  <Svg {...p}>
    <circle cx="12" cy="12" r="9.5" />
    <path d="M7.8 12.3l2.9 2.9 5.5-5.7" />
  </Svg>
);
export const AlertIcon = (p: IconProps) => (
  <Svg {...p}>
    <circle cx="12" cy="12" r="9.5" />
    <path d="M12 7.5v5.5M12 16.4v.1" />
  </Svg>
);
export const InfoIcon = (p: IconProps) => (
  <Svg {...p}>
    <circle cx="12" cy="12" r="9.5" />
    <path d="M12 11v5.5M12 7.6v.1" />
  </Svg>
);
