import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { TRPCClientError } from '@trpc/client';
import { currentLocation, loginUrl, navigateTo } from './navigation.ts';
import { getStoredUser, markSessionExpired, setStoredUser } from './user.ts';

export function isUnauthorized(error: unknown): boolean {
  return error instanceof TRPCClientError && (error.data as { code?: string } | undefined)?.code === 'UNAUTHORIZED';
}

/**
 * The session rule (accounts spec §4, §8): any UNAUTHORIZED answer while a user is stored
 * clears that user and sends the browser to the login page, remembering where it was.
 */
function onError(error: unknown) {
  if (!isUnauthorized(error) || !getStoredUser()) return;
  const here = currentLocation();
  // Guarded pages redirect by themselves once the user is gone; the flag makes that the "expired" login.
  markSessionExpired();
  setStoredUser(null);
  if (!window.location.pathname.startsWith('/login')) void navigateTo(loginUrl(here, true), { replace: true });
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache({ onError }),
    mutationCache: new MutationCache({ onError }),
    defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false } },
  });
}
