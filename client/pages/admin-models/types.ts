import type { inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from '../../../server/trpc/router.ts';

type Out = inferRouterOutputs<AppRouter>;
export type ModelMeta = Out['modelMeta']['list']['items'][number];
export type Vendor = Out['vendors']['list'][number];
