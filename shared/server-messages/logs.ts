/**
 * Logs: the log pages' refusals and the usage-log lines the server writes (log `content`; the console renders them
 * from the code), written by the domains that charge or credit (billing, topup, redemptions, subscriptions,
 * checkin, users, the task relays). Joined with the other areas by shared/server-messages.ts.
 */
export const logsMessages = {
  // The log pages' refusals
  'log.pick_time': '请选择日志时间',
  'log.target_required': '请指定目标时间戳',
  'log.span_too_long': '时间跨度不能超过 1 个月',
  'log.range_inverted': '开始时间不能晚于结束时间',
  // Usage-log lines the server writes (log `content`; the console renders them from the code)
  'log.redeemed': '通过兑换码充值 {amount}',
  'log.online_topup': '使用在线充值成功，充值金额: {amount}，支付金额：{money}',
  'log.admin_topup': '管理员补单成功，充值金额: {amount}，支付金额：{money}',
  'log.subscription_purchased': '订阅购买成功，套餐: {plan}，本期额度: {amount}，支付金额: {money}，支付方式: {method}',
  'log.subscription_granted': '管理员开通订阅，套餐: {plan}，本期额度: {amount}',
  'log.subscription_balance_paid': '使用余额购买订阅，套餐: {plan}，扣除额度: {amount}',
  'log.subscription_reset': '订阅额度重置，套餐: {plan}，本期额度: {amount}',
  'log.checkin': '签到获得 {amount}',
  'log.new_user_gift': '新用户注册赠送 {amount} 额度',
  'log.invitee_gift': '使用邀请码赠送 {amount} 额度',
  'log.inviter_gift': '邀请用户赠送 {amount} 额度',
  'log.admin_quota_change': '管理员将用户额度从 {from} 修改为 {to}',
  'log.price_mode': '模型价格 {price}，分组倍率 {group_ratio}',
  'log.ratio_mode': '模型倍率 {model_ratio}，补全倍率 {completion_ratio}，分组倍率 {group_ratio}',
  // The relay's line for an answer with no tokens at all (relay/relay-log.ts).
  'log.price_mode_free': '模型价格 {price}，分组倍率 {group_ratio}，零 token 不计费',
  'log.ratio_mode_free': '模型倍率 {model_ratio}，补全倍率 {completion_ratio}，分组倍率 {group_ratio}，零 token 不计费',
  // A consume line paid from a subscription's pool, not the wallet (billing/settle.service.ts, issue 39).
  'log.paid_from_plan': '{line}，由订阅套餐「{title}」支付',
  'log.paid_from_subscription': '{line}，由订阅支付',
  // Task relays (Midjourney, Suno): the submission's consume line and a failed task's refund line.
  'log.task_submitted': '{platform} {action}，任务 ID {task_id}',
  'log.task_refund_midjourney': '构图失败 {task_id}，补偿 {amount} 额度，原因：{reason}',
  'log.task_refund_suno': 'Suno 任务失败 {task_id}，补偿 {amount} 额度，原因：{reason}',
  // Video jobs (relay/tasks/video, issue 40): reserved at submit, settled on what was produced, refunded on failure.
  'log.video_reserved': '视频 {model} 任务 {task_id}，{seconds} 秒，预扣 {amount}',
  'log.video_settled': '视频任务 {task_id} 完成，{seconds} 秒，预扣 {reserved}，实扣 {charged}，退还差额 {refunded}',
  'log.video_refund': '视频任务 {task_id} 失败，退还 {amount}，原因：{reason}',
  /** A task's failure reason when the upstream gave none (the task's `fail_reason`, a refund line's reason). */
  'task.failed': '任务失败',
  /** A task (video, Midjourney, Suno) the poller ended because it ran past TaskTimeoutMinutes (its fail_reason and refund reason). */
  'task.timed_out': '任务超时：{minutes} 分钟内未完成',
  /**
   * An error log row's reason worded by the relay in both languages (relay/error-log.ts): `content` is
   * the Chinese, and the console shows `en` in English. Never recognised by its text (it is any text).
   */
  'log.relay_error': '{zh}',
} as const;
