/**
 * Users, their own account and their sign-in bindings (server/domains/users/). Joined with the other areas by
 * shared/server-messages.ts.
 */
export const usersMessages = {
  'user.not_found': '用户不存在',
  'user.password_too_short': '密码长度不得小于 {min} 位',
  'user.password_too_long': '密码长度不得超过 {max} 位',
  'user.username_empty': '用户名不能为空',
  'user.username_too_long': '用户名长度不能超过 {max} 个字符',
  'user.display_name_too_long': '显示名称长度不能超过 {max} 个字符',
  'user.group_name_too_long': '分组名称过长',
  'user.username_taken': '用户名已存在，或已注销',
  'user.email_taken': '邮箱地址已被占用',
  'user.outranked': '无权操作同权限等级或更高权限等级的用户',
  'user.outranked_read': '无权获取同级或更高等级用户的信息',
  'user.outranked_update': '无权更新同权限等级或更高权限等级的用户信息',
  'user.outranked_delete': '无权删除同权限等级或更高权限等级的用户',
  'user.outranked_promote': '无权将其他用户权限等级提升到大于等于自己的权限等级',
  'user.create_outranking': '无法创建权限大于等于自己的用户',
  'user.credentials_required': '用户名和密码不能为空！',
  'user.deleted_no_edit': '用户已注销，无法修改',
  'user.deleted_no_enable': '用户已注销，无法启用',
  'user.quota_too_low_to_deduct': '用户额度不足，无法扣减 {amount}',
  'user.root_no_disable': '无法禁用超级管理员用户',
  'user.root_no_delete': '无法删除超级管理员用户',
  'user.root_no_demote': '无法降级超级管理员用户',
  'user.admin_no_promote': '普通管理员用户无法提升其他用户为管理员',
  'user.already_admin': '该用户已经是管理员',
  'user.already_common': '该用户已经是普通用户',
  'user.invalid_action': '无效的操作',
  'self.wrong_password': '原密码错误',
  'self.confirm_delete': '请输入你的账户名以确认删除',
  'self.root_no_delete': '不能删除超级管理员账户',
  'self.settings_saved': '设置已更新',

  // Sign-in bindings (bindings.service.ts)
  'user.binding_type_invalid': '不支持的绑定类型',
  'oauth.binding_not_found': '未找到该 OAuth 绑定',
} as const;
