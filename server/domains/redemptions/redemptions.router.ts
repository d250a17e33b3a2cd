import {
  batchDisableInput,
  createRedemptionInput,
  redemptionIdInput,
  redemptionListInput,
  redemptionNameInput,
  redemptionStatusInput,
  updateRedemptionInput,
} from '../../../shared/schemas/redemptions.ts';
import { adminProcedure, router } from '../../trpc/trpc.ts';

/** The console's redemption-code admin screen. */
export const redemptionsRouter = router({
  list: adminProcedure
    .input(redemptionListInput)
    .query(({ ctx, input }) => ctx.services.redemptions.list(input.keyword, input.page, input.pageSize)),
  get: adminProcedure.input(redemptionIdInput).query(({ ctx, input }) => ctx.services.redemptions.get(input.id)),
  create: adminProcedure
    .input(createRedemptionInput)
    .mutation(({ ctx, input }) => ctx.services.redemptions.create(input)),
  update: adminProcedure
    .input(updateRedemptionInput)
    .mutation(({ ctx, input }) => ctx.services.redemptions.update(input)),
  setStatus: adminProcedure
    .input(redemptionStatusInput)
    .mutation(({ ctx, input }) => ctx.services.redemptions.setStatus(input)),
  remove: adminProcedure
    .input(redemptionIdInput)
    .mutation(({ ctx, input }) => ctx.services.redemptions.remove(input.id)),
  batchDisable: adminProcedure
    .input(batchDisableInput)
    .mutation(({ ctx, input }) => ctx.services.redemptions.batchDisable(input.ids)),
  deleteDisabled: adminProcedure.mutation(({ ctx }) => ctx.services.redemptions.deleteDisabled()),
  countByName: adminProcedure
    .input(redemptionNameInput)
    .query(({ ctx, input }) => ctx.services.redemptions.countByName(input.name)),
  deleteByName: adminProcedure
    .input(redemptionNameInput)
    .mutation(({ ctx, input }) => ctx.services.redemptions.deleteByName(input.name)),
});
