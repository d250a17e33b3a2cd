import { z } from 'zod';
import { adminProcedure, router } from '../../trpc/trpc.ts';

/*
 * The settings screen's "clear logs before a date" (REST: DELETE /api/log/?target_timestamp=,
 * owned by the logs domain). Same service call, for the tRPC console.
 */
export const logsCleanupRouter = router({
  deleteBefore: adminProcedure
    .input(z.object({ targetTimestamp: z.number().int().positive('请选择日志时间') }))
    .mutation(async ({ ctx, input }) => ({ deleted: await ctx.services.logs.deleteBefore(input.targetTimestamp) })),
});
