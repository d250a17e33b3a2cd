import type { Infra } from '../../context.ts';
import { badRequest } from '../../errors.ts';
import type { OptionsService } from '../options/options.service.ts';
import { findLiveUserById } from '../users/users.repo.ts';
import { type Actor, assertOutranks } from '../users/users.rules.ts';
import { deletePasskeysOfUser, findPasskeyOfUser } from './passkeys.repo.ts';
import type { PasskeysCtx } from './service/context.ts';
import { createPasskeyRegistration } from './service/register.ts';
import { createPasskeySignIn } from './service/sign-in.ts';
import { createPasskeyVerification } from './service/verify.ts';

export type { CeremonySite } from './service/context.ts';
export type PasskeysService = ReturnType<typeof createPasskeysService>;

/**
 * Passkeys (WebAuthn) for sign-in, one per user as in new-api: register, sign in with a discoverable
 * credential (no username), re-verify a signed-in user for sensitive actions, remove. Each ceremony's
 * challenge is kept server-side for two minutes, bound to one browser and purpose, and used at most once.
 */
export function createPasskeysService(infra: Infra, options: OptionsService) {
  const ctx: PasskeysCtx = { db: infra.db, options };
  const { db } = ctx;
  return {
    ...createPasskeyRegistration(ctx),
    ...createPasskeySignIn(ctx),
    ...createPasskeyVerification(ctx),

    /** The user's passkey, or undefined. */
    status: (userId: number) => findPasskeyOfUser(db, userId),

    async remove(userId: number): Promise<void> {
      await deletePasskeysOfUser(db, userId);
    },

    /** An admin removes someone's passkey (they sign in otherwise and may register a new one). */
    async adminReset(actor: Actor, targetId: number): Promise<void> {
      const target = await findLiveUserById(db, targetId);
      if (!target) throw badRequest('user.not_found');
      assertOutranks(actor, target.role);
      if ((await deletePasskeysOfUser(db, targetId)) === 0) throw badRequest('passkey.not_registered');
    },
  };
}
