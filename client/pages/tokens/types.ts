import type { inferRouterOutputs } from '@trpc/server';
import { TokenStatus } from '../../../shared/constants.ts';
import type { AppRouter } from '../../../server/trpc/router.ts';

export type TokenRow = inferRouterOutputs<AppRouter>['tokens']['list']['items'][number];

/** Keys are stored without the prefix; the console always shows and copies them with `sk-`. */
export const fullKey = (key: string) => `sk-${key}`;

/** sk-abcd…wxyz: enough to tell keys apart without showing them. */
export const maskedKey = (key: string) => (key.length > 8 ? `sk-${key.slice(0, 4)}…${key.slice(-4)}` : `sk-${key}`);

/** Non-enabled rows are greyed (console-screens §4). */
export const isInactive = (t: Pick<TokenRow, 'status'>) => t.status !== TokenStatus.Enabled;
