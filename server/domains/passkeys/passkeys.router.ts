import { authenticationCredential, registrationCredential } from '../../../shared/schemas/passkeys.ts';
import { publicProcedure, router, userProcedure } from '../../trpc/trpc.ts';
import { startSession } from '../auth/session.service.ts';
import { currentSite, startSite } from './passkeys-flow.service.ts';
import { passkeyStatusView } from './passkeys.view.ts';

/**
 * The console's passkey calls: Me › Security registers, shows and removes the passkey; the sign-in page
 * signs in with it. Begin calls answer the WebAuthn options JSON for @simplewebauthn/browser; same service,
 * challenges and session cookie as the REST adapter.
 */
export const passkeysRouter = router({
  status: userProcedure.query(async ({ ctx }) => passkeyStatusView(await ctx.services.passkeys.status(ctx.user.id))),
  registerBegin: userProcedure.mutation(({ ctx }) =>
    ctx.services.passkeys.registerBegin(ctx.user.id, startSite(ctx.req, ctx.reply)),
  ),
  registerFinish: userProcedure
    .input(registrationCredential)
    .mutation(({ ctx, input }) => ctx.services.passkeys.registerFinish(ctx.user.id, currentSite(ctx.req), input)),
  remove: userProcedure.mutation(({ ctx }) => ctx.services.passkeys.remove(ctx.user.id)),
  loginBegin: publicProcedure.mutation(({ ctx }) => ctx.services.passkeys.loginBegin(startSite(ctx.req, ctx.reply))),
  loginFinish: publicProcedure.input(authenticationCredential).mutation(async ({ ctx, input }) => {
    const user = await ctx.services.passkeys.loginFinish(currentSite(ctx.req), input);
    await startSession(ctx.db, ctx.req, ctx.reply, user.id);
    return user;
  }),
});
