/**
 * Redemption codes: redeeming one and managing them (server/domains/redemptions/). Joined with the other areas by
 * shared/server-messages.ts.
 */
export const redemptionsMessages = {
  'redeem.enter_code': '请输入兑换码',
  'redeem.invalid': '无效的兑换码',
  'redeem.used': '该兑换码已被使用',
  'redeem.gift_already_used': '您已经使用过该兑换码',
  'redeem.too_many_guesses': '兑换码错误次数过多，请稍后再试',
  'redeem.not_yet_valid': '该兑换码尚未生效',
  'redeem.expired': '该兑换码已过期',

  'redemption.not_found': '兑换码不存在',
  'redemption.key_taken': '该兑换码已存在',
  'redemption.edit_unused_only': '只能编辑未使用的兑换码',
  'redemption.used_no_status': '该兑换码已被使用，无法修改状态',
  'redemption.name_length': '兑换码名称长度必须在1-20之间',
  'redemption.batch_max': '一次兑换码批量生成的个数不能大于 100',
  'redemption.validity_order': '生效时间必须早于过期时间',
  'redemption.quota_positive': '额度必须大于 0',
  'redemption.max_uses_not_integer': '最大使用次数必须是整数',
  'redemption.max_uses_range': '最大使用次数必须为 -1（不限）或正整数',
  'redemption.count_not_integer': '兑换码个数必须是整数',
  'redemption.count_positive': '兑换码个数必须大于 0',
  'redemption.key_too_long': '自定义兑换码不能超过 64 个字符',
  'redemption.key_charset': '自定义兑换码只能包含字母、数字、下划线和连字符',
  'redemption.key_single': '自定义兑换码一次只能生成一个',
  'redemption.select_one': '请至少选择一个兑换码',
  'redemption.enter_name': '请输入兑换码名称',
} as const;
