import { type Infra } from '../../context.ts';
import { notFound } from '../../errors.ts';
import type { OptionsService } from '../options/options.service.ts';
import type { StatusService } from '../status/status.service.ts';
import { insertAccount } from './account.service.ts';
import { createBindingsService } from './bindings.service.ts';
import { createGroupsService } from './groups.service.ts';
import { createManageService } from './manage.service.ts';
import { createSelfService } from './self.service.ts';
import { createSetupService } from './setup.service.ts';
import { findUserById } from './users.repo.ts';
import { assertPassword, assertUsername, type PasswordHasher, type UsersDeps } from './users.rules.ts';

export type UsersService = ReturnType<typeof createUsersService>;

export interface DirectUserInput {
  username: string;
  password: string;
  role?: number;
  quota?: number;
  group?: string;
  displayName?: string;
  email?: string;
}

/**
 * Accounts and users: setup wizard, self-service and administration (signing in is auth's).
 * Each verb lives in its own file; this object is what `services.users` exposes.
 */
export function createUsersService(
  infra: Infra,
  options: OptionsService,
  status: StatusService,
  passwords: PasswordHasher,
) {
  const d: UsersDeps = { ...infra, options, status, passwords };
  return {
    ...createSetupService(d),
    ...createSelfService(d),
    ...createGroupsService(d),
    ...createManageService(d),
    ...createBindingsService(d),

    /** Any role, no switches or invite logic: for trusted callers (tests, OAuth sign-up, tools). */
    async createUserDirect(input: DirectUserInput) {
      assertUsername(input.username);
      assertPassword(input.password);
      const id = await insertAccount(d.db, {
        username: input.username,
        passwordHash: await d.passwords.hash(input.password),
        displayName: input.displayName,
        role: input.role,
        quota: input.quota,
        group: input.group,
        email: input.email,
      });
      const row = await findUserById(d.db, id);
      if (!row) throw notFound('user.not_found');
      return row;
    },
  };
}
