/**
 * The relay's own refusals to API callers (server/relay/: key checks, groups, routes), answered in the
 * caller's language (Chinese by default, English when its Accept-Language prefers it) with a stable
 * OpenAI `code` beside them; the usage log's error rows keep both wordings. new-api's wording where it
 * has one. Joined with the other areas by shared/server-messages.ts.
 */
export const relayMessages = {
  'relay.no_key': '未提供令牌',
  'relay.invalid_token': '无效的令牌',
  'relay.token_expired': '该令牌已过期',
  'relay.token_disabled': '该令牌状态不可用',
  'relay.ip_not_allowed': '您的 IP {ip} 不在令牌允许访问的列表中',
  'relay.channel_pin_forbidden': '普通用户不支持指定渠道',
  'relay.invalid_channel_id': '无效的渠道 ID',
  'relay.group_forbidden': '无权访问 {group} 分组',
  'relay.group_retired': '分组 {group} 已被弃用',
  'relay.model_forbidden': '该令牌无权访问模型 {model}',
  'relay.api_not_implemented': '该接口尚未实现',
  'relay.endpoint_unsupported': '不支持的接口：{path}',
} as const;
