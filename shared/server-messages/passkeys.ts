/** Passkeys, WebAuthn (server/domains/passkeys/). Joined with the other areas by shared/server-messages.ts. */
export const passkeysMessages = {
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
} as const;
