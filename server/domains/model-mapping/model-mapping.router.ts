import { modelMappingInput } from '../../../shared/schemas/model-mapping.ts';
import { adminProcedure, router } from '../../trpc/trpc.ts';

export const modelMappingRouter = router({
  get: adminProcedure.query(({ ctx }) => ctx.services.modelMapping.get()),
  update: adminProcedure
    .input(modelMappingInput)
    .mutation(({ ctx, input }) => ctx.services.modelMapping.update(input.mapping)),
  reload: adminProcedure.mutation(({ ctx }) => ctx.services.modelMapping.reload()),
});
