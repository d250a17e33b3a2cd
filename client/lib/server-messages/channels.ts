import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { channelsMessages } from '../../../shared/server-messages/channels.ts';

/**
 * Channels, multi-key channels and the channel-disabled notice (server/domains/channels/): in English. Joined by
 * client/lib/server-messages.ts.
 */
export const channelsDescriptors: Record<keyof typeof channelsMessages, MessageDescriptor> = {
  'channel.key_revealed': msg({ context: 'channel.key_revealed', message: 'Key fetched' }),
  'channel.not_found': msg({
    context: 'channel.not_found',
    message: 'The channel does not exist, refresh and try again',
  }),
  'channel.name_and_key': msg({ context: 'channel.name_and_key', message: 'Enter the channel name and key' }),
  'channel.no_model': msg({ context: 'channel.no_model', message: 'Select at least one model' }),
  'channel.model_mapping_json': msg({
    context: 'channel.model_mapping_json',
    message: 'The model mapping must be valid JSON',
  }),
  'channel.status_code_mapping_json': msg({
    context: 'channel.status_code_mapping_json',
    message: 'The status code mapping must be valid JSON',
  }),
  'channel.setting_json': msg({
    context: 'channel.setting_json',
    message: 'The extra channel settings must be valid JSON',
  }),
  'channel.auto_cache_control': msg({
    context: 'channel.auto_cache_control',
    message: 'auto_cache_control in the extra channel settings must be true or false',
  }),
  'channel.param_override_json': msg({
    context: 'channel.param_override_json',
    message: 'The parameter override must be valid JSON',
  }),
  'channel.vertex_other_json': msg({
    context: 'channel.vertex_other_json',
    message: 'The deployment regions must be valid JSON',
  }),
  'channel.priority_min': msg({ context: 'channel.priority_min', message: 'The priority cannot be less than -999' }),
  'channel.priority_not_integer': msg({
    context: 'channel.priority_not_integer',
    message: 'The priority must be an integer',
  }),
  'channel.weight_not_integer': msg({
    context: 'channel.weight_not_integer',
    message: 'The weight must be an integer',
  }),
  'channel.weight_negative': msg({
    context: 'channel.weight_negative',
    message: 'The weight must be a non-negative integer',
  }),
  'channel.model_name_too_long': msg({
    context: 'channel.model_name_too_long',
    message: 'A model name is too long (at most 255 characters)',
  }),
  'channel.name_too_long': msg({ context: 'channel.name_too_long', message: 'The channel name is too long' }),
  'channel.type_invalid': msg({ context: 'channel.type_invalid', message: 'Invalid channel type' }),
  'channel.kling_key_format': msg({
    context: 'channel.kling_key_format',
    message: 'A Kling key is AccessKey|SecretKey: the two joined by |',
  }),
  'channel.jimeng_key_format': msg({
    context: 'channel.jimeng_key_format',
    message: 'A Jimeng key is AccessKeyID|SecretAccessKey: the two joined by |',
  }),
  'channel.enter_key': msg({ context: 'channel.enter_key', message: 'Enter the key' }),
  'channel.enter_base_url': msg({ context: 'channel.enter_base_url', message: 'Enter the channel base URL' }),
  'channel.base_url_invalid': msg({
    context: 'channel.base_url_invalid',
    message: 'The base URL must start with http:// or https://, for example https://api.example.com',
  }),
  'channel.enter_tag': msg({ context: 'channel.enter_tag', message: 'Enter the tag' }),
  'channel.select_first': msg({ context: 'channel.select_first', message: 'Select channels first' }),
  'channel.tag_not_found': msg({ context: 'channel.tag_not_found', message: 'The tag does not exist' }),
  'channel.no_changes': msg({ context: 'channel.no_changes', message: 'Nothing was changed' }),
  'channel.no_test_model': msg({ context: 'channel.no_test_model', message: 'This channel has no model to test with' }),
  'channel.untestable': msg({ context: 'channel.untestable', message: 'Channels of this type cannot be tested yet' }),
  'channel.test_running': msg({
    context: 'channel.test_running',
    message: 'A channel test is already running, please try again later',
  }),
  'channel.test_too_slow': msg({
    context: 'channel.test_too_slow',
    message: 'Response time {seconds}s is over the threshold of {threshold}s',
  }),
  'channel.test_build_failed': msg({
    context: 'channel.test_build_failed',
    message: 'Could not build the upstream request: {reason}',
  }),
  'channel.balance_unsupported': msg({
    context: 'channel.balance_unsupported',
    message: 'Balance queries are not supported for this channel type',
  }),
  'channel.balance_unreadable': msg({
    context: 'channel.balance_unreadable',
    message: 'The balance the upstream returned could not be read',
  }),
  'channel.models_failed': msg({
    context: 'channel.models_failed',
    message: 'Fetching the model list failed: {reason}',
  }),
  'channel.upstream_status': msg({
    context: 'channel.upstream_status',
    message: 'The upstream answered HTTP {status}',
  }),
  'channel.upstream_status_detail': msg({
    context: 'channel.upstream_status_detail',
    message: 'The upstream answered HTTP {status}: {detail}',
  }),
  'channel.upstream_unreachable': msg({
    context: 'channel.upstream_unreachable',
    message: 'The request to the upstream failed: {reason}',
  }),
  'channel.not_multi_key': msg({
    context: 'channel.not_multi_key',
    message: 'This channel does not hold several keys',
  }),
  'channel.key_index_missing': msg({ context: 'channel.key_index_missing', message: 'No key index was given' }),
  'channel.key_index_out_of_range': msg({
    context: 'channel.key_index_out_of_range',
    message: 'The key index is out of range',
  }),
  'channel.no_key_to_disable': msg({
    context: 'channel.no_key_to_disable',
    message: 'There is no enabled key to disable',
  }),
  'channel.no_auto_disabled_key': msg({
    context: 'channel.no_auto_disabled_key',
    message: 'There is no automatically disabled key to delete',
  }),
  'channel.last_key': msg({ context: 'channel.last_key', message: 'The last key cannot be deleted' }),
  'channel.unsupported_action': msg({ context: 'channel.unsupported_action', message: 'Unsupported action' }),
  'channel.keys_changed': msg({
    context: 'channel.keys_changed',
    message: "The channel's keys were changed meanwhile, please refresh and try again",
  }),
  'channel.all_keys_disabled': msg({
    context: 'channel.all_keys_disabled',
    message: 'Every key was disabled automatically; the last one because: {reason}',
  }),
  'demo.disabled': msg({ context: 'demo.disabled', message: 'The demo channel is not turned on (DEMO_CHANNEL)' }),
  'notice.channel_disabled_title': msg({
    context: 'notice.channel_disabled_title',
    message: 'Channel {name} (#{id}) was disabled automatically',
  }),
  'notice.channel_disabled': msg({
    context: 'notice.channel_disabled',
    message: 'Channel **{name}** (#{id}) was disabled automatically at {time}.\n\nReason: {reason}',
  }),
};
