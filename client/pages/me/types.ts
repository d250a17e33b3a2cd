import type { inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from '../../../server/trpc/router.ts';

export type SelfUser = inferRouterOutputs<AppRouter>['users']['self'];
