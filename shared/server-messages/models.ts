/**
 * Model metadata, vendors and prefill groups, the model marketplace (server/domains/models/). Joined with the
 * other areas by shared/server-messages.ts.
 */
export const modelsMessages = {
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
} as const;
