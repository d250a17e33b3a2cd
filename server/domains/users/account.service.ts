import { DEFAULT_GROUP, Role, UserStatus } from '../../../shared/constants.ts';
import { nowSeconds } from '../../db/time.ts';
import type { Db } from '../../db/types.ts';
import { isUniqueViolation } from '../../db/unique-violation.ts';
import { conflict } from '../../errors.ts';
import { randomAlphanumeric } from '../../random.ts';
import { affCodeTaken, insertUser } from './users.repo.ts';

export interface NewAccount {
  username: string;
  /** Already hashed: hashing is slow and must not run inside a transaction. */
  passwordHash: string;
  displayName?: string;
  role?: number;
  quota?: number;
  group?: string;
  email?: string;
  inviterId?: number;
  ids?: ProviderIds;
}

/** Third-party account ids (OAuth sign-up binds them at creation). */
export type ProviderIds = Partial<
  Record<'github_id' | 'oidc_id' | 'wechat_id' | 'telegram_id' | 'linux_do_id', string>
>;

/** A fresh 4-character invite code nobody holds yet. */
export async function newAffCode(db: Db): Promise<string> {
  for (let i = 0; i < 20; i++) {
    const code = randomAlphanumeric(4);
    if (!(await affCodeTaken(db, code))) return code;
  }
  // 62^4 codes; twenty misses in a row means the space is nearly full, so grow the code.
  return randomAlphanumeric(8);
}

/** The one place a users row is created (setup, register, admin create, tests, later OAuth). */
export async function insertAccount(db: Db, a: NewAccount): Promise<number> {
  try {
    return await insertUser(db, {
      username: a.username,
      password: a.passwordHash,
      display_name: a.displayName ?? a.username,
      role: a.role ?? Role.Common,
      status: UserStatus.Enabled,
      quota: a.quota ?? 0,
      group: a.group ?? DEFAULT_GROUP,
      email: a.email ?? '',
      inviter_id: a.inviterId ?? 0,
      aff_code: await newAffCode(db),
      access_token: null,
      created_at: nowSeconds(),
      ...a.ids,
    });
  } catch (err) {
    // Two requests raced for the same name; the unique index decided.
    if (isUniqueViolation(err)) throw conflict('user.username_taken');
    throw err;
  }
}
