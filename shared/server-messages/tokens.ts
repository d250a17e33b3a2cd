/** Tokens (server/domains/tokens/). Joined with the other areas by shared/server-messages.ts. */
export const tokensMessages = {
  'token.name_too_long': '令牌名称过长',
  'token.expiry_invalid': '过期时间格式错误',
  'token.ip_list_invalid': 'IP 白名单格式错误',
  'token.count_range': '批量创建数量必须在 1 到 100 之间',
  'token.not_found': '令牌不存在',
  'token.group_forbidden': '无权使用该分组',
  'token.expired_cannot_enable': '令牌已过期，无法启用，请先修改令牌过期时间，或者设置为永不过期',
  'token.exhausted_cannot_enable': '令牌可用额度已用尽，无法启用，请先修改令牌剩余额度，或者设置为无限额度',
  'token.period_not_integer': '限流周期必须是整数',
  'token.period_min': '限流周期至少 1 秒',
  'token.count_not_integer': '请求次数必须是整数',
  'token.count_negative': '请求次数不能为负数',
  'token.success_not_integer': '成功次数必须是整数',
  'token.success_negative': '成功次数不能为负数',
  'token.status_one_or_two': '状态只能是 1 或 2',
  'token.generate_failed': '生成令牌失败，请重试',
} as const;
