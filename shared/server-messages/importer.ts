/** The console's import from new-api (server/domains/importer/). Joined with the other areas by shared/server-messages.ts. */
export const importerMessages = {
  'importer.busy': '已有一个导入正在进行，请等待它完成后再试',
  'importer.no_source': '请填写数据库连接串，或上传 SQLite 数据库文件',
  'importer.upload_missing': '上传的文件已不存在，请重新上传',
  'importer.upload_too_large': '文件过大，最大 {max}',
  'importer.upload_not_sqlite': '上传的文件不是 SQLite 数据库',
} as const;
