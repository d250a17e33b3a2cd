import { idInput, idsInput } from '../../../shared/schemas/common.ts';
import {
  createTokenInput,
  listTokensInput,
  stripKeyDecoration,
  tokenStatusInput,
  updateTokenInput,
} from '../../../shared/schemas/tokens.ts';
import { router, userProcedure } from '../../trpc/trpc.ts';

/* The console's token API: the caller's own tokens only. */
export const tokensRouter = router({
  list: userProcedure.input(listTokensInput).query(({ ctx, input }) =>
    ctx.services.tokens.listPage(ctx.user, input.page, input.pageSize, {
      keyword: input.keyword,
      key: input.key ? stripKeyDecoration(input.key) : undefined,
    }),
  ),
  get: userProcedure.input(idInput).query(({ ctx, input }) => ctx.services.tokens.get(ctx.user, input.id)),
  /** Answers the new keys with `sk-` so the console can offer copying them at once. */
  create: userProcedure.input(createTokenInput).mutation(async ({ ctx, input }) => ({
    keys: (await ctx.services.tokens.create(ctx.user, input)).map((k) => `sk-${k}`),
  })),
  update: userProcedure
    .input(updateTokenInput)
    .mutation(({ ctx, input }) => ctx.services.tokens.update(ctx.user, input)),
  setStatus: userProcedure
    .input(tokenStatusInput)
    .mutation(({ ctx, input }) => ctx.services.tokens.setStatus(ctx.user, input)),
  remove: userProcedure.input(idInput).mutation(({ ctx, input }) => ctx.services.tokens.remove(ctx.user, input.id)),
  removeMany: userProcedure
    .input(idsInput)
    .mutation(({ ctx, input }) => ctx.services.tokens.removeMany(ctx.user, input.ids)),
});
