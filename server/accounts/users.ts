// How a user row is shown to API clients.
import type { CurrentUser, PublicUser } from '../../contract/auth';
import type { UserRow } from '../db/schema';

export function toCurrentUser(user: UserRow): CurrentUser {
  return {
    id: user.id,
    email: user.email,
    first_name: user.firstName,
    last_name: user.lastName,
    language: user.language,
    role: user.role,
    is_active: user.isActive,
    telegram_id: user.telegramId,
    telegram_username: user.telegramUsername,
    telegram_photo_url: user.telegramPhotoUrl,
    date_joined: user.dateJoined.toISOString(),
  };
}

/** A profile as another user sees it: the e-mail only for the user themself or an admin. */
export function toPublicUser(user: UserRow, viewer: UserRow): PublicUser {
  const profile: PublicUser = {
    id: user.id,
    first_name: user.firstName,
    last_name: user.lastName,
    telegram_username: user.telegramUsername,
    telegram_photo_url: user.telegramPhotoUrl,
  };
  if (viewer.id === user.id || viewer.role === 'admin') profile.email = user.email;
  return profile;
}

/** E-mails are compared and stored lowercased (the whole address, for a simple unique index). */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}
