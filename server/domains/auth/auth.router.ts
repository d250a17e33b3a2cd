import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { loginInput, registerInput, setupInput } from '../../../shared/schemas/users.ts';
import { publicProcedure, router } from '../../trpc/trpc.ts';
import { isLoopbackCaller } from '../users/setup-code.rules.ts';
import { passwordLogin, passwordRegister } from './http-steps.service.ts';
import { startSession } from './session.service.ts';

/** The login and sign-up pages' one call: with human verification on, the widget's token travels with the form. */
const withToken = { turnstile: z.string().optional() };
const loginWithTokenInput = loginInput.extend(withToken);
const registerWithTokenInput = registerInput.extend(withToken);

/** Setup wizard and sign-in for the console; same services and session cookie as the REST adapter. */
export const authRouter = router({
  setupStatus: publicProcedure.query(({ ctx }) => ctx.services.users.setupStatus(loopback(ctx.req))),
  /**
   * The wizard signs in the root account it has just created (issue 22): the caller chose its password in
   * this very request. With an imported root (no account created) nobody is signed in.
   */
  setup: publicProcedure.input(setupInput).mutation(async ({ ctx, input }) => {
    const { rootId } = await ctx.services.users.setup(input, {
      acceptLanguage: ctx.req.headers['accept-language'],
      loopback: loopback(ctx.req),
    });
    if (rootId === undefined) return { user: null };
    await startSession(ctx.db, ctx.req, ctx.reply, rootId);
    return { user: await ctx.services.users.getLoginUser(rootId) };
  }),
  login: publicProcedure
    .input(loginWithTokenInput)
    .mutation(({ ctx, input }) =>
      passwordLogin(ctx, ctx.req, ctx.reply, input, input.turnstile ?? turnstileOf(ctx.req.query)),
    ),
  register: publicProcedure
    .input(registerWithTokenInput)
    .mutation(({ ctx, input }) =>
      passwordRegister(ctx, ctx.req, ctx.reply, input, input.turnstile ?? turnstileOf(ctx.req.query)),
    ),
  logout: publicProcedure.mutation(({ ctx }) => ctx.endSession()),
  /** The signed-in user in the login-answer shape, or null for a visitor. */
  me: publicProcedure.query(({ ctx }) => (ctx.user ? ctx.services.users.getLoginUser(ctx.user.id) : null)),
});

/** On the server itself, not through a proxy: the wizard asks no setup code (setup-code.rules.ts). */
const loopback = (req: FastifyRequest) => isLoopbackCaller(req.socket?.remoteAddress, req.headers);

/** A caller may also pass the Turnstile token as `?turnstile=` on the tRPC URL, like the REST calls. */
function turnstileOf(query: unknown): string | undefined {
  const value = (query as Record<string, unknown> | undefined)?.turnstile;
  return typeof value === 'string' ? value : undefined;
}
