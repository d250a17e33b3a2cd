import type { inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from '../../../server/trpc/router.ts';

type Outputs = inferRouterOutputs<AppRouter>;
export type LogPage = Outputs['logs']['list'];
export type LogItem = LogPage['items'][number];
export type LogStat = Outputs['logs']['stat'];
