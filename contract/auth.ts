// Shapes of the Djoser-compatible auth API, shared by the SPA and the server.
import type { Language } from './constants';

export type Role = 'user' | 'admin';

/** What GET /api/users/me/ returns (the user themself). */
export interface CurrentUser {
  id: number;
  email: string | null;
  first_name: string;
  last_name: string;
  language: Language;
  role: Role;
  is_active: boolean;
  telegram_id: number | null;
  telegram_username: string | null;
  telegram_photo_url: string | null;
  date_joined: string;
}

/** What by_id / by_ids return: e-mail only to the user themself or an admin. */
export type PublicUser = Pick<
  CurrentUser,
  'id' | 'first_name' | 'last_name' | 'telegram_username' | 'telegram_photo_url'
> & { email?: string | null };

export interface RegisterBody {
  email: string;
  password: string;
  re_password: string;
  first_name: string;
  last_name: string;
  /** Optional: language of the new account and its e-mails; the server otherwise uses the language cookie, then Accept-Language. */
  language?: Language;
}
export interface LoginBody { email: string; password: string }
export interface LoginResponse { auth_token: string }
export interface ActivationBody { uid: string; token: string }
export interface EmailBody { email: string }
export interface ResetConfirmBody { uid: string; token: string; new_password: string; re_new_password: string }
export interface SetPasswordBody { current_password: string; new_password: string; re_new_password: string }
export type UpdateMeBody = Partial<Pick<CurrentUser, 'first_name' | 'last_name' | 'language'>>;

/** Djoser's error bodies: per-field lists, non_field_errors, or a single detail. */
export type FieldErrors = Record<string, string[]>;
export interface DetailError { detail: string }
export type ApiError = FieldErrors | DetailError;

/** API paths (spec §7). */
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
  login: '/api/token/login/',
  logout: '/api/token/logout/',
} as const;
