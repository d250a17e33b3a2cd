import { z } from 'zod';
import {
  batchTagInput,
  createChannelInput,
  editTagInput,
  fetchModelsInput,
  keyActions,
  listChannelsInput,
  tagInput,
  updateChannelInput,
} from '../../../shared/schemas/channels.ts';
import { idInput, idsInput } from '../../../shared/schemas/common.ts';
import { addDemoChannel, selfOrigin } from '../../demo/demo-channel.ts';
import { notFound } from '../../errors.ts';
import { adminProcedure, rootProcedure, router, userProcedure } from '../../trpc/trpc.ts';

/* The console's channel API; the same service as /api/channel/*. Keys stay blanked except in revealKey. */
export const channelsRouter = router({
  list: adminProcedure.input(listChannelsInput).query(({ ctx, input }) => ctx.services.channels.consoleList(input)),
  get: adminProcedure.input(idInput).query(({ ctx, input }) => ctx.services.channels.consoleGet(input.id)),
  /**
   * The global switch the form's "Auto-disable on failure" depends on (issue 39): an admin who is not
   * root cannot read the options, yet must see whether the channel's switch does anything.
   */
  autoDisable: adminProcedure.query(({ ctx }) => ({
    enabled: ctx.services.options.get('AutomaticDisableChannelEnabled'),
  })),
  /** The edit form's "show key"; root only, since the key is the upstream account. */
  revealKey: rootProcedure
    .input(idInput)
    .query(async ({ ctx, input }) => ({ key: await ctx.services.channels.revealKey(input.id) })),
  create: adminProcedure
    .input(createChannelInput)
    .mutation(async ({ ctx, input }) => ({ ids: await ctx.services.channels.create(input) })),
  /** DEMO_CHANNEL only: a channel answered by the built-in demo upstream (server/demo). */
  addDemo: adminProcedure.mutation(async ({ ctx }) => {
    if (!ctx.config.demoChannel) throw notFound('demo.disabled');
    return { id: await addDemoChannel(ctx.services.channels, selfOrigin(ctx.req)) };
  }),
  update: adminProcedure.input(updateChannelInput).mutation(({ ctx, input }) => ctx.services.channels.update(input)),
  copy: adminProcedure
    .input(idInput.extend({ suffix: z.string().max(64).default('_复制'), resetBalance: z.boolean().default(true) }))
    .mutation(async ({ ctx, input }) => ({
      id: await ctx.services.channels.copy(input.id, input.suffix, input.resetBalance),
    })),
  setStatus: adminProcedure
    .input(idInput.extend({ status: z.union([z.literal(1), z.literal(2)]) }))
    .mutation(({ ctx, input }) => ctx.services.channels.setStatus([input.id], input.status)),
  remove: adminProcedure.input(idInput).mutation(({ ctx, input }) => ctx.services.channels.remove(input.id)),
  removeMany: adminProcedure.input(idsInput).mutation(({ ctx, input }) => ctx.services.channels.removeMany(input.ids)),
  removeDisabled: adminProcedure.mutation(({ ctx }) => ctx.services.channels.removeDisabled()),
  batchTag: adminProcedure
    .input(batchTagInput)
    .mutation(({ ctx, input }) => ctx.services.channels.batchTag(input.ids, input.tag)),
  editTag: adminProcedure.input(editTagInput).mutation(({ ctx, input }) => ctx.services.channels.editTag(input)),
  setTagEnabled: adminProcedure
    .input(tagInput.extend({ enabled: z.boolean() }))
    .mutation(({ ctx, input }) => ctx.services.channels.setTagEnabled(input.tag, input.enabled)),
  test: adminProcedure
    .input(idInput.extend({ model: z.string().trim().optional() }))
    .mutation(({ ctx, input }) => ctx.services.channels.testChannel(input.id, input.model || undefined)),
  testAll: adminProcedure.mutation(({ ctx }) => ctx.services.channels.startTestAll()),
  updateBalance: adminProcedure
    .input(idInput)
    .mutation(async ({ ctx, input }) => ({ balance: await ctx.services.channels.updateBalance(input.id) })),
  updateAllBalances: adminProcedure.mutation(({ ctx }) => ctx.services.channels.updateAllBalances()),
  fetchModels: adminProcedure
    .input(fetchModelsInput)
    .mutation(({ ctx, input }) => ctx.services.channels.fetchModels(input)),
  fetchModelsOf: adminProcedure
    .input(idInput)
    .mutation(({ ctx, input }) => ctx.services.channels.fetchModelsOf(input.id)),
  /** A multi-key channel's keys, masked, with status, reason and time (new-api's get_key_status). */
  keys: adminProcedure
    .input(
      idInput.extend({
        page: z.number().int().min(1).default(1),
        pageSize: z.number().int().min(1).max(500).default(50),
        status: z.number().int().min(1).max(3).optional(),
      }),
    )
    .query(({ ctx, input }) => ctx.services.channels.keyStatus(input.id, input)),
  /** Enable or disable one key or all (delete actions: the admin's explicit choice, confirmed in the console). */
  manageKeys: adminProcedure
    .input(idInput.extend({ action: z.enum(keyActions), index: z.number().int().min(0).optional() }))
    .mutation(async ({ ctx, input }) => ({
      count: await ctx.services.channels.manageKeys(input.id, input.action, input.index),
    })),
  fixAbilities: adminProcedure.mutation(({ ctx }) => ctx.services.channels.fixAbilities()),
  enabledModels: adminProcedure.query(({ ctx }) => ctx.services.channels.enabledModels()),
  knownModels: adminProcedure.query(async ({ ctx }) => (await ctx.services.channels.knownModels()).map((m) => m.id)),
  defaultModels: userProcedure.query(({ ctx }) => ctx.services.channels.defaultModelsByType()),
});
