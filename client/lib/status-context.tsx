import { createContext, type ReactNode, useContext, useEffect } from 'react';
import { trpc } from '../trpc.ts';
import { setQuotaDisplay } from './format.ts';
import { cachedStatus, cacheStatus, type Status } from './status.ts';

const StatusContext = createContext<Status | null>(null);

function setFavicon(href: string) {
  const link = document.querySelector<HTMLLinkElement>('link[rel="icon"]');
  if (link) link.href = href;
}

export interface StatusState {
  status: Status | null;
  loading: boolean;
  error: unknown;
}

/** Loads the status object at start; a cached copy renders at once and is replaced by the fresh one. */
export function useStatusQuery(): StatusState {
  // A failure shows the fixed 'unable to connect' page (console spec §8), or runs on the cached copy.
  const query = trpc.status.get.useQuery(undefined, { staleTime: 60_000, meta: { ownErrorDisplay: true } });
  useEffect(() => {
    if (!query.data) return;
    cacheStatus(query.data);
    if (query.data.system_name) document.title = query.data.system_name;
    if (query.data.logo) setFavicon(query.data.logo);
  }, [query.data]);
  const status = query.data ?? (query.isError ? cachedStatus() : null);
  // Amounts render with these settings from the first page render on (the cached keys are written after it).
  if (status) setQuotaDisplay(status);
  return { status, loading: query.isLoading, error: query.error };
}

export function StatusProvider({ status, children }: { status: Status; children: ReactNode }) {
  return <StatusContext.Provider value={status}>{children}</StatusContext.Provider>;
}

/** The status object; only used below the app root, which renders after it has loaded. */
export function useStatus(): Status {
  const status = useContext(StatusContext);
  if (!status) throw new Error('useStatus outside StatusProvider');
  return status;
}
