/*
 * Every message the server's console and REST surfaces can answer with, by a stable code.
 *
 * The text here is new-api's Chinese wording: the REST adapter answers with it unchanged (legacy
 * consoles and scripts read it), and tRPC sends it as the error's message. The console does not show
 * it: it translates the code through Lingui (client/lib/server-messages.ts, catalog
 * `server-messages.po`), whose Chinese entries are these same texts (a unit test checks both
 * catalogs cover every code). `{name}` marks a parameter, filled by `serverText()`.
 *
 * Messages built outside a throw (zod schema messages, option rules) are recognised by their text:
 * `matchServerText()` gives back the code and parameters, so they are translated too. A parameter
 * that is itself one of these texts (a field name, "1000 点额度") is translated by the console.
 */
export const serverMessages = {
  // Any surface
  'common.not_logged_in': '未登录或登录已过期，请重新登录',
  'common.forbidden': '无权进行此操作，权限不足',
  'common.too_many_requests': '请求过于频繁，请稍后再试',
  'common.too_many_requests_ip': '请求过于频繁，请稍后再试 (too many requests, try later)',
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

  // A failed connection, as a sentence (server/net-failure.ts); the raw error travels as `detail`.
  // {target} is one of net.target.*, {address} host:port.
  'net.refused': '无法连接到{target}：连接被拒绝（{address}）',
  'net.dns': '无法连接到{target}：找不到主机 {host}',
  'net.timeout': '{target}未能及时响应（{address}）',
  'net.reset': '与{target}的连接意外断开（{address}）',
  'net.tls': '无法安全连接到{target}：证书未通过验证（{address}）',
  'net.unreachable': '无法连接到{target}：网络不可达（{address}）',
  'net.bad_address': '{target}的地址无效（{address}）',
  'net.failed': '请求{target}失败（{address}）',
  'net.target.upstream': '上游',
  'net.target.release_feed': '版本发布源',
  'net.target.oidc': 'OIDC 服务',

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

  // Sessions, access tokens, roles
  'auth.no_access_token': '未登录且未提供 access token',
  'auth.invalid_access_token': 'access token 无效',
  'auth.no_user_header': '无权进行此操作，未提供 New-Api-User',
  'auth.user_header_mismatch': '无权进行此操作，New-Api-User 与登录用户不匹配',
  'auth.user_banned': '用户已被封禁',
  'auth.user_deleted': '用户已注销',

  // Setup, login, registration, verification
  'setup.done': '系统已经初始化完成',
  'setup.ok': '系统初始化成功',
  'setup.flag_not_boolean': '{flag} 必须是布尔值',
  'setup.code_required': '请输入初始化码：它打印在服务器的启动日志中（在服务器本机上打开时无需填写）',
  'setup.code_wrong': '初始化码错误：请使用服务器启动日志中打印的初始化码',
  'login.wrong_credentials': '用户名或密码错误，或用户已被封禁',
  'login.password_disabled': '管理员关闭了密码登录，请使用第三方账户验证的形式进行登录',
  'login.enter_credentials': '请输入用户名和密码！',
  'login.too_many_attempts': '登录尝试次数过多，请在 {minutes} 分钟后重试',
  'register.disabled': '管理员关闭了新用户注册',
  'register.password_disabled': '管理员关闭了通过密码进行注册，请使用第三方账户验证的形式进行注册',
  'register.passwords_differ': '两次输入的密码不一致',
  'register.email_format': '邮箱地址格式不正确',
  'register.email_too_long': '邮箱地址过长',
  'register.email_verification_required': '管理员开启了邮箱验证，请输入邮箱地址和验证码',
  'verify.turnstile_empty': 'Turnstile token 为空',
  'verify.turnstile_failed': 'Turnstile 校验失败，请刷新重试！',
  'verify.code_wrong': '验证码错误或已过期',

  // Users
  'user.not_found': '用户不存在',
  'user.password_too_short': '密码长度不得小于 {min} 位',
  'user.password_too_long': '密码长度不得超过 {max} 位',
  'user.username_empty': '用户名不能为空',
  'user.username_too_long': '用户名长度不能超过 {max} 个字符',
  'user.display_name_too_long': '显示名称长度不能超过 {max} 个字符',
  'user.group_name_too_long': '分组名称过长',
  'common.quota_negative': '额度不能为负数',
  'user.username_taken': '用户名已存在，或已注销',
  'user.email_taken': '邮箱地址已被占用',
  'user.outranked': '无权操作同权限等级或更高权限等级的用户',
  'user.outranked_read': '无权获取同级或更高等级用户的信息',
  'user.outranked_update': '无权更新同权限等级或更高权限等级的用户信息',
  'user.outranked_delete': '无权删除同权限等级或更高权限等级的用户',
  'user.outranked_promote': '无权将其他用户权限等级提升到大于等于自己的权限等级',
  'user.create_outranking': '无法创建权限大于等于自己的用户',
  'user.credentials_required': '用户名和密码不能为空！',
  'user.deleted_no_edit': '用户已注销，无法修改',
  'user.deleted_no_enable': '用户已注销，无法启用',
  'user.quota_too_low_to_deduct': '用户额度不足，无法扣减 {amount}',
  'user.root_no_disable': '无法禁用超级管理员用户',
  'user.root_no_delete': '无法删除超级管理员用户',
  'user.root_no_demote': '无法降级超级管理员用户',
  'user.admin_no_promote': '普通管理员用户无法提升其他用户为管理员',
  'user.already_admin': '该用户已经是管理员',
  'user.already_common': '该用户已经是普通用户',
  'user.invalid_action': '无效的操作',
  'self.wrong_password': '原密码错误',
  'self.confirm_delete': '请输入你的账户名以确认删除',
  'self.root_no_delete': '不能删除超级管理员账户',
  'self.settings_saved': '设置已更新',

  // Sign-in providers and e-mail flows
  'oauth.provider_disabled': '管理员未开启通过 {provider} 登录以及注册',
  'oauth.account_bound': '该 {provider} 账户已被绑定',
  'oauth.telegram_unbound': '该 Telegram 账户未绑定，请先在个人设置中绑定',
  'oauth.register_failed': '注册失败',
  'oauth.state_mismatch': 'state 为空或不一致，请重新发起登录',
  'oauth.server_unreachable': '无法连接{provider}服务器，请稍后重试',
  'oauth.server_error': '{provider}服务器返回错误（HTTP {status}）',
  'oauth.github_failed': 'GitHub 授权失败：{reason}',
  'oauth.linuxdo_failed': 'Linux DO 授权失败：{reason}',
  'oauth.invalid_code': '无效的 code',
  'oauth.linuxdo_inactive': 'Linux DO 账户未激活或已被禁言',
  'oauth.linuxdo_trust_level': 'Linux DO 信任等级未达到管理员设置的最低信任等级',
  'oauth.oidc_discovery_failed': '获取 OIDC 配置失败，请检查 Well-Known URL',
  'oauth.oidc_failed': 'OIDC 授权失败，请重试',
  'oauth.oidc_userinfo_failed': '获取 OIDC 用户信息失败',
  'oauth.oidc_no_sub': 'OIDC 用户信息缺少 sub',
  'oauth.telegram_unconfigured': '管理员未配置 Telegram 机器人',
  'oauth.telegram_failed': 'Telegram 校验失败',
  'oauth.telegram_expired': 'Telegram 登录已过期，请重新登录',
  'oauth.telegram_bad_id': '无效的 Telegram id',
  'oauth.telegram_bad_auth_date': '无效的 auth_date',
  'oauth.telegram_bad_hash': '无效的 hash',
  'oauth.wechat_unconfigured': '管理员未配置微信服务器地址',
  'mail.smtp_unconfigured': 'SMTP 服务器未配置',
  'mail.send_failed': '邮件发送失败，请检查 SMTP 设置或联系管理员',
  'mail.too_frequent': '发送过于频繁，请 30 秒后再试',
  'mail.enter_email': '请输入邮箱！',
  'mail.enter_code': '请输入验证码！',
  'mail.invalid_address': '无效的邮箱地址',
  'mail.domain_not_allowed': '管理员启用了邮箱域名白名单，您的邮箱地址的域名不在白名单中',
  'mail.alias_not_allowed': '管理员已启用邮箱地址别名限制，您的邮箱地址由于包含特殊符号而被拒绝。',
  'mail.reset_link_invalid': '重置链接非法或已过期',
  'mail.code_sent': '验证码发送成功，请检查邮箱',
  'mail.reset_sent': '重置邮件发送成功，请检查邮箱',
  'mail.bound': '邮箱绑定成功',

  // Passkeys (WebAuthn)
  'passkey.disabled': '管理员未启用 Passkey 登录',
  'passkey.not_registered': '该用户尚未绑定 Passkey',
  'passkey.challenge_missing': 'Passkey 验证已过期或未开始，请重试',
  'passkey.verify_failed': 'Passkey 验证失败，请重试或联系管理员',
  'passkey.https_required': 'Passkey 需要 HTTPS：{origin} 不是安全来源',
  'passkey.insecure_origin': 'Passkey 不允许不安全的来源：{origin}',
  'passkey.registered': 'Passkey 注册成功',
  'passkey.verified': 'Passkey 验证成功',
  'passkey.removed': 'Passkey 已解绑',
  'passkey.reset': 'Passkey 已重置',

  // Two-factor sign-in (TOTP) and the fresh check before sensitive actions (POST /api/verify)
  'twofa.require_code': '请输入两步验证码',
  'twofa.session_expired': '会话已过期，请重新登录',
  'twofa.already_enabled': '用户已启用2FA，请先禁用后重新设置',
  'twofa.setup_first': '请先完成2FA初始化设置',
  'twofa.enabled_already': '2FA已经启用',
  'twofa.not_enabled': '用户未启用2FA',
  'twofa.wrong_code': '验证码或备用码错误，请重试',
  'twofa.code_reused': '该验证码已经使用过，请等待认证器显示下一个验证码',
  'twofa.code_format': '验证码必须是6位数字',
  'twofa.locked': '验证失败次数过多，请在 {minutes} 分钟后重试',
  'twofa.setup_started': '2FA设置初始化成功，请使用认证器扫描二维码并输入验证码完成设置',
  'twofa.enabled': '两步验证启用成功',
  'twofa.disabled': '两步验证已禁用',
  'twofa.codes_regenerated': '备用码重新生成成功',
  'twofa.admin_disabled': '用户2FA已被强制禁用',
  'twofa.outranked': '无权操作同级或更高级用户的2FA设置',
  'verify.success': '验证成功',
  'verify.method_unsupported': '不支持的验证方式：{method}',
  'verify.code_required': '验证码不能为空',
  'verify.session_required': '当前认证方式不支持安全验证',
  'verify.required': '需要安全验证，请先完成验证',
  'channel.key_revealed': '获取成功',

  // Tokens
  'token.name_too_long': '令牌名称过长',
  'token.expiry_invalid': '过期时间格式错误',
  'token.ip_list_invalid': 'IP 白名单格式错误',
  'token.count_range': '批量创建数量必须在 1 到 100 之间',
  'token.not_found': '令牌不存在',
  'token.group_forbidden': '无权使用该分组',
  'token.expired_cannot_enable': '令牌已过期，无法启用，请先修改令牌过期时间，或者设置为永不过期',
  'token.exhausted_cannot_enable': '令牌可用额度已用尽，无法启用，请先修改令牌剩余额度，或者设置为无限额度',
  'common.quota_not_integer': '额度必须是整数',
  'token.period_not_integer': '限流周期必须是整数',
  'token.period_min': '限流周期至少 1 秒',
  'token.count_not_integer': '请求次数必须是整数',
  'token.count_negative': '请求次数不能为负数',
  'token.success_not_integer': '成功次数必须是整数',
  'token.success_negative': '成功次数不能为负数',
  'token.status_one_or_two': '状态只能是 1 或 2',
  'token.generate_failed': '生成令牌失败，请重试',

  // Billing (also reached through the relay, which words them in the caller's language)
  'billing.user_quota_insufficient': '用户额度不足',
  'billing.subscription_quota_insufficient': '订阅额度不足',
  'billing.token_quota_exhausted': '该令牌额度已用尽',
  'billing.price_unset': '模型 {model} 的模型倍率或价格未配置，请联系管理员设置',
  // A request whose reservation (its max_tokens upper bound) is larger than what remains (issue 28);
  // {need} and {remain} are amounts of quota as the site shows them (the relay fills them in).
  'billing.request_exceeds_user_quota': '本次请求最多需要 {need}，但账户仅剩 {remain}，请调低 max_tokens 或充值',
  'billing.request_exceeds_token_quota':
    '本次请求最多需要 {need}，但该令牌仅剩 {remain}，请调低 max_tokens 或增加令牌额度',

  // Redemption codes, top-up, invitations, check-in
  'redeem.enter_code': '请输入兑换码',
  'redeem.invalid': '无效的兑换码',
  'redeem.used': '该兑换码已被使用',
  'redeem.gift_already_used': '您已经使用过该兑换码',
  'redeem.too_many_guesses': '兑换码错误次数过多，请稍后再试',
  'redeem.not_yet_valid': '该兑换码尚未生效',
  'redeem.expired': '该兑换码已过期',
  'redemption.not_found': '兑换码不存在',
  'redemption.key_taken': '该兑换码已存在',
  'redemption.edit_unused_only': '只能编辑未使用的兑换码',
  'redemption.used_no_status': '该兑换码已被使用，无法修改状态',
  'redemption.name_length': '兑换码名称长度必须在1-20之间',
  'redemption.batch_max': '一次兑换码批量生成的个数不能大于 100',
  'redemption.validity_order': '生效时间必须早于过期时间',
  'redemption.quota_positive': '额度必须大于 0',
  'redemption.max_uses_not_integer': '最大使用次数必须是整数',
  'redemption.max_uses_range': '最大使用次数必须为 -1（不限）或正整数',
  'redemption.count_not_integer': '兑换码个数必须是整数',
  'redemption.count_positive': '兑换码个数必须大于 0',
  'redemption.key_too_long': '自定义兑换码不能超过 64 个字符',
  'redemption.key_charset': '自定义兑换码只能包含字母、数字、下划线和连字符',
  'redemption.key_single': '自定义兑换码一次只能生成一个',
  'redemption.select_one': '请至少选择一个兑换码',
  'redemption.enter_name': '请输入兑换码名称',

  // Model metadata, vendors and prefill groups (the model marketplace)
  'model_meta.name_required': '模型名称不能为空',
  'model_meta.name_taken': '模型名称已存在',
  'model_meta.name_too_long': '模型名称不能超过 128 个字符',
  'model_meta.id_missing': '缺少模型 ID',
  'model_meta.not_found': '模型不存在',
  'model_meta.name_rule_invalid': '名称匹配类型无效',
  'model_meta.endpoints_invalid': '端点配置必须是 JSON 对象或数组',
  'model_meta.icon_too_long': '图标不能超过 128 个字符',
  'model_meta.tags_too_long': '标签总长度不能超过 255 个字符',
  'model_meta.sync_unavailable':
    '不支持从官方同步模型元数据：Switchyard 不连接 new-api 托管的元数据服务，请手动添加，或从“缺失模型”一键创建',
  'vendor.name_required': '供应商名称不能为空',
  'vendor.name_taken': '供应商名称已存在',
  'vendor.name_too_long': '供应商名称不能超过 128 个字符',
  'vendor.id_missing': '缺少供应商 ID',
  'vendor.not_found': '供应商不存在',
  'prefill.name_type_required': '组名称和类型不能为空',
  'prefill.name_taken': '组名称已存在',
  'prefill.name_too_long': '组名称不能超过 64 个字符',
  'prefill.id_missing': '缺少组 ID',
  'prefill.not_found': '预填组不存在',
  'prefill.type_invalid': '组类型必须是 model、tag 或 endpoint',
  'prefill.items_invalid': '模型组和标签组的内容必须是名称列表',
  'topup.disabled': '管理员未开启在线充值',
  'topup.amount_min': '充值数量不能小于 {min}',
  'topup.price_too_low': '充值金额过低',
  'topup.amount_not_integer': '充值数量必须是整数',
  'topup.amount_too_large': '充值数量过大',
  'topup.payment_method': '不支持的支付方式',
  'topup.provider_unavailable': 'Switchyard 未接入 {provider} 支付，请使用易支付或兑换码',
  // Subscription plans (issue 32)
  'subscription.plan_not_found': '套餐不存在',
  'subscription.plan_disabled': '套餐未启用',
  'subscription.purchase_limit': '已达到该套餐购买上限',
  'subscription.price_too_low': '套餐金额过低',
  'subscription.payment_method': '支付方式不存在',
  'subscription.not_found': '订阅不存在',
  'subscription.not_active': '该订阅已失效',
  'subscription.group_missing': '升级分组不存在',
  'subscription.custom_duration': '自定义有效期需大于0秒',
  'subscription.custom_reset': '自定义重置周期需大于0秒',
  'subscription.balance_short': '余额不足',
  'subscription.title_required': '套餐标题不能为空',
  'subscription.price_negative': '价格不能为负数',
  'subscription.price_max': '价格不能超过9999',
  'subscription.limit_negative': '购买上限不能为负数',
  'subscription.total_negative': '总额度不能为负数',
  'subscription.quota_required': '请填写每周期额度，或明确开启“无限额度”',
  'subscription.provider_unavailable': 'Switchyard 未接入 {provider} 支付，请使用易支付或余额购买套餐',
  'compat.codex_unavailable': 'Switchyard 不支持 Codex OAuth 渠道凭据，请使用 API 密钥',
  'compat.ollama_unavailable': 'Switchyard 不管理 Ollama 服务器上的模型，请在 Ollama 上直接拉取或删除',
  'compat.upstream_updates_unavailable': '暂不支持检测上游模型更新，请在编辑渠道时使用“获取模型列表”',
  'compat.external_login_unavailable': 'Switchyard 不支持自定义 OAuth 的 JWT 或请求头登录',
  'ratio.expose_disabled': '倍率配置接口未启用',
  'aff.transfer_min': '划转金额最低为 {amount}',
  'aff.quota_insufficient': '邀请额度不足',
  'aff.amount_not_integer': '划转额度必须是整数',
  'aff.transferred': '划转成功',
  'checkin.disabled': '签到功能未开启',
  'checkin.already': '今天已经签到过了，明天再来吧',

  // new-api's 2026 console: wallet, settings and the features answered as not available (issue 32)
  'checkin.done': '签到成功',
  'option.compliance_key': '合规确认字段不允许通过通用设置接口修改',
  'option.compliance_confirm': '请确认合规声明',
  'option.no_disk_cache': 'Switchyard 不使用磁盘缓存：请求体在内存中转发，无需开启',
  'option.no_load_shedding': 'Switchyard 不按 CPU、内存或磁盘占用拒绝请求：请用每 IP 与每模型的速率限制',
  'feature.deployments_unavailable': 'Switchyard 不接入 io.net 模型部署（new-api 托管的服务）',
  'feature.ratio_sync_unavailable': 'Switchyard 不从其他网关同步倍率：请在倍率设置中编辑，或开启公开倍率供其他网关拉取',
  'feature.custom_oauth_unavailable': 'Switchyard 不支持自定义 OAuth 提供商：请在系统设置中配置 OIDC 登录',
  'feature.gc_unavailable': '当前进程未开放手动垃圾回收',
  'topup.trade_no_required': '未提供订单号',
  'topup.order_not_found': '充值订单不存在',
  'topup.order_not_pending': '订单状态不是待支付，无法补单',
  'affinity.clear_needs_param': '缺少参数：rule_name，或使用 all=true 清空全部',
  'affinity.key_fp_required': '缺少参数：key_fp',
  'user.binding_type_invalid': '不支持的绑定类型',
  'oauth.binding_not_found': '未找到该 OAuth 绑定',

  // Channels
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

  // Notices the server sends root's inbox itself (title, then markdown content)
  'notice.channel_disabled_title': '渠道「{name}」（#{id}）已被自动禁用',
  'notice.channel_disabled': '渠道 **{name}**（#{id}）于 {time} 被自动禁用。\n\n原因：{reason}',
  'notice.update_title': 'Switchyard 有新版本 {version}',
  /** `notes` is empty, or the release notes after a blank line. */
  'notice.update': '当前运行 {current}，最新发布 [{latest}]({url})。{notes}',

  // Messages (inbox and admin)
  'message.not_found': '消息不存在',
  'message.enter_title': '请输入消息标题',
  'message.enter_content': '请输入消息内容',
  'message.select_recipient': '请至少选择一个接收者',
  'message.recipients_missing': '接收者不存在：{ids}',
  'message.format_invalid': '消息格式只能是 markdown 或 html',

  // Logs
  'log.pick_time': '请选择日志时间',
  'log.target_required': '请指定目标时间戳',
  'log.span_too_long': '时间跨度不能超过 1 个月',
  'log.range_inverted': '开始时间不能晚于结束时间',

  // Site options
  'option.github_needs_config': '无法启用 GitHub OAuth，请先填入 GitHub Client Id 以及 GitHub Client Secret！',
  'option.linuxdo_needs_config': '无法启用 LinuxDO OAuth，请先填入 LinuxDO Client Id 以及 LinuxDO Client Secret！',
  'option.oidc_needs_config': '无法启用 OIDC 登录，请先填入 OIDC Client Id、Client Secret 以及 Well-Known URL！',
  'option.wechat_needs_config': '无法启用微信登录，请先填入微信登录相关配置信息！',
  'option.turnstile_needs_config': '无法启用 Turnstile 校验，请先填入 Turnstile 校验相关配置信息！',
  'option.telegram_needs_config': '无法启用 Telegram OAuth，请先填入 Telegram Bot Token 以及 Bot Name！',
  'option.email_domains_needs_config': '无法启用邮箱域名限制，请先填入限制的邮箱域名！',
  'option.server_address_first': '请先填写服务器地址',
  'option.fallback_pricing': '请检查兜底倍率配置：设置单一价格时不能再设置倍率，设置倍率时需同时填写输入倍率和补全倍率',
  'option.ratios_reset': '重置模型倍率成功',
  'option.json_invalid': '不是合法的 JSON 字符串',
  'option.json_invalid_detail': '不是合法的 JSON 字符串：{detail}',
  'option.boolean': '布尔值只能是 true 或 false',
  'option.range': '取值范围为 {min} 到 {max}',
  'option.min': '不能小于 {min}',
  'option.enter_number': '请输入数字',
  'option.enter_integer': '请输入整数',
  'option.one_of': '只能是 {values}',
  'option.http_url': '地址必须以 http:// 或 https:// 开头',
  'option.path_or_url': '请填写以 / 开头的路径，或以 http:// 或 https:// 开头的地址',
  'option.ratio_negative': '倍率不能为负数',
  'option.status_codes': '状态码格式错误，例如 5xx,4xx 或 429,500-503',
  'option.domain_invalid': '{domain} 不是合法的域名，例如 example.com',
  'option.domain_duplicate': '{domain} 重复',
  'option.rebate_range': '返利比例必须在0到100之间',
  'option.export_interval_min': '最小间隔为 1 分钟',
  'option.trust_level_range': '信任等级必须是 0 到 4 的整数',
  'option.well_known_url': 'Well-Known URL 必须以 http:// 或 https:// 开头',
  'option.oidc_discovery_http': '获取 OIDC 配置失败：HTTP {status}',
  'option.oidc_discovery_too_large': '获取 OIDC 配置失败：响应过大',
  'option.oidc_discovery_not_json': '获取 OIDC 配置失败：响应不是合法的 JSON',
  'option.oidc_discovery_incomplete': '获取 OIDC 配置失败：响应中缺少 authorization_endpoint 或 token_endpoint',
  'mapping.virtual_required': '虚拟模型名称不能为空',
  'mapping.virtual_duplicate': '虚拟模型名称已存在',
  'mapping.real_required': '真实模型名称不能为空',
  'mapping.real_duplicate': '真实模型名称重复',
  'mapping.at_least_one': '至少需要一个真实模型',
  'mapping.priority': '优先级必须是不小于 0 的整数',
  'mapping.format': '映射格式错误',

  // Personal notification settings
  'notify.webhook_https': 'Webhook地址必须以https://开头',
  'notify.type': '通知方式只能是 email 或 webhook',
  'notify.threshold_not_number': '预警阈值必须是数字',
  'notify.threshold_positive': '预警阈值必须大于 0',
  'notify.webhook_too_long': 'Webhook地址过长',
  'notify.secret_too_long': 'Webhook密钥过长',
  'notify.email_format': '通知邮箱格式不正确',

  // Update check
  'update.no_feed': '此安装未设置版本更新检查',
  'update.http': '检查更新失败：HTTP {status}',
  'update.too_large': '检查更新失败：响应过大',
  'update.bad_format': '检查更新失败：版本发布源的响应格式不正确',

  // Usage-log lines the server writes (log `content`; the console renders them from the code)
  'log.redeemed': '通过兑换码充值 {amount}',
  'log.online_topup': '使用在线充值成功，充值金额: {amount}，支付金额：{money}',
  'log.admin_topup': '管理员补单成功，充值金额: {amount}，支付金额：{money}',
  'log.subscription_purchased': '订阅购买成功，套餐: {plan}，本期额度: {amount}，支付金额: {money}，支付方式: {method}',
  'log.subscription_granted': '管理员开通订阅，套餐: {plan}，本期额度: {amount}',
  'log.subscription_balance_paid': '使用余额购买订阅，套餐: {plan}，扣除额度: {amount}',
  'log.subscription_reset': '订阅额度重置，套餐: {plan}，本期额度: {amount}',
  'log.checkin': '签到获得 {amount}',
  'log.new_user_gift': '新用户注册赠送 {amount} 额度',
  'log.invitee_gift': '使用邀请码赠送 {amount} 额度',
  'log.inviter_gift': '邀请用户赠送 {amount} 额度',
  'log.admin_quota_change': '管理员将用户额度从 {from} 修改为 {to}',
  'log.price_mode': '模型价格 {price}，分组倍率 {group_ratio}',
  'log.ratio_mode': '模型倍率 {model_ratio}，补全倍率 {completion_ratio}，分组倍率 {group_ratio}',
  // The relay's line for an answer with no tokens at all (relay/relay-log.ts).
  'log.price_mode_free': '模型价格 {price}，分组倍率 {group_ratio}，零 token 不计费',
  'log.ratio_mode_free': '模型倍率 {model_ratio}，补全倍率 {completion_ratio}，分组倍率 {group_ratio}，零 token 不计费',
  // A consume line paid from a subscription's pool, not the wallet (billing/settle.service.ts, issue 39).
  'log.paid_from_plan': '{line}，由订阅套餐「{title}」支付',
  'log.paid_from_subscription': '{line}，由订阅支付',
  // Task relays (Midjourney, Suno): the submission's consume line and a failed task's refund line.
  'log.task_submitted': '{platform} {action}，任务 ID {task_id}',
  'log.task_refund_midjourney': '构图失败 {task_id}，补偿 {amount} 额度，原因：{reason}',
  'log.task_refund_suno': 'Suno 任务失败 {task_id}，补偿 {amount} 额度，原因：{reason}',
  /** A task's failure reason when the upstream gave none (the task's `fail_reason`, a refund line's reason). */
  'task.failed': '任务失败',
  /**
   * An error log row's reason worded by the relay in both languages (relay/error-log.ts): `content` is
   * the Chinese, and the console shows `en` in English. Never recognised by its text (it is any text).
   */
  'log.relay_error': '{zh}',
} as const;

export type ServerMessageCode = keyof typeof serverMessages;
export type MessageParams = Readonly<Record<string, string | number>>;

/** A message as the console receives it: the code and what fills its placeholders. */
export interface ServerMessage {
  code: ServerMessageCode;
  params: MessageParams;
}

const PLACEHOLDER = /\{(\w+)\}/g;

/** The Chinese text of a message (what REST answers and what tRPC puts in `message`). */
export function serverText(code: ServerMessageCode, params: MessageParams = {}): string {
  return serverMessages[code].replace(PLACEHOLDER, (whole, name: string) =>
    Object.hasOwn(params, name) ? String(params[name]) : whole,
  );
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

interface Pattern {
  code: ServerMessageCode;
  names: string[];
  regex: RegExp;
  literal: number;
}

let staticTexts: Map<string, ServerMessageCode> | undefined;
let patterns: Pattern[] | undefined;

function index() {
  if (staticTexts && patterns) return { staticTexts, patterns };
  staticTexts = new Map();
  patterns = [];
  for (const [code, text] of Object.entries(serverMessages) as [ServerMessageCode, string][]) {
    if (code === 'common.text' || code === 'log.relay_error') continue;
    const names = [...text.matchAll(PLACEHOLDER)].map((m) => m[1]);
    if (names.length === 0) {
      staticTexts.set(text, code);
      continue;
    }
    const source = text
      .split(PLACEHOLDER)
      .map((part, i) => (i % 2 === 1 ? '([\\s\\S]+?)' : escapeRegExp(part)))
      .join('');
    patterns.push({ code, names, regex: new RegExp(`^${source}$`), literal: text.replace(PLACEHOLDER, '').length });
  }
  // The most specific template first: "上游返回 HTTP {status}：{detail}" before "上游返回 HTTP {status}".
  patterns.sort((a, b) => b.literal - a.literal);
  return { staticTexts, patterns };
}

/**
 * The code and parameters of a text this registry produced, if it did (exact texts first, then the
 * most specific template). Used for messages that travel as text: zod's, option rules', REST answers.
 */
export function matchServerText(text: string): ServerMessage | undefined {
  const { staticTexts, patterns } = index();
  const exact = staticTexts.get(text);
  if (exact) return { code: exact, params: {} };
  for (const p of patterns) {
    const m = p.regex.exec(text);
    if (!m) continue;
    const params: Record<string, string> = {};
    p.names.forEach((name, i) => (params[name] = m[i + 1]));
    return { code: p.code, params };
  }
  return undefined;
}

/** A text as a message: its own code when it is one of ours, else passed on as it came. */
export const messageOfText = (text: string): ServerMessage =>
  matchServerText(text) ?? { code: 'common.text', params: { text } };
