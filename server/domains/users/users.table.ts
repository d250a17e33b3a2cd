import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Defaulted, Id } from '../../db/columns.ts';

/* The rows of `users`, `setups` (joined into `Database` by server/db/types.ts). */

export interface UsersTable {
  id: Id;
  username: string;
  password: string;
  display_name: Defaulted<string>;
  role: Defaulted<number>;
  status: Defaulted<number>;
  email: Defaulted<string>;
  github_id: Defaulted<string>;
  oidc_id: Defaulted<string>;
  wechat_id: Defaulted<string>;
  telegram_id: Defaulted<string>;
  linux_do_id: Defaulted<string>;
  access_token: string | null;
  quota: Defaulted<number>;
  used_quota: Defaulted<number>;
  request_count: Defaulted<number>;
  group: Defaulted<string>;
  aff_code: string | null;
  aff_count: Defaulted<number>;
  aff_quota: Defaulted<number>;
  aff_history_quota: Defaulted<number>;
  inviter_id: Defaulted<number>;
  setting: Defaulted<string>;
  created_at: Defaulted<number>;
  deleted_at: number | null;
}

export interface SetupsTable {
  id: Id;
  version: Defaulted<string>;
  initialized_at: Defaulted<number>;
}

export type UserRow = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
