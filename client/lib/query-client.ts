import { MutationCache, type Query, QueryCache, QueryClient } from '@tanstack/react-query';
import { TRPCClientError } from '@trpc/client';
import { showError } from './errors.ts';
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

declare module '@tanstack/react-query' {
  interface Register {
    /** `ownErrorDisplay`: the page shows this query's failure itself (its own toast or fixed message). */
    queryMeta: { ownErrorDisplay?: boolean };
  }
}

/**
 * Console spec §8: any failed call shows the server's message in an error toast. Mutations
 * show theirs where they are made (with their own wording); a failed load lands here. One
 * toast per message: a list refetching the same failure does not stack them.
 */
function onQueryError(error: unknown, query: Query<unknown, unknown, unknown>) {
  onError(error);
  if (isUnauthorized(error) || query.meta?.ownErrorDisplay) return;
  showError(error);
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache({ onError: onQueryError }),
    mutationCache: new MutationCache({ onError }),
    defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false } },
  });
}
