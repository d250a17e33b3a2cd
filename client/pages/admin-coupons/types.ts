import type { inferRouterOutputs } from '@trpc/server';
import { RedemptionStatus } from '../../../shared/constants.ts';
import type { AppRouter } from '../../../server/trpc/router.ts';

export type Redemption = inferRouterOutputs<AppRouter>['redemptions']['list']['items'][number];

/** A gift code that reached max_uses still says "unused" on the server; the list greys it like a used one. */
export const giftExhausted = (r: Redemption) => r.is_gift && r.max_uses !== -1 && r.used_count >= r.max_uses;

export const isInactive = (r: Redemption) => r.status !== RedemptionStatus.Unused || giftExhausted(r);
