import type { inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from '../../../server/trpc/router.ts';

export type DrawingRow = inferRouterOutputs<AppRouter>['tasks']['drawings'][number];
