import type { AuthDeps } from './auth.deps.ts';
import { createLoginService } from './login.service.ts';
import { createMailFlows } from './mail-flows.service.ts';
import { createOAuthService } from './oauth/oauth.service.ts';
import { createRegisterService } from './register.service.ts';

export type AuthService = ReturnType<typeof createAuthService>;

/** Signing in and up: password login and registration, mail codes and resets, third-party accounts. */
export function createAuthService(d: AuthDeps) {
  return { ...createLoginService(d), ...createRegisterService(d), ...createMailFlows(d), ...createOAuthService(d) };
}
