import type { RedemptionRow } from './redemptions.table.ts';

/**
 * A redemption code as new-api clients read it: `count` is request-only (always 0),
 * `is_gift` a boolean, and the capitalised `DeletedAt` Go adds (null: only live
 * codes are ever sent). `used_username` is ours, added for the console's "Redeemed by"
 * column: the username of `used_user_id` (the last redeemer of a gift code), '' when unused.
 * `expired_time` is new-api's name for `valid_until` (today's console reads and sends it).
 */
export function redemptionView(row: RedemptionRow, usedUsername = '') {
  return {
    id: row.id,
    user_id: row.user_id,
    key: row.key,
    status: row.status,
    name: row.name,
    quota: row.quota,
    created_time: row.created_time,
    redeemed_time: row.redeemed_time,
    count: 0,
    used_user_id: row.used_user_id,
    used_username: row.used_user_id > 0 ? usedUsername : '',
    is_gift: row.is_gift === 1,
    max_uses: row.max_uses,
    used_count: row.used_count,
    valid_from: row.valid_from,
    valid_until: row.valid_until,
    /** new-api's name for the end of validity (0 = never); the same column as valid_until. */
    expired_time: row.valid_until,
    DeletedAt: null,
  };
}

export type RedemptionView = ReturnType<typeof redemptionView>;
