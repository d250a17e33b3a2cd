/**
 * Update check and its notice to root's inbox (server/domains/updates/). Joined with the other areas by
 * shared/server-messages.ts.
 */
export const updatesMessages = {
  // The notice the server sends root's inbox itself (title, then markdown content)
  'notice.update_title': 'Switchyard 有新版本 {version}',
  /** `notes` is empty, or the release notes after a blank line. */
  'notice.update': '当前运行 {current}，最新发布 [{latest}]({url})。{notes}',

  // Update check
  'update.no_feed': '此安装未设置版本更新检查',
  'update.http': '检查更新失败：HTTP {status}',
  'update.too_large': '检查更新失败：响应过大',
  'update.bad_format': '检查更新失败：版本发布源的响应格式不正确',
} as const;
