import { setStoredUser, type StoredUser } from './user.ts';

/** Keeps the identity fields of a login answer as the stored user. */
export function rememberLogin(u: StoredUser): StoredUser {
  const user: StoredUser = {
    id: u.id,
    username: u.username,
    display_name: u.display_name,
    role: u.role,
    status: u.status,
    group: u.group,
  };
  setStoredUser(user);
  return user;
}
