/**
 * Invitations: the affiliate quota transfer (server/domains/affiliate/). Joined with the other areas by
 * shared/server-messages.ts.
 */
export const affiliateMessages = {
  'aff.transfer_min': '划转金额最低为 {amount}',
  'aff.quota_insufficient': '邀请额度不足',
  'aff.amount_not_integer': '划转额度必须是整数',
  'aff.transferred': '划转成功',
} as const;
