import { z } from 'zod';
import {
  consolePlanFields,
  planIdInput,
  planStatusInput,
  updatePlanInput,
  userIdInput,
  userSubscriptionIdInput,
} from '../../../shared/schemas/subscriptions.ts';
import { adminProcedure, router, userProcedure } from '../../trpc/trpc.ts';

const origin = (req: { protocol: string; host: string }) => `${req.protocol}://${req.host}`;

/** The wallet's "Subscription plans" section: plans on sale, the user's own, the preference, buying. */
export const subscriptionsRouter = router({
  plans: userProcedure.query(async ({ ctx }) => {
    const { plans, purchase } = ctx.services.subscriptions;
    return (await plans.list(true)).map((p) => ({ ...p, balance_quota: purchase.balancePrice(p.price_amount) }));
  }),
  self: userProcedure.query(({ ctx }) => ctx.services.subscriptions.users.self(ctx.user.id)),
  setPreference: userProcedure
    .input(z.object({ billing_preference: z.string() }))
    .mutation(({ ctx, input }) =>
      ctx.services.subscriptions.users.setPreference(ctx.user.id, input.billing_preference),
    ),
  payEpay: userProcedure
    .input(z.object({ planId: z.number().int().positive(), method: z.string() }))
    .mutation(({ ctx, input }) =>
      ctx.services.subscriptions.purchase.epayPay(ctx.user.id, input.planId, input.method, origin(ctx.req)),
    ),
  payWithBalance: userProcedure
    .input(planIdInput)
    .mutation(({ ctx, input }) => ctx.services.subscriptions.purchase.payWithBalance(ctx.user.id, input.id)),
});

/** The admin's plans page and the subscriptions section of the user drawer. */
export const subscriptionAdminRouter = router({
  plans: adminProcedure.query(({ ctx }) => ctx.services.subscriptions.plans.list(false)),
  create: adminProcedure
    .input(consolePlanFields)
    .mutation(({ ctx, input }) => ctx.services.subscriptions.plans.create({ from: 'console', fields: input })),
  update: adminProcedure
    .input(updatePlanInput)
    .mutation(({ ctx, input }) =>
      ctx.services.subscriptions.plans.update(input.id, { from: 'console', fields: input.plan }),
    ),
  setEnabled: adminProcedure
    .input(planStatusInput)
    .mutation(({ ctx, input }) => ctx.services.subscriptions.plans.setEnabled(input.id, input.enabled)),
  userSubscriptions: adminProcedure
    .input(userIdInput)
    .query(({ ctx, input }) => ctx.services.subscriptions.users.listForUser(ctx.user, input.userId)),
  grant: adminProcedure
    .input(userIdInput.extend({ planId: z.number().int().positive() }))
    .mutation(({ ctx, input }) => ctx.services.subscriptions.users.grant(ctx.user, input.userId, input.planId)),
  invalidate: adminProcedure
    .input(userSubscriptionIdInput)
    .mutation(({ ctx, input }) => ctx.services.subscriptions.users.invalidate(ctx.user, input.id)),
  remove: adminProcedure
    .input(userSubscriptionIdInput)
    .mutation(({ ctx, input }) => ctx.services.subscriptions.users.remove(ctx.user, input.id)),
});
