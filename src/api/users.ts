// The auth calls of spec §7, Djoser's shapes (contract/auth.ts).
import {
  API,
  type ActivationBody,
  type CredentialsBody,
  type TelegramLinkBody,
  type TelegramIdentityBody,
  type CurrentUser,
  type EmailBody,
  type LoginBody,
  type LoginResponse,
  type RegisterBody,
  type ResetConfirmBody,
  type SetPasswordBody,
  type UpdateMeBody,
} from '../../contract/auth';
import { authorizationHeader } from './authHeader';
import { apiPath, authClient, publicClient } from './clients';
import { landingData } from './landingData';

/** The answer main.tsx asked for at boot when there is one (landingData.ts), else a new request. */
export function fetchMe(): Promise<Partial<CurrentUser> | null> {
  return landingData(API.me, () => authClient.get(apiPath(API.me)).json<Partial<CurrentUser> | null>());
}

export function updateMe(body: UpdateMeBody): Promise<CurrentUser> {
  return authClient.patch(apiPath(API.me), { json: body }).json<CurrentUser>();
}

export async function login(body: LoginBody): Promise<LoginResponse> {
  return publicClient.post(apiPath(API.login), { json: body }).json<LoginResponse>();
}

export async function logout(): Promise<void> {
  await authClient.post(apiPath(API.logout));
}

export async function register(body: RegisterBody): Promise<void> {
  await publicClient.post(apiPath(API.register), { json: body });
}

export async function activate(body: ActivationBody): Promise<void> {
  await publicClient.post(apiPath(API.activation), { json: body });
}

export async function resendActivation(body: EmailBody): Promise<void> {
  await authClient.post(apiPath(API.resendActivation), { json: body });
}

export async function requestPasswordReset(body: EmailBody): Promise<void> {
  await publicClient.post(apiPath(API.resetPassword), { json: body });
}

export async function confirmPasswordReset(body: ResetConfirmBody): Promise<void> {
  await publicClient.post(apiPath(API.resetPasswordConfirm), { json: body });
}

export async function setPassword(body: SetPasswordBody): Promise<void> {
  await authClient.post(apiPath(API.setPassword), { json: body });
}

/** Inside the Mini App: this Telegram identity opens the e-mail account from now on. */
export function linkTelegram(body: TelegramLinkBody): Promise<CurrentUser> {
  return authClient.post(apiPath(API.telegramLink), { json: body }).json<CurrentUser>();
}

/** "Start here" on the first open from Telegram: an account for the identity the init data proves. */
export function startWithTelegram(body: TelegramIdentityBody): Promise<CurrentUser> {
  return publicClient.post(apiPath(API.telegramStart), { json: body }).json<CurrentUser>();
}

/**
 * "I already have an account": the identity the init data proves opens the account just signed in
 * to. Its fresh token goes with the call (the session has not switched to it yet).
 */
export function attachTelegram(token: string, body: TelegramIdentityBody): Promise<CurrentUser> {
  return publicClient.post(apiPath(API.telegramAttach), { json: body, headers: { Authorization: authorizationHeader({ token, initData: null }) ?? '' } }).json<CurrentUser>();
}

/** Ends the session of a token the app has not kept (an attach that was refused). */
export async function logoutToken(token: string): Promise<void> {
  await publicClient.post(apiPath(API.logout), { headers: { Authorization: authorizationHeader({ token, initData: null }) ?? '' } });
}

export function unlinkTelegram(): Promise<CurrentUser> {
  return authClient.delete(apiPath(API.telegramLink)).json<CurrentUser>();
}

export function addCredentials(body: CredentialsBody): Promise<CurrentUser> {
  return authClient.post(apiPath(API.credentials), { json: body }).json<CurrentUser>();
}

export async function checkResetLink(body: ActivationBody): Promise<void> {
  await publicClient.post(apiPath(API.resetPasswordCheck), { json: body });
}
