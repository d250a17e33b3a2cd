import { optionRegistry } from '../../../shared/options.ts';
import { rootProcedure, router } from '../../trpc/trpc.ts';
import { fetchOidcConfig, oidcDiscoveryInput } from './oidc-discovery.client.ts';
import { updateOptionInput } from './options.rest.ts';

export const optionsRouter = router({
  list: rootProcedure.query(({ ctx }) => ctx.services.options.list()),
  update: rootProcedure
    .input(updateOptionInput)
    .mutation(({ ctx, input }) => ctx.services.options.update(input.key, input.value)),
  resetModelRatio: rootProcedure.mutation(({ ctx }) =>
    ctx.services.options.update('ModelRatio', optionRegistry.ModelRatio.default),
  ),
  fetchOidcConfig: rootProcedure.input(oidcDiscoveryInput).mutation(({ input }) => fetchOidcConfig(input.wellKnown)),
  /** The update check (operation settings): the feed's newest release against the running version. */
  checkUpdate: rootProcedure.mutation(({ ctx }) => ctx.services.updates.check()),
});
