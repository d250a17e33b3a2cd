import {
  createMessageInput,
  listMessagesInput,
  messageId,
  pageInput,
  updateMessageInput,
} from '../../../shared/schemas/messages.ts';
import { adminProcedure, router, userProcedure } from '../../trpc/trpc.ts';

/** Admin message management. */
export const messagesRouter = router({
  create: adminProcedure
    .input(createMessageInput)
    .mutation(({ ctx, input }) => ctx.services.messages.create(input, ctx.user.id)),
  list: adminProcedure.input(listMessagesInput).query(({ ctx, input }) => ctx.services.messages.list(input)),
  get: adminProcedure.input(messageId).query(({ ctx, input }) => ctx.services.messages.get(input.id)),
  recipients: adminProcedure.input(messageId).query(({ ctx, input }) => ctx.services.messages.recipients(input.id)),
  update: adminProcedure
    .input(updateMessageInput)
    .mutation(({ ctx, input: { id, ...fields } }) => ctx.services.messages.update(id, fields)),
  remove: adminProcedure.input(messageId).mutation(({ ctx, input }) => ctx.services.messages.remove(input.id)),
});

/** The signed-in user's own inbox. */
export const inboxRouter = router({
  list: userProcedure.input(pageInput).query(({ ctx, input }) => ctx.services.messages.inbox.list(ctx.user.id, input)),
  unreadCount: userProcedure.query(({ ctx }) => ctx.services.messages.inbox.unreadCount(ctx.user.id)),
  get: userProcedure.input(messageId).query(({ ctx, input }) => ctx.services.messages.inbox.get(ctx.user.id, input.id)),
  markRead: userProcedure
    .input(messageId)
    .mutation(({ ctx, input }) => ctx.services.messages.inbox.markRead(ctx.user.id, input.id)),
});
