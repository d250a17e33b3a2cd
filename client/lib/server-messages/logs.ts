import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { logsMessages } from '../../../shared/server-messages/logs.ts';

/**
 * Logs: the log pages' refusals and the usage-log lines the server writes (log `content`; the console renders them
 * from the code), written by the domains that charge or credit (billing, topup, redemptions, subscriptions,
 * checkin, users, the task relays): in English. Joined by client/lib/server-messages.ts.
 */
export const logsDescriptors: Record<keyof typeof logsMessages, MessageDescriptor> = {
  'log.pick_time': msg({ context: 'log.pick_time', message: 'Choose a log time' }),
  'log.target_required': msg({ context: 'log.target_required', message: 'Give a target timestamp' }),
  'log.span_too_long': msg({ context: 'log.span_too_long', message: 'The time span cannot be longer than 1 month' }),
  'log.range_inverted': msg({
    context: 'log.range_inverted',
    message: 'The start time cannot be later than the end time',
  }),
  'log.redeemed': msg({ context: 'log.redeemed', message: 'Topped up {amount} with a redemption code' }),
  'log.online_topup': msg({ context: 'log.online_topup', message: 'Online top-up of {amount}, paid {money}' }),
  'log.admin_topup': msg({
    context: 'log.admin_topup',
    message: 'Order completed by an administrator: {amount}, paid {money}',
  }),
  'log.subscription_purchased': msg({
    context: 'log.subscription_purchased',
    message: 'Subscribed to {plan}: {amount} for this period, paid {money} by {method}',
  }),
  'log.subscription_granted': msg({
    context: 'log.subscription_granted',
    message: 'An administrator gave the plan {plan}: {amount} for this period',
  }),
  'log.subscription_balance_paid': msg({
    context: 'log.subscription_balance_paid',
    message: 'Paid {amount} from the balance for the plan {plan}',
  }),
  'log.subscription_reset': msg({
    context: 'log.subscription_reset',
    message: 'Subscription quota renewed for {plan}: {amount} for this period',
  }),
  'log.checkin': msg({ context: 'log.checkin', message: 'Check-in reward: {amount}' }),
  'log.new_user_gift': msg({ context: 'log.new_user_gift', message: 'Welcome gift for a new user: {amount}' }),
  'log.invitee_gift': msg({ context: 'log.invitee_gift', message: 'Gift for using an invitation code: {amount}' }),
  'log.inviter_gift': msg({ context: 'log.inviter_gift', message: 'Gift for inviting a user: {amount}' }),
  'log.admin_quota_change': msg({
    context: 'log.admin_quota_change',
    message: 'An administrator changed the quota from {from} to {to}',
  }),
  'log.price_mode_free': msg({
    context: 'log.price_mode_free',
    message: 'Model price {price}, group ratio {group_ratio}, no tokens so nothing charged',
  }),
  'log.ratio_mode_free': msg({
    context: 'log.ratio_mode_free',
    message:
      'Model ratio {model_ratio}, completion ratio {completion_ratio}, group ratio {group_ratio}, no tokens so nothing charged',
  }),
  'log.paid_from_plan': msg({ context: 'log.paid_from_plan', message: '{line}, paid from plan {title}' }),
  'log.paid_from_subscription': msg({
    context: 'log.paid_from_subscription',
    message: '{line}, paid from a subscription',
  }),
  'log.price_mode': msg({ context: 'log.price_mode', message: 'Model price {price}, group ratio {group_ratio}' }),
  'log.ratio_mode': msg({
    context: 'log.ratio_mode',
    message: 'Model ratio {model_ratio}, completion ratio {completion_ratio}, group ratio {group_ratio}',
  }),
  'log.task_submitted': msg({ context: 'log.task_submitted', message: '{platform} {action}, task ID {task_id}' }),
  'log.task_refund_midjourney': msg({
    context: 'log.task_refund_midjourney',
    message: 'Image task {task_id} failed, refunded {amount}; reason: {reason}',
  }),
  'log.task_refund_suno': msg({
    context: 'log.task_refund_suno',
    message: 'Suno task {task_id} failed, refunded {amount}; reason: {reason}',
  }),
  'log.video_reserved': msg({
    context: 'log.video_reserved',
    message: 'Video {model} task {task_id}, {seconds} s: reserved {amount}',
  }),
  'log.video_settled': msg({
    context: 'log.video_settled',
    message: 'Video task {task_id} finished, {seconds} s: reserved {reserved}, charged {charged}, refunded {refunded}',
  }),
  'log.video_refund': msg({
    context: 'log.video_refund',
    message: 'Video task {task_id} failed, refunded {amount}; reason: {reason}',
  }),
  'task.failed': msg({ context: 'task.failed', message: 'Task failed' }),
  'task.timed_out': msg({ context: 'task.timed_out', message: 'Timed out: not finished within {minutes} minutes' }),
  'log.relay_error': msg({ context: 'log.relay_error', message: '{en}' }),
};
