// The account service's failures in Djoser's words (the auth API keeps Djoser's bodies, without
// codes): http/errors.ts turns each AccountError reason into its status and body with these.

export const ACCOUNT_ERRORS = {
  emailTaken: 'user with this email already exists.',
  passwordMismatch: "The two password fields didn't match.",
  invalidCredentials: 'Unable to log in with provided credentials.',
  invalidUid: "Invalid user id or user doesn't exist.",
  invalidToken: 'Invalid token for given user.',
  staleToken: 'Stale token for given user.',
  invalidPassword: 'Invalid password.',
  inactiveAccount: 'This account is not activated yet. Open the letter we sent to your e-mail, or send it again.',
  telegramTaken: 'This Telegram account already has an account of its own, with funnels or an e-mail. Sign in to that one instead.',
  otherTelegram: 'This account is linked to another Telegram account. Unlink it in Settings first.',
  lastSignIn: 'Add an e-mail and a password first: without Telegram there would be no way to sign in.',
  hasEmail: 'This account has an e-mail already.',
  userGone: 'User inactive or deleted.',
  telegramKnown: 'This Telegram account is already linked to an account. Open the app from Telegram to sign in to it.',
  invalidInitData: 'Invalid or expired Telegram init data. Open the app from Telegram again.',
  telegramUnknown: 'This Telegram account is not linked to an account yet.',
  telegramOnly: 'Open the app from Telegram to link your Telegram account.',
} as const;
