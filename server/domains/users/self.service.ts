import { Role } from '../../../shared/constants.ts';
import { type UpdateSelfInput, updateSelfInput } from '../../../shared/schemas/users.ts';
import type { UserUpdate } from './users.table.ts';
import { isUniqueViolation } from '../../db/unique-violation.ts';
import { badRequest, conflict, forbidden, notFound } from '../../errors.ts';
import { newAffCode } from './account.service.ts';
import { randomAlphanumeric } from '../../random.ts';
import { findLiveUserById, setAffCodeIfMissing, softDeleteUser, updateUser, usernameTaken } from './users.repo.ts';
import { assertPassword, assertUsername, type UsersDeps } from './users.rules.ts';
import { loginUserView, selfExtras, userView, withSidebarModules } from './users.view.ts';

const ACCESS_TOKEN_LENGTH = 32;

/** What a signed-in user does to their own account. */
export function createSelfService(d: UsersDeps) {
  async function load(userId: number) {
    const row = await findLiveUserById(d.db, userId);
    if (!row) throw notFound('user.not_found');
    return row;
  }

  return {
    /** The session user in the login-answer shape (tRPC `auth.me`). */
    async getLoginUser(userId: number) {
      return loginUserView(await load(userId));
    },

    async getSelf(userId: number) {
      const row = await load(userId);
      return { ...userView(row, { withAccessToken: true }), ...selfExtras(row) };
    },

    /** Only username, display name and password change here; an empty password keeps the old one. */
    async updateSelf(userId: number, raw: UpdateSelfInput): Promise<void> {
      const input = updateSelfInput.parse(raw);
      const row = await load(userId);
      const patch: UserUpdate = {};
      if (input.username !== undefined && input.username !== '' && input.username !== row.username) {
        assertUsername(input.username);
        if (await usernameTaken(d.db, input.username, row.id)) throw conflict('user.username_taken');
        patch.username = input.username;
      }
      if (input.display_name !== undefined && input.display_name !== '') patch.display_name = input.display_name;
      if (input.sidebar_modules !== undefined) patch.setting = withSidebarModules(row.setting, input.sidebar_modules);
      const password = input.password ?? '';
      if (password !== '') {
        assertPassword(password);
        // The old password is checked when sent (this console always sends it); a legacy console's
        // password form sends `{password}` alone (api-contract §2), which new-api accepts on the
        // session. Accounts made by third-party sign-in have no password to check.
        if (row.password !== '' && input.original_password)
          if (!(await d.passwords.verify(row.password, input.original_password)))
            throw badRequest('self.wrong_password');
        patch.password = await d.passwords.hash(password);
      }
      if (Object.keys(patch).length === 0) return;
      try {
        await updateUser(d.db, row.id, patch);
      } catch (err) {
        if (isUniqueViolation(err)) throw conflict('user.username_taken');
        throw err;
      }
    },

    /** Soft delete. The console makes the user type their username; tRPC passes it so the server checks too. */
    async deleteSelf(userId: number, confirmUsername?: string): Promise<void> {
      const row = await load(userId);
      if (confirmUsername !== undefined && confirmUsername !== row.username) throw badRequest('self.confirm_delete');
      if (row.role >= Role.Root) throw forbidden('self.root_no_delete');
      await softDeleteUser(d.db, row.id);
      d.bus.publish('users', String(row.id));
    },

    /** A new system access token replaces the old one (which stops working at once). */
    async generateAccessToken(userId: number): Promise<string> {
      const row = await load(userId);
      for (let attempt = 0; ; attempt++) {
        const token = randomAlphanumeric(ACCESS_TOKEN_LENGTH);
        try {
          await updateUser(d.db, row.id, { access_token: token });
          return token;
        } catch (err) {
          if (!isUniqueViolation(err) || attempt >= 3) throw err;
        }
      }
    },

    /** The invite code, created on first request for accounts that lack one (imported users). */
    async getAffCode(userId: number): Promise<string> {
      const row = await load(userId);
      if (row.aff_code) return row.aff_code;
      await setAffCodeIfMissing(d.db, row.id, await newAffCode(d.db));
      return (await load(userId)).aff_code ?? '';
    },
  };
}
