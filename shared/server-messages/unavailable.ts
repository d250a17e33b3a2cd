/**
 * new-api features answered as not available (server/compat/not-available.ts; server/domains/status/, auth/,
 * channels/, issue 32). Joined with the other areas by shared/server-messages.ts.
 */
export const unavailableMessages = {
  'compat.codex_unavailable': 'Switchyard 不支持 Codex OAuth 渠道凭据，请使用 API 密钥',
  'compat.ollama_unavailable': 'Switchyard 不管理 Ollama 服务器上的模型，请在 Ollama 上直接拉取或删除',
  'compat.upstream_updates_unavailable': '暂不支持检测上游模型更新，请在编辑渠道时使用“获取模型列表”',
  'compat.external_login_unavailable': 'Switchyard 不支持自定义 OAuth 的 JWT 或请求头登录',
  'feature.deployments_unavailable': 'Switchyard 不接入 io.net 模型部署（new-api 托管的服务）',
  'feature.ratio_sync_unavailable': 'Switchyard 不从其他网关同步倍率：请在倍率设置中编辑，或开启公开倍率供其他网关拉取',
  'feature.custom_oauth_unavailable': 'Switchyard 不支持自定义 OAuth 提供商：请在系统设置中配置 OIDC 登录',
  'feature.gc_unavailable': '当前进程未开放手动垃圾回收',
} as const;
