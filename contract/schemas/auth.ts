// Every shape of the Djoser-compatible auth API, written once: the server validates requests and
// serializes answers with these schemas (nothing unlisted, such as a password hash, can leak
// out), and both sides take their types from them. The SPA imports the types only, through
// contract/auth.ts.
import { Type, type Static } from 'typebox';
import { EMAIL_MAX_LENGTH, LANGUAGES, NAME_MAX_LENGTH, PASSWORD_MAX_LENGTH } from '../constants';
import { Email as EmailAddress, INVALID_MESSAGE_KEYWORD, Nullable, PatternText, type StringFormat, StringEnum, Text } from './common';

export const ROLES = ['user', 'admin'] as const;
/** Most ids one by_ids call may ask for. */
export const MAX_IDS_PER_REQUEST = 100;

const Email = () => EmailAddress(EMAIL_MAX_LENGTH);
const Password = () => Text(PASSWORD_MAX_LENGTH, 1);
const Name = () => Text(NAME_MAX_LENGTH);
const Language = () => StringEnum(LANGUAGES);
/** uid and token come from e-mail links; anything longer is not one of ours. */
const Uid = () => Text(64, 1);
const LinkToken = () => Text(128, 1);
/** A user id in a query string. */
const USER_ID_PATTERN = '^[0-9]{1,10}$';
const NOT_AN_INTEGER = 'A valid integer is required.';
const UserIdParam = () => PatternText(USER_ID_PATTERN, NOT_AN_INTEGER);

// --- users ---------------------------------------------------------------------------------------
/** What GET /api/users/me/ returns (the user themself). */
export const CurrentUserSchema = Type.Object({
  id: Type.Integer(),
  email: Nullable(Text()),
  first_name: Text(),
  last_name: Text(),
  language: Language(),
  role: StringEnum(ROLES),
  is_active: Type.Boolean(),
  telegram_id: Nullable(Type.Integer()),
  telegram_username: Nullable(Text()),
  telegram_photo_url: Nullable(Text()),
  date_joined: Text(),
});
export type CurrentUser = Static<typeof CurrentUserSchema>;
export type Role = CurrentUser['role'];

/** What by_id / by_ids return: e-mail only to the user themself or an admin. */
export const PublicUserSchema = Type.Object({
  id: Type.Integer(),
  first_name: Text(),
  last_name: Text(),
  telegram_username: Nullable(Text()),
  telegram_photo_url: Nullable(Text()),
  email: Type.Optional(Nullable(Text())),
});
export type PublicUser = Static<typeof PublicUserSchema>;

export const UpdateMeBodySchema = Type.Object({
  first_name: Type.Optional(Name()),
  last_name: Type.Optional(Name()),
  language: Type.Optional(Language()),
});
export type UpdateMeBody = Static<typeof UpdateMeBodySchema>;

export const ByIdQuerySchema = Type.Object({ id: UserIdParam() });
export type ByIdQuery = Static<typeof ByIdQuerySchema>;

/** ?id[]=1&id[]=2 (one value arrives as a string, several as a list). */
export const ByIdsQuerySchema = Type.Object({
  'id[]': Type.Unsafe<string | string[]>({
    type: ['string', 'array'],
    format: 'text' satisfies StringFormat,
    pattern: USER_ID_PATTERN,
    items: UserIdParam(),
    minItems: 1,
    maxItems: MAX_IDS_PER_REQUEST,
    [INVALID_MESSAGE_KEYWORD]: NOT_AN_INTEGER,
  }),
});
export type ByIdsQuery = Static<typeof ByIdsQuerySchema>;

// --- registration and activation -----------------------------------------------------------------
export const RegisterBodySchema = Type.Object({
  email: Email(),
  password: Password(),
  re_password: Password(),
  first_name: Type.Optional(Name()),
  last_name: Type.Optional(Name()),
  /** Language of the new account and its e-mails; the server otherwise uses the language cookie, then Accept-Language. */
  language: Type.Optional(Language()),
});
export type RegisterBody = Static<typeof RegisterBodySchema>;

export const RegisterResponseSchema = Type.Object({
  id: Type.Integer(),
  email: Text(),
  first_name: Text(),
  last_name: Text(),
});
export type RegisterResponse = Static<typeof RegisterResponseSchema>;

export const ActivationBodySchema = Type.Object({ uid: Uid(), token: LinkToken() });
export type ActivationBody = Static<typeof ActivationBodySchema>;

export const EmailBodySchema = Type.Object({ email: Email() });
export type EmailBody = Static<typeof EmailBodySchema>;

// --- token login ---------------------------------------------------------------------------------
/** Djoser treats both as optional and answers a missing one as bad credentials. */
export const LoginBodySchema = Type.Object({
  email: Type.Optional(Text(EMAIL_MAX_LENGTH)),
  password: Type.Optional(Text(PASSWORD_MAX_LENGTH)),
});
export type LoginBody = Static<typeof LoginBodySchema>;

export const LoginResponseSchema = Type.Object({ auth_token: Text() });
export type LoginResponse = Static<typeof LoginResponseSchema>;

/** Calls that take no fields (logout): any JSON object. */
export const EmptyBodySchema = Type.Object({});

// --- passwords -----------------------------------------------------------------------------------
export const ResetConfirmBodySchema = Type.Object({
  uid: Uid(),
  token: LinkToken(),
  new_password: Password(),
  re_new_password: Password(),
});
export type ResetConfirmBody = Static<typeof ResetConfirmBodySchema>;

/** Inside the Mini App: the e-mail account this Telegram identity should open from now on. */
export const TelegramLinkBodySchema = Type.Object({ email: Email(), password: Password() });
export type TelegramLinkBody = Static<typeof TelegramLinkBodySchema>;

/**
 * A first open from Telegram: the Mini App's signed init data (re-verified on this call, within
 * its validity window) proves the identity that "Start here" makes an account for, or that
 * "I already have an account" attaches to the account signed in with e-mail and password.
 */
export const TelegramIdentityBodySchema = Type.Object({ init_data: Text(8192, 1) });
export type TelegramIdentityBody = Static<typeof TelegramIdentityBodySchema>;

/** A Telegram-first account adds an e-mail and a password (to sign in from a browser too). */
export const CredentialsBodySchema = Type.Object({ email: Email(), password: Password(), re_password: Password() });
export type CredentialsBody = Static<typeof CredentialsBodySchema>;

export const SetPasswordBodySchema = Type.Object({
  current_password: Password(),
  new_password: Password(),
  re_new_password: Password(),
});
export type SetPasswordBody = Static<typeof SetPasswordBodySchema>;
