// The product's mark: a funnel.
import { Svg, type IconProps } from './svg';

export const FunnelIcon = (p: IconProps) => (
  <Svg {...p}>
    <path d="M3.5 5h17l-6.5 7.6V19l-4 1.5v-7.9z" />
  </Svg>
);
