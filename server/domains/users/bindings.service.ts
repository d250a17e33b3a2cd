import type { UserUpdate } from './users.table.ts';
import { badRequest, notFound } from '../../errors.ts';
import { findLiveUserById, updateUser } from './users.repo.ts';
import { type Actor, assertOutranks, type UsersDeps } from './users.rules.ts';

/**
 * The sign-in accounts linked to a user, as new-api's binding calls name them (the binding_type of
 * DELETE /api/user/:id/bindings/:binding_type) and the column that holds each. Discord has no column:
 * Switchyard has no Discord sign-in.
 */
const bindingColumns = {
  email: 'email',
  github: 'github_id',
  oidc: 'oidc_id',
  wechat: 'wechat_id',
  telegram: 'telegram_id',
  linuxdo: 'linux_do_id',
} as const satisfies Record<string, keyof UserUpdate>;

type BindingType = keyof typeof bindingColumns;
const isBindingType = (v: string): v is BindingType => Object.hasOwn(bindingColumns, v);

/**
 * Linked sign-in accounts. new-api's "OAuth bindings" lists are its custom OAuth providers', which
 * Switchyard does not have (docs/new-api-contract/misc.md): they are empty and nothing in them can be
 * unbound. The built-in links (GitHub, OIDC, ...) are the user's columns, cleared by an administrator.
 */
export function createBindingsService(d: UsersDeps) {
  return {
    /** Custom-provider bindings of a user (self, or an administrator looking at someone): none. */
    async customBindings(actor: Actor, userId: number): Promise<never[]> {
      const row = await findLiveUserById(d.db, userId);
      if (!row) throw notFound('user.not_found');
      if (actor.id !== userId) assertOutranks(actor, row.role, 'user.outranked_read');
      return [];
    },

    /** Unbinding a custom provider: there is no such binding to remove. */
    unbindCustom(): never {
      throw notFound('oauth.binding_not_found');
    },

    /** An administrator unlinks a user's built-in sign-in account (the user then signs in otherwise). */
    async clearBinding(actor: Actor, userId: number, type: string): Promise<void> {
      const kind = type.trim().toLowerCase();
      if (!isBindingType(kind)) throw badRequest('user.binding_type_invalid');
      const row = await findLiveUserById(d.db, userId);
      if (!row) throw notFound('user.not_found');
      assertOutranks(actor, row.role, 'user.outranked_update');
      await updateUser(d.db, row.id, { [bindingColumns[kind]]: '' });
      d.bus.publish('users', String(row.id));
    },
  };
}
