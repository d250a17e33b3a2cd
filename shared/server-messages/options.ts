/**
 * Site options (server/domains/options/, shared/options.ts, shared/options-console.ts). Joined with the other
 * areas by shared/server-messages.ts.
 */
export const optionsMessages = {
  // new-api's 2026 console's settings (issue 32)
  'option.compliance_key': '合规确认字段不允许通过通用设置接口修改',
  'option.compliance_confirm': '请确认合规声明',
  'option.no_disk_cache': 'Switchyard 不使用磁盘缓存：请求体在内存中转发，无需开启',
  'option.no_load_shedding': 'Switchyard 不按 CPU、内存或磁盘占用拒绝请求：请用每 IP 与每模型的速率限制',

  // The channel-affinity cache (options/affinity-cache.service.ts)
  'affinity.clear_needs_param': '缺少参数：rule_name，或使用 all=true 清空全部',
  'affinity.key_fp_required': '缺少参数：key_fp',

  // Option rules
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
  'option.rate_positive': '汇率必须大于 0',
  'option.currency_symbol_required': '请填写货币符号',
  'option.currency_symbol_too_long': '货币符号最多 8 个字符',
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
} as const;
