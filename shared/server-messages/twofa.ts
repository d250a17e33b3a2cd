/**
 * Two-factor sign-in (TOTP) and the fresh check before sensitive actions, POST /api/verify
 * (server/domains/twofa/). Joined with the other areas by shared/server-messages.ts.
 */
export const twofaMessages = {
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

  // The fresh check before sensitive actions (secure-verify.service.ts)
  'verify.success': '验证成功',
  'verify.method_unsupported': '不支持的验证方式：{method}',
  'verify.code_required': '验证码不能为空',
  'verify.session_required': '当前认证方式不支持安全验证',
  'verify.required': '需要安全验证，请先完成验证',
} as const;
