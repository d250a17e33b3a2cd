import { DEFAULT_PAGE_SIZE, LogType, PAGE_SIZE_OPTIONS, Role, UserStatus } from '../../../shared/constants.ts';
import {
  type CreateUserInput,
  createUserInput,
  type ListUsersInput,
  listUsersInput,
  type ManageUserInput,
  manageUserInput,
  type UpdateUserInput,
  updateUserInput,
} from '../../../shared/schemas/users.ts';
import { nowSeconds } from '../../db/time.ts';
import type { Db } from '../../db/types.ts';
import type { UserUpdate } from './users.table.ts';
import { isUniqueViolation } from '../../db/unique-violation.ts';
import { badRequest, conflict, forbidden, notFound } from '../../errors.ts';
import { messageLogFields } from '../logs/log-message.view.ts';
import { quotaText } from '../topup/quota-text.view.ts';
import { insertAccount } from './account.service.ts';
import {
  addQuota,
  findUserById,
  hardDeleteUser,
  insertLog,
  listUsers,
  softDeleteUser,
  updateUser,
  usernameTaken,
} from './users.repo.ts';
import { type Actor, assertOutranks, assertPassword, assertUsername, type UsersDeps } from './users.rules.ts';
import { userView } from './users.view.ts';

const MAX_PAGE_SIZE = Math.max(...PAGE_SIZE_OPTIONS);

/** Paging style A: 1-based page (below 1 → 1), page size default 10, at most 100. */
export function normalisePage(page: number, pageSize: number) {
  const p = page < 1 ? 1 : page;
  const size = pageSize <= 0 ? DEFAULT_PAGE_SIZE : Math.min(pageSize, MAX_PAGE_SIZE);
  return { page: p, pageSize: size, offset: (p - 1) * size };
}

/** Administration of other users (admin and root). */
export function createManageService(d: UsersDeps) {
  /** new-api's LogQuota: the amount as the console shows it, in the site's currency or in points. */
  const formatQuota = (quota: number): string => quotaText(d.options, quota, { wide: true });

  async function logQuotaChange(tx: Db, id: number, username: string, from: number, to: number) {
    await insertLog(tx, {
      user_id: id,
      username,
      created_at: nowSeconds(),
      type: LogType.Manage,
      ...messageLogFields(
        { code: 'log.admin_quota_change', params: { from: { quota: from }, to: { quota: to } } },
        { amountText: formatQuota },
      ),
    });
  }

  /**
   * An admin's change of a balance, with its manage log, in the caller's transaction: `add` (negative
   * to deduct) is one conditional update that never takes the balance below zero; `set` replaces it.
   */
  async function changeQuota(tx: Db, id: number, username: string, change: { add: number } | { set: number }) {
    if ('add' in change) {
      const after = await addQuota(tx, id, change.add);
      if (after === undefined) throw badRequest('user.quota_too_low_to_deduct', { amount: formatQuota(-change.add) });
      await logQuotaChange(tx, id, username, after - change.add, after);
      return;
    }
    const before = await findUserById(tx, id);
    if (!before) throw notFound('user.not_found');
    await updateUser(tx, id, { quota: change.set });
    await logQuotaChange(tx, id, username, Number(before.quota), change.set);
  }

  async function load(id: number) {
    const row = await findUserById(d.db, id);
    if (!row) throw notFound('user.not_found');
    return row;
  }

  return {
    async listUsers(raw: ListUsersInput) {
      const input = listUsersInput.parse(raw);
      const { page, pageSize, offset } = normalisePage(input.page, input.pageSize);
      const { items, total } = await listUsers(d.db, {
        keyword: input.keyword,
        group: input.group,
        offset,
        limit: pageSize,
      });
      return { items: items.map((r) => userView(r)), total, page, pageSize };
    },

    async getUser(actor: Actor, id: number) {
      const row = await load(id);
      assertOutranks(actor, row.role, 'user.outranked_read');
      return userView(row);
    },

    /** Always a common user, whatever role is asked (new-api only checks the asked role). */
    async createUser(actor: Actor, raw: CreateUserInput): Promise<{ id: number }> {
      const input = createUserInput.parse(raw);
      if (input.username === '' || input.password === '') throw badRequest('user.credentials_required');
      if (input.role !== undefined && input.role >= actor.role) throw forbidden('user.create_outranking');
      assertUsername(input.username);
      assertPassword(input.password);
      if (await usernameTaken(d.db, input.username)) throw conflict('user.username_taken');
      const id = await insertAccount(d.db, {
        username: input.username,
        passwordHash: await d.passwords.hash(input.password),
        displayName: input.display_name || input.username,
        role: Role.Common,
      });
      return { id };
    },

    /** Edits profile, group and quota. A non-zero add_quota wins over quota (atomic, never below zero). */
    async updateUser(actor: Actor, raw: UpdateUserInput): Promise<void> {
      const input = updateUserInput.parse(raw);
      const row = await load(input.id);
      assertOutranks(actor, row.role, 'user.outranked_update');
      if (input.role !== undefined && input.role >= actor.role && actor.role < Role.Root)
        throw forbidden('user.outranked_promote');
      if (row.deleted_at !== null) throw badRequest('user.deleted_no_edit');

      const patch: UserUpdate = {};
      if (input.username && input.username !== row.username) {
        assertUsername(input.username);
        if (await usernameTaken(d.db, input.username, row.id)) throw conflict('user.username_taken');
        patch.username = input.username;
      }
      if (input.display_name) patch.display_name = input.display_name;
      if (input.group) patch.group = input.group;
      if (input.password) {
        assertPassword(input.password);
        patch.password = await d.passwords.hash(input.password);
      }
      const add = input.add_quota ?? 0;
      const setQuota = add === 0 && input.quota !== undefined && input.quota !== Number(row.quota);
      if (setQuota) patch.quota = input.quota;

      await d.db.transaction().execute(async (tx) => {
        try {
          if (Object.keys(patch).length > 0) await updateUser(tx, row.id, patch);
        } catch (err) {
          if (isUniqueViolation(err)) throw conflict('user.username_taken');
          throw err;
        }
        const username = patch.username ?? row.username;
        if (add !== 0) await changeQuota(tx, row.id, username, { add });
        else if (setQuota) await logQuotaChange(tx, row.id, username, Number(row.quota), input.quota!);
      });
      d.bus.publish('users', String(row.id));
    },

    async manageUser(actor: Actor, raw: ManageUserInput): Promise<{ role: number; status: number }> {
      const { id, action, mode, value } = manageUserInput.parse(raw);
      const row = await load(id);
      assertOutranks(actor, row.role, 'user.outranked_update');
      if (row.deleted_at !== null || row.status === UserStatus.Deleted)
        throw badRequest(action === 'enable' ? 'user.deleted_no_enable' : 'auth.user_deleted');
      const isRootTarget = row.role >= Role.Root;
      let patch: UserUpdate = {};
      switch (action) {
        case 'disable':
          if (isRootTarget) throw forbidden('user.root_no_disable');
          patch = { status: UserStatus.Disabled };
          break;
        case 'enable':
          patch = { status: UserStatus.Enabled };
          break;
        case 'delete':
          if (isRootTarget) throw forbidden('user.root_no_delete');
          await softDeleteUser(d.db, row.id);
          break;
        case 'promote':
          if (actor.role < Role.Root) throw forbidden('user.admin_no_promote');
          if (row.role >= Role.Admin) throw badRequest('user.already_admin');
          patch = { role: Role.Admin };
          break;
        case 'demote':
          if (isRootTarget) throw forbidden('user.root_no_demote');
          if (row.role === Role.Common) throw badRequest('user.already_common');
          patch = { role: Role.Common };
          break;
        case 'add_quota': {
          // The schema makes sure of mode and value: add/subtract > 0, override >= 0.
          const v = value ?? 0;
          const change = mode === 'override' ? { set: v } : { add: mode === 'subtract' ? -v : v };
          await d.db.transaction().execute((tx) => changeQuota(tx, row.id, row.username, change));
          break;
        }
      }
      if (Object.keys(patch).length > 0) await updateUser(d.db, row.id, patch);
      d.bus.publish('users', String(row.id));
      const after = await load(row.id);
      return { role: after.role, status: after.status };
    },

    /** Hard delete. Nobody, root included, removes a user of the same or higher role (new-api's rule). */
    async removeUser(actor: Actor, id: number): Promise<void> {
      const row = await load(id);
      if (row.role >= actor.role) throw forbidden('user.outranked_delete');
      await d.db.transaction().execute((tx) => hardDeleteUser(tx, row.id));
      d.bus.publish('users', String(row.id));
      // No payload: token caches drop everything, since they cannot know which keys were this user's.
      d.bus.publish('tokens');
    },
  };
}
