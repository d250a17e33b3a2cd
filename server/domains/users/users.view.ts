import { Role } from '../../../shared/constants.ts';
import type { UserRow } from './users.table.ts';

/*
 * The User object as new-api clients read it (api-contract §1): every key
 * present, `password` always "" (never the hash), `verification_code` always "",
 * and Go's capitalised `DeletedAt` (null or RFC3339).
 */

export interface UserView {
  id: number;
  username: string;
  password: '';
  display_name: string;
  role: number;
  status: number;
  email: string;
  github_id: string;
  oidc_id: string;
  wechat_id: string;
  telegram_id: string;
  linux_do_id: string;
  verification_code: '';
  access_token: string | null;
  quota: number;
  used_quota: number;
  request_count: number;
  group: string;
  aff_code: string;
  aff_count: number;
  aff_quota: number;
  aff_history_quota: number;
  inviter_id: number;
  setting: string;
  created_at: number;
  DeletedAt: string | null;
}

const emptyUser: UserView = {
  id: 0,
  username: '',
  password: '',
  display_name: '',
  role: 0,
  status: 0,
  email: '',
  github_id: '',
  oidc_id: '',
  wechat_id: '',
  telegram_id: '',
  linux_do_id: '',
  verification_code: '',
  access_token: null,
  quota: 0,
  used_quota: 0,
  request_count: 0,
  group: '',
  aff_code: '',
  aff_count: 0,
  aff_quota: 0,
  aff_history_quota: 0,
  inviter_id: 0,
  setting: '',
  created_at: 0,
  DeletedAt: null,
};

/** Full user without the password hash. */
export function userView(row: UserRow, opts: { withAccessToken?: boolean } = {}): UserView {
  return {
    ...emptyUser,
    id: Number(row.id),
    username: row.username,
    display_name: row.display_name,
    role: row.role,
    status: row.status,
    email: row.email,
    github_id: row.github_id,
    oidc_id: row.oidc_id,
    wechat_id: row.wechat_id,
    telegram_id: row.telegram_id,
    linux_do_id: row.linux_do_id,
    // Another person's access token is a credential: only its owner sees it.
    access_token: opts.withAccessToken ? row.access_token : null,
    quota: Number(row.quota),
    used_quota: Number(row.used_quota),
    request_count: Number(row.request_count),
    group: row.group,
    aff_code: row.aff_code ?? '',
    aff_count: Number(row.aff_count),
    aff_quota: Number(row.aff_quota),
    aff_history_quota: Number(row.aff_history_quota),
    inviter_id: Number(row.inviter_id),
    setting: row.setting,
    created_at: Number(row.created_at),
    DeletedAt: row.deleted_at === null ? null : new Date(Number(row.deleted_at) * 1000).toISOString(),
  };
}

/** The login answer: the whole shape, only identity fields filled (what new-api sends). */
export function loginUserView(row: Pick<UserRow, 'id' | 'username' | 'display_name' | 'role' | 'status' | 'group'>) {
  return {
    ...emptyUser,
    id: Number(row.id),
    username: row.username,
    display_name: row.display_name,
    role: row.role,
    status: row.status,
    group: row.group,
  };
}

export type LoginUserView = ReturnType<typeof loginUserView>;

/** The user's setting JSON as an object ({} when empty or not JSON). */
function settingObject(text: string): Record<string, unknown> {
  try {
    const v: unknown = text ? JSON.parse(text) : {};
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** The setting JSON with the sidebar layout replaced; the other keys stay. */
export const withSidebarModules = (setting: string, sidebarModules: string) =>
  JSON.stringify({ ...settingObject(setting), sidebar_modules: sidebarModules });

/**
 * GET /api/user/self's fields new-api's 2026 console reads besides the User object: the saved sidebar
 * layout and what the role may configure there (admins may not open system settings, users no admin
 * area), and the sign-in and payment ids Switchyard does not have (Discord, Stripe), empty.
 */
export function selfExtras(row: UserRow) {
  const sidebar = settingObject(row.setting).sidebar_modules;
  const permissions =
    row.role >= Role.Root
      ? { sidebar_settings: false, sidebar_modules: {} }
      : row.role >= Role.Admin
        ? { sidebar_settings: true, sidebar_modules: { admin: { setting: false } } }
        : { sidebar_settings: true, sidebar_modules: { admin: false } };
  return {
    discord_id: '',
    stripe_customer: '',
    sidebar_modules: typeof sidebar === 'string' ? sidebar : '',
    permissions,
  };
}
