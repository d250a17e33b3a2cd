/**
 * Model mapping (server/domains/model-mapping/, shared/schemas/model-mapping.ts). Joined with the other areas by
 * shared/server-messages.ts.
 */
export const modelMappingMessages = {
  'mapping.virtual_required': '虚拟模型名称不能为空',
  'mapping.virtual_duplicate': '虚拟模型名称已存在',
  'mapping.real_required': '真实模型名称不能为空',
  'mapping.real_duplicate': '真实模型名称重复',
  'mapping.at_least_one': '至少需要一个真实模型',
  'mapping.priority': '优先级必须是不小于 0 的整数',
  'mapping.format': '映射格式错误',
} as const;
