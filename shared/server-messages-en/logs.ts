import type { logsMessages } from '../server-messages/logs.ts';

/**
 * Logs: the log pages' refusals and the usage-log lines the server writes (log `content`; the console renders them
 * from the code), written by the domains that charge or credit (billing, topup, redemptions, subscriptions,
 * checkin, users, the task relays): in English. Joined by shared/server-messages-en.ts.
 */
export const logsEnglish: Record<keyof typeof logsMessages, string> = {
  'log.pick_time': 'Choose a log time',
  'log.target_required': 'Give a target timestamp',
  'log.span_too_long': 'The time span cannot be longer than 1 month',
  'log.range_inverted': 'The start time cannot be later than the end time',
  'log.redeemed': 'Topped up {amount} with a redemption code',
  'log.online_topup': 'Online top-up of {amount}, paid {money}',
  'log.admin_topup': 'Order completed by an administrator: {amount}, paid {money}',
  'log.subscription_purchased': 'Subscribed to {plan}: {amount} for this period, paid {money} by {method}',
  'log.subscription_granted': 'An administrator gave the plan {plan}: {amount} for this period',
  'log.subscription_balance_paid': 'Paid {amount} from the balance for the plan {plan}',
  'log.subscription_reset': 'Subscription quota renewed for {plan}: {amount} for this period',
  'log.checkin': 'Check-in reward: {amount}',
  'log.new_user_gift': 'Welcome gift for a new user: {amount}',
  'log.invitee_gift': 'Gift for using an invitation code: {amount}',
  'log.inviter_gift': 'Gift for inviting a user: {amount}',
  'log.admin_quota_change': 'An administrator changed the quota from {from} to {to}',
  'log.price_mode_free': 'Model price {price}, group ratio {group_ratio}, no tokens so nothing charged',
  'log.ratio_mode_free':
    'Model ratio {model_ratio}, completion ratio {completion_ratio}, group ratio {group_ratio}, no tokens so nothing charged',
  'log.paid_from_plan': '{line}, paid from plan {title}',
  'log.paid_from_subscription': '{line}, paid from a subscription',
  'log.price_mode': 'Model price {price}, group ratio {group_ratio}',
  'log.ratio_mode': 'Model ratio {model_ratio}, completion ratio {completion_ratio}, group ratio {group_ratio}',
  'log.task_submitted': '{platform} {action}, task ID {task_id}',
  'log.task_refund_midjourney': 'Image task {task_id} failed, refunded {amount}; reason: {reason}',
  'log.task_refund_suno': 'Suno task {task_id} failed, refunded {amount}; reason: {reason}',
  'log.video_reserved': 'Video {model} task {task_id}, {seconds} s: reserved {amount}',
  'log.video_settled':
    'Video task {task_id} finished, {seconds} s: reserved {reserved}, charged {charged}, refunded {refunded}',
  'log.video_refund': 'Video task {task_id} failed, refunded {amount}; reason: {reason}',
  'task.failed': 'Task failed',
  'task.timed_out': 'Timed out: not finished within {minutes} minutes',
  'log.relay_error': '{en}',
};
