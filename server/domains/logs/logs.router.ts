import { isAdmin } from '../../../shared/constants.ts';
import {
  dashboardRatesInput,
  logFilterInput,
  logListInput,
  quotaDataInput,
  userInfoInput,
} from '../../../shared/schemas/logs.ts';
import { adminProcedure, router, userProcedure } from '../../trpc/trpc.ts';

/*
 * The console's log and dashboard calls. One procedure per screen: admins get the
 * all-users view, everyone else their own (admin-only filters are then ignored).
 */

export const logsRouter = router({
  list: userProcedure
    .input(logListInput)
    .query(({ ctx, input }) =>
      isAdmin(ctx.user.role) ? ctx.services.logs.listAll(input) : ctx.services.logs.listSelf(ctx.user.id, input),
    ),
  stat: userProcedure
    .input(logFilterInput)
    .query(({ ctx, input }) =>
      isAdmin(ctx.user.role) ? ctx.services.logs.statAll(input) : ctx.services.logs.statSelf(ctx.user.id, input),
    ),
  userInfo: adminProcedure
    .input(userInfoInput)
    .query(({ ctx, input }) => ctx.services.logs.userInfo(ctx.user, input.id)),
});

export const dashboardRouter = router({
  data: userProcedure
    .input(quotaDataInput)
    .query(({ ctx, input }) =>
      isAdmin(ctx.user.role)
        ? ctx.services.logs.quotaDataAll(input)
        : ctx.services.logs.quotaDataSelf(ctx.user.id, input),
    ),
  /** RPM and TPM over the last minute, computed as the usage log's stat computes them. */
  rates: userProcedure
    .input(dashboardRatesInput)
    .query(({ ctx, input }) =>
      isAdmin(ctx.user.role) ? ctx.services.logs.ratesAll(input.username) : ctx.services.logs.ratesSelf(ctx.user.id),
    ),
  /** Requests and errors per model and per channel (issue 28), every user's. */
  errors: adminProcedure.input(quotaDataInput).query(({ ctx, input }) => ctx.services.logs.errorRates(input)),
  /** Prompt tokens and cache-read tokens per model and per channel (issue 29), every user's. */
  promptCache: adminProcedure.input(quotaDataInput).query(({ ctx, input }) => ctx.services.logs.promptCache(input)),
});
