/**
 * A failed connection, as a sentence (server/net-failure.ts). Joined with the other areas by shared/server-
 * messages.ts.
 */
export const netMessages = {
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
} as const;
