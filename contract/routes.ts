// Every SPA path (spec §2; all end with a slash) and the paths e-mails link to.
import { fillPath } from './paths';

export const ROUTES = {
  root: '/',
  panel: '/content/panel/',
  dashboard: '/content/dashboard/',
  funnels: '/content/funnels/',
  connectBot: '/content/funnels/new/',
  archive: '/content/archive/',
  templates: '/content/templates/',
  contacts: '/content/contacts/',
  folders: '/content/folders/',
  newTemplate: '/content/templates/new/',
  settings: '/settings/',
  language: '/settings/language/',
  subscribe: '/subscribe/',
  subscribeCard: '/sbscrb/',
  cancel: '/cancel/',
  partner: '/partner/',
  partnerDashboard: '/partner/dashboard/',
  partnerTransactions: '/partner/transactions/',
  partnerWithdraw: '/partner/withdraw/',
  partnerStatistics: '/partner/statistics/',
  signIn: '/sign-in/',
  signUp: '/sign-up/',
  lostPass: '/lost-pass/',
  /** The first open from Telegram of an identity no account knows: "I already have an account" or "Start here". */
  telegramWelcome: '/welcome/',
} as const;

/** Links in e-mails, after {PUBLIC_URL}: the activation page, and the password-reset page (no trailing slash, as the spec shows). */
export const EMAIL_LINKS = {
  activation: '/activate/:uid/:token/',
  resetPassword: '/reset-pass/:uid/:token',
} as const;
export const activationPath = (uid: string, token: string) => fillPath(EMAIL_LINKS.activation, { uid, token });
export const resetPasswordPath = (uid: string, token: string) => fillPath(EMAIL_LINKS.resetPassword, { uid, token });
