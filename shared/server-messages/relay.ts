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
  // Video upstreams (server/relay/providers/*/video.ts): what the gateway says of an upstream's answer.
  'relay.multipart_no_boundary': '请求体的 Content-Type 缺少 multipart 的 boundary 参数',
  'relay.video_no_operation': '渠道 #{id} 没有返回操作名',
  'relay.video_no_variant': '该任务没有可下载的 {variant}',
  'relay.video_no_download_link': '渠道 #{id} 没有返回下载链接',
  'relay.video_gone_upstream': '上游已不再保存该视频',
  'relay.task_id_malformed': '任务 ID 格式错误',
  'relay.range_not_satisfiable': '请求的范围无法满足',
  'relay.kling_key_refused': '可灵拒绝了渠道 #{id} 的密钥：{said}（可灵错误码 {code}）',
  'relay.kling_busy': '可灵在渠道 #{id} 上繁忙：{said}（可灵错误码 {code}）',
  'relay.kling_no_task': '可灵在渠道 #{id} 上没有该任务：{said}（可灵错误码 {code}）',
  'relay.kling_refused': '可灵拒绝了请求：{said}（可灵错误码 {code}）',
  'relay.kling_failed': '可灵在渠道 #{id} 上失败（HTTP {status}）：{said}（可灵错误码 {code}）',
  'relay.kling_unknown_status': '可灵在渠道 #{id} 上返回了未知的任务状态“{status}”',
  'relay.kling_no_task_id': '可灵在渠道 #{id} 上没有返回 task_id',
  'relay.vertex_account_refused': 'Google 拒绝了渠道 #{id} 的服务账号',
  'relay.vertex_bad_operation': '不是 Vertex 的操作名',
  'relay.veo_bad_storage': 'Veo 返回了无法读取的存储位置',
  // The front doors' body schemas (server/relay/schemas.ts, the Suno door): new-api's wording.
  'relay.model_required': 'model 不能为空',
  'relay.messages_required': 'messages 不能为空',
  'relay.documents_required': 'documents 不能为空',
  'relay.prompt_required': 'prompt 不能为空',
  'relay.input_required': 'input 不能为空',
  'relay.suno_prompt_required': 'prompt 或 gpt_description_prompt 不能为空',
  // A fixed price (pictures, video and music tasks) larger than what is left (relay/errors.ts quotaShortfall).
  'relay.cost_exceeds_user_quota': '本次请求需要 {need}，但账户仅剩 {remain}，请充值',
  'relay.cost_exceeds_token_quota': '本次请求需要 {need}，但该令牌仅剩 {remain}，请增加令牌额度',
} as const;
