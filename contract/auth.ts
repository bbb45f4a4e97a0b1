// The Djoser-compatible auth API, shared by the SPA and the server: its paths and error bodies.
// The request and response shapes are TypeBox schemas in ./schemas/auth.ts; their types are
// re-exported here (types only: the SPA never bundles TypeBox).
export type {
  ActivationBody,
  CredentialsBody,
  TelegramLinkBody,
  TelegramIdentityBody,
  ByIdQuery,
  ByIdsQuery,
  CurrentUser,
  EmailBody,
  LoginBody,
  LoginResponse,
  PublicUser,
  RegisterBody,
  RegisterResponse,
  ResetConfirmBody,
  Role,
  SetPasswordBody,
  UpdateMeBody,
} from './schemas/auth';

/** Djoser's error bodies: per-field lists, non_field_errors, or a single detail. */
export type FieldErrors = Record<string, string[]>;
export interface DetailError { detail: string }
export type ApiError = FieldErrors | DetailError;

/**
 * The one coded answer of the auth API: init data that is genuine, of an identity no account
 * knows yet (401). The Mini App then offers "I already have an account" or "Start here".
 */
export const TELEGRAM_UNKNOWN_CODE = 'telegram_unknown';

/** API paths (spec §7): the server's routes and the clients' calls (none takes a parameter). */
export const API = {
  me: '/api/users/me/',
  byId: '/api/users/by_id/',
  byIds: '/api/users/by_ids/',
  activation: '/api/users/activation/',
  resendActivation: '/api/users/resend_activation/',
  register: '/api/users/',
  resetPassword: '/api/users/reset_password/',
  resetPasswordConfirm: '/api/users/reset_password_confirm/',
  setPassword: '/api/users/set_password/',
  /** Checks a password-reset link before its form is shown (204, or the link's problem). */
  resetPasswordCheck: '/api/users/reset_password_check/',
  /** POST (Telegram init data): move this Telegram identity to the e-mail account; DELETE: unlink it. */
  telegramLink: '/api/users/me/telegram/',
  credentials: '/api/users/me/credentials/',
  /** POST { init_data } without a session: "Start here", an account for a Telegram identity no account knows (201). */
  telegramStart: '/api/users/telegram/',
  /** POST { init_data } with the e-mail account's token: "I already have an account", the identity opens it from now on. */
  telegramAttach: '/api/users/me/telegram_identity/',
  login: '/api/token/login/',
  logout: '/api/token/logout/',
} as const;
