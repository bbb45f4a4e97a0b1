// Djoser's English messages we know, so that forms can show them in the interface language
// (in English the locale repeats the server's wording).

export type ServerErrorKey =
  | 'invalidCredentials'
  | 'staleToken'
  | 'invalidToken'
  | 'invalidUid'
  | 'sessionExpired'
  | 'passwordsMismatch'
  | 'emailTaken'
  | 'passwordTooShort'
  | 'passwordTooCommon'
  | 'passwordNumeric'
  | 'passwordTooSimilar'
  | 'passwordTooSimilarFirstName'
  | 'passwordTooSimilarLastName'
  | 'throttled'
  | 'required'
  | 'invalidEmail'
  | 'inactiveAccount'
  | 'telegramTaken'
  | 'otherTelegram'
  | 'lastSignIn'
  | 'hasEmail'
  | 'telegramOnly'
  | 'telegramKnown'
  | 'invalidInitData'
  | 'ensureLength';

const KNOWN_SERVER_MESSAGES: Record<string, ServerErrorKey> = {
  'unable to log in with provided credentials.': 'invalidCredentials',
  'stale token for given user.': 'staleToken',
  'invalid token for given user.': 'invalidToken',
  "invalid user id or user doesn't exist.": 'invalidUid',
  'authentication credentials were not provided.': 'sessionExpired',
  'invalid token.': 'sessionExpired',
  "the two password fields didn't match.": 'passwordsMismatch',
  'user with this email already exists.': 'emailTaken',
  'this password is too common.': 'passwordTooCommon',
  'this password is entirely numeric.': 'passwordNumeric',
  'the password is too similar to the email.': 'passwordTooSimilar',
  'the password is too similar to the first name.': 'passwordTooSimilarFirstName',
  'the password is too similar to the last name.': 'passwordTooSimilarLastName',
  'this field is required.': 'required',
  'this field may not be blank.': 'required',
  'enter a valid email address.': 'invalidEmail',
  'this account is not activated yet. open the letter we sent to your e-mail, or send it again.': 'inactiveAccount',
  'this telegram account already has an account of its own, with funnels or an e-mail. sign in to that one instead.': 'telegramTaken',
  'this account is linked to another telegram account. unlink it in settings first.': 'otherTelegram',
  'add an e-mail and a password first: without telegram there would be no way to sign in.': 'lastSignIn',
  'this account has an e-mail already.': 'hasEmail',
  'open the app from telegram to link your telegram account.': 'telegramOnly',
  'this telegram account is already linked to an account. open the app from telegram to sign in to it.': 'telegramKnown',
  'invalid or expired telegram init data. open the app from telegram again.': 'invalidInitData',
};

/** The key under `serverErrors` in the locale files for a known server message, else null. */
export function knownServerMessage(message: string): ServerErrorKey | null {
  const normalized = message.trim().toLowerCase();
  if (normalized.startsWith('this password is too short')) return 'passwordTooShort';
  if (normalized.startsWith('request was throttled')) return 'throttled';
  if (normalized.startsWith('ensure this field has no more than')) return 'ensureLength';
  return KNOWN_SERVER_MESSAGES[normalized] ?? null;
}
