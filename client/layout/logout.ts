import { setStoredUser } from '../lib/user.ts';

/** Ends the session on the server (best effort) and forgets the stored user. */
export async function logout(): Promise<void> {
  try {
    await fetch('/api/user/logout', { credentials: 'same-origin' });
  } finally {
    setStoredUser(null);
  }
}
