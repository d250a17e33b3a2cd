import { createMailFlows } from './mail-flows.service.ts';
import { createOAuthService } from './oauth/oauth.service.ts';
import type { SigninDeps } from './auth.deps.ts';

export type SigninService = ReturnType<typeof createSigninService>;

/** Sign-in methods beyond the password: mail codes and resets, third-party accounts. */
export function createSigninService(d: SigninDeps) {
  return { ...createMailFlows(d), ...createOAuthService(d) };
}
