import type { inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from '../../../server/trpc/router.ts';

/** The import's status as the server answers it (the running or last import, the uploaded file). */
export type ImportStatus = inferRouterOutputs<AppRouter>['importer']['status'];
export type ImportJob = NonNullable<ImportStatus['job']>;
export type ImportReport = NonNullable<ImportJob['report']>;
