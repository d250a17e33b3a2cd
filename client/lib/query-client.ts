import { MutationCache, type Query, QueryCache, QueryClient } from '@tanstack/react-query';
import { showError } from './errors.ts';
import { isUnauthorized, onSessionError as onError } from './session-expiry.ts';

export { isUnauthorized };

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
