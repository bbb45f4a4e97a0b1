import type { PartnerLink } from '../../../contract/partner';

/** A link's name: its label, or the app's name for the default link. */
export function linkTitle(link: Pick<PartnerLink, 'label' | 'is_default'>, defaultTitle: string): string {
  return link.is_default || !link.label ? defaultTitle : link.label;
}
