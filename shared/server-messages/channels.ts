/**
 * Channels, multi-key channels and the channel-disabled notice (server/domains/channels/). Joined with the other
 * areas by shared/server-messages.ts.
 */
export const channelsMessages = {
  // A channel's key shown after the fresh check (channel-key.rest.ts)
  'channel.key_revealed': '获取成功',

  'channel.not_found': '渠道不存在，请刷新后重试',
  'channel.name_and_key': '请填写渠道名称和渠道密钥！',
  'channel.no_model': '请至少选择一个模型！',
  'channel.model_mapping_json': '模型映射必须是合法的 JSON 格式！',
  'channel.status_code_mapping_json': '状态码复写必须是合法的 JSON 格式！',
  'channel.setting_json': '渠道额外设置必须是合法的 JSON 格式！',
  'channel.auto_cache_control': '渠道额外设置中的 auto_cache_control 只能是 true 或 false',
  'channel.param_override_json': '参数覆盖必须是合法的 JSON 格式！',
  'channel.vertex_other_json': '部署地区必须是合法的 JSON 格式！',
  'channel.priority_min': '优先级不能小于 -999',
  'channel.priority_not_integer': '优先级必须是整数',
  'channel.weight_not_integer': '权重必须是整数',
  'channel.weight_negative': '权重必须是非负整数',
  'channel.model_name_too_long': '模型名称过长，最多 255 个字符',
  'channel.name_too_long': '渠道名称过长',
  'channel.type_invalid': '渠道类型无效',
  'channel.enter_key': '请填写密钥',
  // Types whose key is an access/secret pair (issue 40; shared/schemas/channels.ts)
  'channel.kling_key_format': '可灵渠道的密钥格式为 AccessKey|SecretKey，两者用 | 分隔',
  'channel.jimeng_key_format': '即梦渠道的密钥格式为 AccessKeyID|SecretAccessKey，两者用 | 分隔',
  'channel.enter_base_url': '请填写渠道的 Base URL',
  'channel.base_url_invalid': 'Base URL 格式不正确，应以 http:// 或 https:// 开头，例如 https://api.example.com',
  'channel.enter_tag': '请填写标签',
  'channel.select_first': '请先选择渠道',
  'channel.tag_not_found': '标签不存在',
  'channel.no_changes': '没有任何修改',
  'channel.no_test_model': '该渠道没有可用于测试的模型',
  'channel.untestable': '该渠道类型暂不支持测试',
  'channel.test_running': '已有渠道测试正在运行中，请稍后再试',
  'channel.test_too_slow': '响应时间 {seconds}s 超过阈值 {threshold}s',
  'channel.test_build_failed': '无法构造上游请求：{reason}',
  'channel.balance_unsupported': '该渠道类型暂不支持查询余额',
  'channel.balance_unreadable': '上游返回的余额格式无法识别',
  'channel.models_failed': '获取模型列表失败：{reason}',
  'channel.upstream_status': '上游返回 HTTP {status}',
  'channel.upstream_status_detail': '上游返回 HTTP {status}：{detail}',
  'channel.upstream_unreachable': '请求上游失败：{reason}',
  // Multi-key channels (issue 28; the manage call's refusals are new-api's words)
  'channel.not_multi_key': '该渠道不是多密钥模式',
  'channel.key_index_missing': '未指定密钥索引',
  'channel.key_index_out_of_range': '密钥索引超出范围',
  'channel.no_key_to_disable': '没有可禁用的密钥',
  'channel.no_auto_disabled_key': '没有需要删除的自动禁用密钥',
  'channel.last_key': '不能删除最后一个密钥',
  'channel.unsupported_action': '不支持的操作',
  'channel.keys_changed': '渠道密钥已被修改，请刷新后重试',
  'channel.all_keys_disabled': '所有密钥均已被自动禁用，最后一个的原因：{reason}',

  'demo.disabled': '演示渠道未开启（DEMO_CHANNEL）',

  // The notice the server sends root's inbox itself (title, then markdown content; disabled-notice.service.ts)
  'notice.channel_disabled_title': '渠道「{name}」（#{id}）已被自动禁用',
  'notice.channel_disabled': '渠道 **{name}**（#{id}）于 {time} 被自动禁用。\n\n原因：{reason}',
} as const;
