import type { createTRPCQueryUtils } from '@trpc/react-query';
import { matchPath } from 'react-router-dom';
import type { AppRouter } from '../server/trpc/router.ts';
import { getStoredUser, type StoredUser, userIsAdmin, userIsRoot } from './lib/user.ts';
import { type Guard, routeTable } from './routes.tsx';

export type QueryUtils = ReturnType<typeof createTRPCQueryUtils<AppRouter>>;
/** Puts a page's first query into the query cache (the page then finds it there, or in flight). */
export type FirstQuery = (utils: QueryUtils) => Promise<void>;

const admits = (guard: Guard, user: StoredUser | null) =>
  guard === 'public' ||
  (user !== null && (guard === 'user' || (guard === 'admin' ? userIsAdmin(user) : userIsRoot(user))));

/*
 * A cold start does three slow things one after another if left alone: load the console's code, render, and
 * only then let the opened page load its own code, which then asks for its data (issue 45: the channel list
 * asked for its rows 2.3 s after navigation). Called by main.tsx before React renders, this starts them
 * together: the status object, the opened page's code and, when the stored user may open it, the page's first
 * list (one batched request with the status). Nothing waits here; the page finds its query in the cache.
 */
export function startFirstScreen(utils: QueryUtils): void {
  void utils.status.get.prefetch(undefined, { staleTime: 60_000 });
  const route = routeTable.find((r) => matchPath(r.path, window.location.pathname));
  if (!route) return;
  void route.load();
  if (route.firstQuery && route.guard !== 'public' && admits(route.guard, getStoredUser()))
    void route.firstQuery(utils);
}
