/**
 * Personal notification settings (server/domains/user-settings/, shared/schemas/user-setting.ts). Joined with the
 * other areas by shared/server-messages.ts.
 */
export const userSettingsMessages = {
  'notify.webhook_https': 'Webhook地址必须以https://开头',
  'notify.type': '通知方式只能是 email 或 webhook',
  'notify.threshold_not_number': '预警阈值必须是数字',
  'notify.threshold_positive': '预警阈值必须大于 0',
  'notify.webhook_too_long': 'Webhook地址过长',
  'notify.secret_too_long': 'Webhook密钥过长',
  'notify.email_format': '通知邮箱格式不正确',
} as const;
