import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { optionsMessages } from '../../../shared/server-messages/options.ts';

/**
 * Site options (server/domains/options/, shared/options.ts, shared/options-console.ts): in English. Joined by
 * client/lib/server-messages.ts.
 */
export const optionsDescriptors: Record<keyof typeof optionsMessages, MessageDescriptor> = {
  'option.compliance_key': msg({
    context: 'option.compliance_key',
    message: 'The compliance confirmation cannot be changed through the general settings call',
  }),
  'option.compliance_confirm': msg({
    context: 'option.compliance_confirm',
    message: 'Please confirm the compliance statement',
  }),
  'option.no_disk_cache': msg({
    context: 'option.no_disk_cache',
    message: 'Switchyard uses no disk cache: request bodies are relayed in memory, there is nothing to turn on',
  }),
  'option.no_load_shedding': msg({
    context: 'option.no_load_shedding',
    message: 'Switchyard does not refuse requests by CPU, memory or disk use: use the per-IP and per-model rate limits',
  }),
  'affinity.clear_needs_param': msg({
    context: 'affinity.clear_needs_param',
    message: 'Missing parameter: rule_name, or all=true to clear everything',
  }),
  'affinity.key_fp_required': msg({ context: 'affinity.key_fp_required', message: 'Missing parameter: key_fp' }),
  'option.github_needs_config': msg({
    context: 'option.github_needs_config',
    message: 'GitHub OAuth cannot be turned on: enter the GitHub Client Id and Client Secret first',
  }),
  'option.linuxdo_needs_config': msg({
    context: 'option.linuxdo_needs_config',
    message: 'LinuxDO OAuth cannot be turned on: enter the LinuxDO Client Id and Client Secret first',
  }),
  'option.oidc_needs_config': msg({
    context: 'option.oidc_needs_config',
    message: 'OIDC login cannot be turned on: enter the OIDC Client Id, Client Secret and Well-Known URL first',
  }),
  'option.wechat_needs_config': msg({
    context: 'option.wechat_needs_config',
    message: 'WeChat login cannot be turned on: enter the WeChat login settings first',
  }),
  'option.turnstile_needs_config': msg({
    context: 'option.turnstile_needs_config',
    message: 'Turnstile cannot be turned on: enter the Turnstile settings first',
  }),
  'option.telegram_needs_config': msg({
    context: 'option.telegram_needs_config',
    message: 'Telegram OAuth cannot be turned on: enter the Telegram Bot Token and Bot Name first',
  }),
  'option.email_domains_needs_config': msg({
    context: 'option.email_domains_needs_config',
    message: 'The e-mail domain restriction cannot be turned on: enter the allowed domains first',
  }),
  'option.server_address_first': msg({
    context: 'option.server_address_first',
    message: 'Enter the server address first',
  }),
  'option.fallback_pricing': msg({
    context: 'option.fallback_pricing',
    message:
      'Check the fallback pricing: with a single price no ratios may be set, and ratios need both the input and the completion ratio',
  }),
  'option.ratios_reset': msg({ context: 'option.ratios_reset', message: 'Model ratios reset' }),
  'option.json_invalid': msg({ context: 'option.json_invalid', message: 'Not a valid JSON string' }),
  'option.json_invalid_detail': msg({
    context: 'option.json_invalid_detail',
    message: 'Not a valid JSON string: {detail}',
  }),
  'option.boolean': msg({ context: 'option.boolean', message: 'A boolean can only be true or false' }),
  'option.range': msg({ context: 'option.range', message: 'The value must be between {min} and {max}' }),
  'option.min': msg({ context: 'option.min', message: 'The value cannot be less than {min}' }),
  'option.enter_number': msg({ context: 'option.enter_number', message: 'Enter a number' }),
  'option.enter_integer': msg({ context: 'option.enter_integer', message: 'Enter an integer' }),
  'option.one_of': msg({ context: 'option.one_of', message: 'Must be one of {values}' }),
  'option.http_url': msg({ context: 'option.http_url', message: 'The address must start with http:// or https://' }),
  'option.path_or_url': msg({
    context: 'option.path_or_url',
    message: 'Enter a path starting with /, or an address starting with http:// or https://',
  }),
  'option.ratio_negative': msg({ context: 'option.ratio_negative', message: 'A ratio cannot be negative' }),
  'option.status_codes': msg({
    context: 'option.status_codes',
    message: 'Invalid status codes, e.g. 5xx,4xx or 429,500-503',
  }),
  'option.domain_invalid': msg({
    context: 'option.domain_invalid',
    message: '{domain} is not a valid domain, e.g. example.com',
  }),
  'option.domain_duplicate': msg({ context: 'option.domain_duplicate', message: '{domain} is listed twice' }),
  'option.rebate_range': msg({
    context: 'option.rebate_range',
    message: 'The rebate percentage must be between 0 and 100',
  }),
  'option.export_interval_min': msg({
    context: 'option.export_interval_min',
    message: 'The smallest interval is 1 minute',
  }),
  'option.trust_level_range': msg({
    context: 'option.trust_level_range',
    message: 'The trust level must be an integer from 0 to 4',
  }),
  'option.well_known_url': msg({
    context: 'option.well_known_url',
    message: 'The Well-Known URL must start with http:// or https://',
  }),
  'option.oidc_discovery_http': msg({
    context: 'option.oidc_discovery_http',
    message: 'Could not get the OIDC configuration: HTTP {status}',
  }),
  'option.oidc_discovery_too_large': msg({
    context: 'option.oidc_discovery_too_large',
    message: 'Could not get the OIDC configuration: the answer is too large',
  }),
  'option.oidc_discovery_not_json': msg({
    context: 'option.oidc_discovery_not_json',
    message: 'Could not get the OIDC configuration: the answer is not valid JSON',
  }),
  'option.oidc_discovery_incomplete': msg({
    context: 'option.oidc_discovery_incomplete',
    message: 'Could not get the OIDC configuration: the answer has no authorization_endpoint or token_endpoint',
  }),
};
