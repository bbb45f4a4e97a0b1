// The one part of ./templates.ts the app's first paint needs (src/telegram/launch.ts reads the
// start parameter at boot): alone here, so the templates' paths and limits stay out of it.

/** `?startapp=` inside Telegram opens a template's preview: tpl_<id>. */
export const TEMPLATE_START_PREFIX = 'tpl_';
