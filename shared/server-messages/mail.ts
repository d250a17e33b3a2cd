/**
 * E-mail flows and the mailer (server/domains/mail/, server/domains/auth/mail-flows.service.ts). Joined with the
 * other areas by shared/server-messages.ts.
 */
export const mailMessages = {
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
} as const;
