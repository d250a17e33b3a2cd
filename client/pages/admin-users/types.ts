import type { inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from '../../../server/trpc/router.ts';

export type UserRow = inferRouterOutputs<AppRouter>['users']['list']['items'][number];

/** Soft-deleted users show as deactivated and lose their row actions. */
export const isDeactivated = (u: Pick<UserRow, 'DeletedAt' | 'status'>) => u.DeletedAt !== null || u.status === 3;
