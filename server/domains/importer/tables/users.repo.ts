import type { Row, TableImporter } from './types.ts';
import { movesSequence, sumById, upsertById } from './upsert.repo.ts';
import { deletedAt, int, str, strOrNull, unixSeconds } from './values.rules.ts';

/*
 * Users: password hashes kept (bcrypt, so the old password signs in), roles, groups, quota and usage, affiliate
 * codes and balances, settings and OAuth ids. new-api keeps the affiliate history in `aff_history`; older
 * importers read `aff_history_quota` there and got 0 (issue 42).
 */
const mapUser = (r: Row) => ({
  id: int(r.id),
  username: str(r.username),
  password: str(r.password),
  display_name: str(r.display_name),
  role: int(r.role, 1),
  status: int(r.status, 1),
  email: str(r.email),
  github_id: str(r.github_id),
  oidc_id: str(r.oidc_id),
  wechat_id: str(r.wechat_id),
  telegram_id: str(r.telegram_id),
  linux_do_id: str(r.linux_do_id),
  access_token: strOrNull(r.access_token),
  quota: int(r.quota),
  used_quota: int(r.used_quota),
  request_count: int(r.request_count),
  group: str(r.group) || 'default',
  aff_code: strOrNull(r.aff_code),
  aff_count: int(r.aff_count),
  aff_quota: int(r.aff_quota),
  aff_history_quota: int(r.aff_history ?? r.aff_history_quota),
  inviter_id: int(r.inviter_id),
  setting: str(r.setting),
  ...(r.created_at !== undefined && r.created_at !== null ? { created_at: unixSeconds(r.created_at) ?? 0 } : {}),
  deleted_at: deletedAt(r.deleted_at),
});

export const usersImporter: TableImporter = {
  name: 'users',
  sourceTable: 'users',
  finish: movesSequence('users'),
  optional: false,
  async importBatch(trx, rows, ctx) {
    const unknownOAuth = ['discord_id'].filter((c) => ctx.columns.has(c) && rows.some((r) => str(r[c])));
    for (const c of unknownOAuth)
      ctx.note(`users.${c}: Switchyard has no sign-in of that kind; those users sign in with their password instead`);
    return upsertById(trx, 'users', rows.map(mapUser), 'username');
  },
  balance: {
    kind: 'users',
    source: (r) => int(r.quota),
    target: (trx, rows) =>
      sumById(
        trx,
        'users',
        'quota',
        rows.map((r) => int(r.id)),
      ),
  },
};
