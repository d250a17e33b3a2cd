/**
 * Any surface: the envelope's and schemas' refusals (server/compat/envelope.ts, server/errors.ts), field names,
 * group descriptions and amounts of quota that other messages take as parameters. Joined with the other areas by
 * shared/server-messages.ts.
 */
export const commonMessages = {
  // Any surface
  'common.not_logged_in': '未登录或登录已过期，请重新登录',
  'common.forbidden': '无权进行此操作，权限不足',
  'common.too_many_requests': '请求过于频繁，请稍后再试',
  'common.too_many_requests_ip': '该 IP 请求过于频繁，请稍后再试',
  'common.internal': '服务器内部错误，请联系管理员',
  'common.invalid_json': '无效的参数：请求体不是合法的 JSON',
  'common.body_too_large': '请求体过大',
  /** {limit}: "32 MB" (compat/envelope.ts byteSize). */
  'common.body_over_limit': '请求体超过了 {limit} 的上限',
  'common.bad_params': '参数错误',
  'common.invalid_params': '无效的参数',
  'common.must_be_number': '参数必须是数字',
  'common.must_be_integer': '参数必须是整数',
  'common.must_be_boolean': '参数必须是布尔值',
  'common.must_be_string': '参数必须是字符串',
  'common.id_not_number': 'id 必须是数字',
  'common.id_not_integer': 'id 必须是整数',
  'common.id_invalid': 'id 无效',
  'common.select_at_least_one': '请至少选择一项',
  'common.status_invalid': '状态无效',
  'common.date_invalid': '日期格式无效',
  'common.database_down': '数据库连接失败',
  'common.field_not_string': '{field}必须是字符串',
  'common.field_not_number': '{field}必须是数字',
  'common.field_not_integer': '{field}必须是整数',
  'common.field_not_timestamp': '{field}必须是时间戳',
  'common.field_negative': '{field}不能为负数',
  /** An upstream's or a library's own words, passed on as they came (not translatable). */
  'common.text': '{text}',
  // Fastify's refusals of a request body (compat/envelope.ts classifyError), never its FST_ codes
  'common.body_not_json': '请求体必须是 JSON（Content-Type: application/json）',
  'common.bad_content_length': '请求头 Content-Length 与请求体长度不符',
  'common.bad_request': '请求无法处理（HTTP {status}）',
  // Field names, used as parameters of the messages above
  'field.username': '用户名',
  'field.display_name': '显示名称',
  'field.password': '密码',
  'field.confirm_password': '确认密码',
  'field.email': '邮箱',
  'field.verification_code': '验证码',
  'field.aff_code': '邀请码',
  'field.setup_code': '初始化码',
  'field.original_password': '原密码',
  'field.account_name': '账户名',
  'field.page': '页码',
  'field.page_size': '每页条数',
  'field.keyword': '关键词',
  'field.group': '分组',
  'field.role': '角色',
  'field.quota': '额度',
  'field.add_quota': '增加额度',
  'field.valid_from': '生效时间',
  'field.valid_until': '过期时间',
  'field.wechat': '微信',
  // new-api's default group descriptions (UserUsableGroups) and a user's own group: shown translated
  // while the operator keeps them; words of their own are shown as written.
  'group.default_desc': '默认分组',
  'group.vip_desc': 'vip分组',
  'group.own_desc': '用户分组',
  // Amounts of quota as server texts state them (parameters of other messages)
  'quota.points': '{amount} 点额度',
  'quota.dollars': '${amount} 额度',
  'quota.dollars_wide': '＄{amount} 额度',
  'quota.plain': '{amount} 额度',
  'common.quota_negative': '额度不能为负数',
  'common.quota_not_integer': '额度必须是整数',
} as const;
