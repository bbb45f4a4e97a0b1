// Every SPA path (spec §2; all end with a slash) and the paths e-mails link to.
export const ROUTES = {
  root: '/',
  panel: '/content/panel/',
  dashboard: '/content/dashboard/',
  funnels: '/content/funnels/',
  connectBot: '/content/funnels/new/',
  archive: '/content/archive/',
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
} as const;

/** Link in the activation e-mail: {PUBLIC_URL}/activate/{uid}/{token}/ */
export const activationPath = (uid: string, token: string) => `/activate/${uid}/${token}/`;
/** Link in the password-reset e-mail: {PUBLIC_URL}/reset-pass/{uid}/{token} (no trailing slash, as the spec shows). */
export const resetPasswordPath = (uid: string, token: string) => `/reset-pass/${uid}/${token}`;
