import { TRPCClientError } from '@trpc/client';
import { currentLocation, loginUrl, navigateTo } from './navigation.ts';
import { getStoredUser, markSessionExpired, setStoredUser } from './user.ts';

/** A tRPC UNAUTHORIZED answer (the REST calls check the HTTP 401 themselves). */
export function isUnauthorized(error: unknown): boolean {
  return error instanceof TRPCClientError && (error.data as { code?: string } | undefined)?.code === 'UNAUTHORIZED';
}

/**
 * The session rule (accounts spec §4, §8): a 401 while a user is stored clears that user and
 * sends the browser to the login page, remembering where it was. Without a stored user (the
 * login and register pages, a visitor) a 401 is only the call's own failure.
 */
export function expireSession(): void {
  if (!getStoredUser()) return;
  const here = currentLocation();
  // Guarded pages redirect by themselves once the user is gone; the flag makes that the "expired" login.
  markSessionExpired();
  setStoredUser(null);
  if (!window.location.pathname.startsWith('/login')) void navigateTo(loginUrl(here, true), { replace: true });
}

/** The query and mutation caches' error hook: applies the session rule to UNAUTHORIZED answers. */
export function onSessionError(error: unknown): void {
  if (isUnauthorized(error)) expireSession();
}
