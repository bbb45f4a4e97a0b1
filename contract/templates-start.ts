// The one part of ./templates.ts the app's first paint needs (src/telegram/launch.ts reads the
// start parameter at boot): alone here, so the templates' paths and limits stay out of it.

/** `?startapp=` inside Telegram opens a template's preview: tpl_<id>. */
export const TEMPLATE_START_PREFIX = 'tpl_';

/**
 * A shared template link carries its publisher's partner uid after its own part:
 * tpl_<id>_ref_<uid> (the same `ref_` as contract/partner.ts's PARTNER_START_PREFIX; the server
 * attributes the sign-up it brings, server/partner's refFromStartParam).
 */
export const TEMPLATE_START_REF_SUFFIX = '(?:_ref_[A-Za-z0-9]{4,32})?';

/** A template's startapp parameter, with the partner uid of whoever shares it when given. */
export const templateStartParam = (templateId: number, partnerUid?: string | null) =>
  `${TEMPLATE_START_PREFIX}${templateId}${partnerUid ? `_ref_${partnerUid}` : ''}`;
