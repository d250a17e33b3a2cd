import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { commonMessages } from '../../../shared/server-messages/common.ts';

/**
 * Any surface: the envelope's and schemas' refusals (server/compat/envelope.ts, server/errors.ts), field names,
 * group descriptions and amounts of quota that other messages take as parameters: in English. Joined by
 * client/lib/server-messages.ts.
 */
export const commonDescriptors: Record<keyof typeof commonMessages, MessageDescriptor> = {
  'common.not_logged_in': msg({
    context: 'common.not_logged_in',
    message: 'Not logged in or the session has expired, please log in again',
  }),
  'common.forbidden': msg({ context: 'common.forbidden', message: 'You do not have permission to do this' }),
  'common.too_many_requests': msg({
    context: 'common.too_many_requests',
    message: 'Too many requests, please try again later',
  }),
  'common.too_many_requests_ip': msg({
    context: 'common.too_many_requests_ip',
    message: 'Too many requests, please try again later',
  }),
  'common.internal': msg({
    context: 'common.internal',
    message: 'Internal server error, please contact the administrator',
  }),
  'common.invalid_json': msg({
    context: 'common.invalid_json',
    message: 'Invalid parameters: the request body is not valid JSON',
  }),
  'common.body_too_large': msg({ context: 'common.body_too_large', message: 'The request body is too large' }),
  'common.body_over_limit': msg({
    context: 'common.body_over_limit',
    message: 'Request body is larger than the limit of {limit}',
  }),
  'common.bad_params': msg({ context: 'common.bad_params', message: 'Invalid parameters' }),
  'common.invalid_params': msg({ context: 'common.invalid_params', message: 'Invalid parameters' }),
  'common.must_be_number': msg({ context: 'common.must_be_number', message: 'The parameter must be a number' }),
  'common.must_be_integer': msg({ context: 'common.must_be_integer', message: 'The parameter must be an integer' }),
  'common.must_be_boolean': msg({ context: 'common.must_be_boolean', message: 'The parameter must be a boolean' }),
  'common.must_be_string': msg({ context: 'common.must_be_string', message: 'The parameter must be a string' }),
  'common.id_not_number': msg({ context: 'common.id_not_number', message: 'The id must be a number' }),
  'common.id_not_integer': msg({ context: 'common.id_not_integer', message: 'The id must be an integer' }),
  'common.id_invalid': msg({ context: 'common.id_invalid', message: 'Invalid id' }),
  'common.select_at_least_one': msg({ context: 'common.select_at_least_one', message: 'Select at least one item' }),
  'common.status_invalid': msg({ context: 'common.status_invalid', message: 'Invalid status' }),
  'common.date_invalid': msg({ context: 'common.date_invalid', message: 'Invalid date' }),
  'common.database_down': msg({ context: 'common.database_down', message: 'Database connection failed' }),
  'common.field_not_string': msg({ context: 'common.field_not_string', message: '{field} must be a string' }),
  'common.field_not_number': msg({ context: 'common.field_not_number', message: '{field} must be a number' }),
  'common.field_not_integer': msg({ context: 'common.field_not_integer', message: '{field} must be an integer' }),
  'common.field_not_timestamp': msg({ context: 'common.field_not_timestamp', message: '{field} must be a timestamp' }),
  'common.field_negative': msg({ context: 'common.field_negative', message: '{field} cannot be negative' }),
  'common.text': msg({ context: 'common.text', message: '{text}' }),
  'common.body_not_json': msg({
    context: 'common.body_not_json',
    message: 'The request body must be JSON (Content-Type: application/json)',
  }),
  'common.bad_content_length': msg({
    context: 'common.bad_content_length',
    message: 'The Content-Length header does not match the request body',
  }),
  'common.bad_request': msg({
    context: 'common.bad_request',
    message: 'The request could not be processed (HTTP {status})',
  }),
  'field.username': msg({ context: 'field.username', message: 'Username' }),
  'field.display_name': msg({ context: 'field.display_name', message: 'Display name' }),
  'field.password': msg({ context: 'field.password', message: 'Password' }),
  'field.confirm_password': msg({ context: 'field.confirm_password', message: 'Password confirmation' }),
  'field.email': msg({ context: 'field.email', message: 'E-mail' }),
  'field.verification_code': msg({ context: 'field.verification_code', message: 'Verification code' }),
  'field.aff_code': msg({ context: 'field.aff_code', message: 'Invitation code' }),
  'field.setup_code': msg({ context: 'field.setup_code', message: 'Setup code' }),
  'field.original_password': msg({ context: 'field.original_password', message: 'Current password' }),
  'field.account_name': msg({ context: 'field.account_name', message: 'Account name' }),
  'field.page': msg({ context: 'field.page', message: 'Page' }),
  'field.page_size': msg({ context: 'field.page_size', message: 'Page size' }),
  'field.keyword': msg({ context: 'field.keyword', message: 'Keyword' }),
  'field.group': msg({ context: 'field.group', message: 'Group' }),
  'field.role': msg({ context: 'field.role', message: 'Role' }),
  'field.quota': msg({ context: 'field.quota', message: 'Quota' }),
  'field.add_quota': msg({ context: 'field.add_quota', message: 'Added quota' }),
  'field.valid_from': msg({ context: 'field.valid_from', message: 'Start time' }),
  'field.valid_until': msg({ context: 'field.valid_until', message: 'Expiry time' }),
  'field.wechat': msg({ context: 'field.wechat', message: 'WeChat' }),
  'group.default_desc': msg({ context: 'group.default_desc', message: 'Default group' }),
  'group.vip_desc': msg({ context: 'group.vip_desc', message: 'VIP group' }),
  'group.own_desc': msg({ context: 'group.own_desc', message: 'Your group' }),
  'quota.points': msg({ context: 'quota.points', message: '{amount} quota points' }),
  'quota.dollars': msg({ context: 'quota.dollars', message: '${amount} of quota' }),
  'quota.dollars_wide': msg({ context: 'quota.dollars_wide', message: '${amount} of quota' }),
  'quota.plain': msg({ context: 'quota.plain', message: '{amount} quota' }),
  'common.quota_negative': msg({ context: 'common.quota_negative', message: 'The quota cannot be negative' }),
  'common.quota_not_integer': msg({ context: 'common.quota_not_integer', message: 'The quota must be an integer' }),
};
