import type { optionsMessages } from '../server-messages/options.ts';

/**
 * Site options (server/domains/options/, shared/options.ts, shared/options-console.ts): in English. Joined by shared/server-messages-en.ts.
 */
export const optionsEnglish: Record<keyof typeof optionsMessages, string> = {
  'option.compliance_key': 'The compliance confirmation cannot be changed through the general settings call',
  'option.compliance_confirm': 'Please confirm the compliance statement',
  'option.no_disk_cache':
    'Switchyard uses no disk cache: request bodies are relayed in memory, there is nothing to turn on',
  'option.no_load_shedding':
    'Switchyard does not refuse requests by CPU, memory or disk use: use the per-IP and per-model rate limits',
  'affinity.clear_needs_param': 'Missing parameter: rule_name, or all=true to clear everything',
  'affinity.key_fp_required': 'Missing parameter: key_fp',
  'option.github_needs_config': 'GitHub OAuth cannot be turned on: enter the GitHub Client Id and Client Secret first',
  'option.linuxdo_needs_config':
    'LinuxDO OAuth cannot be turned on: enter the LinuxDO Client Id and Client Secret first',
  'option.oidc_needs_config':
    'OIDC login cannot be turned on: enter the OIDC Client Id, Client Secret and Well-Known URL first',
  'option.wechat_needs_config': 'WeChat login cannot be turned on: enter the WeChat login settings first',
  'option.turnstile_needs_config': 'Turnstile cannot be turned on: enter the Turnstile settings first',
  'option.telegram_needs_config': 'Telegram OAuth cannot be turned on: enter the Telegram Bot Token and Bot Name first',
  'option.email_domains_needs_config':
    'The e-mail domain restriction cannot be turned on: enter the allowed domains first',
  'option.server_address_first': 'Enter the server address first',
  'option.fallback_pricing':
    'Check the fallback pricing: with a single price no ratios may be set, and ratios need both the input and the completion ratio',
  'option.ratios_reset': 'Model ratios reset',
  'option.json_invalid': 'Not a valid JSON string',
  'option.json_invalid_detail': 'Not a valid JSON string: {detail}',
  'option.boolean': 'A boolean can only be true or false',
  'option.range': 'The value must be between {min} and {max}',
  'option.min': 'The value cannot be less than {min}',
  'option.enter_number': 'Enter a number',
  'option.enter_integer': 'Enter an integer',
  'option.rate_positive': 'The exchange rate must be above 0',
  'option.currency_symbol_required': 'Enter a currency symbol',
  'option.currency_symbol_too_long': 'A currency symbol has at most 8 characters',
  'option.one_of': 'Must be one of {values}',
  'option.http_url': 'The address must start with http:// or https://',
  'option.path_or_url': 'Enter a path starting with /, or an address starting with http:// or https://',
  'option.ratio_negative': 'A ratio cannot be negative',
  'option.status_codes': 'Invalid status codes, e.g. 5xx,4xx or 429,500-503',
  'option.domain_invalid': '{domain} is not a valid domain, e.g. example.com',
  'option.domain_duplicate': '{domain} is listed twice',
  'option.rebate_range': 'The rebate percentage must be between 0 and 100',
  'option.export_interval_min': 'The smallest interval is 1 minute',
  'option.trust_level_range': 'The trust level must be an integer from 0 to 4',
  'option.well_known_url': 'The Well-Known URL must start with http:// or https://',
  'option.oidc_discovery_http': 'Could not get the OIDC configuration: HTTP {status}',
  'option.oidc_discovery_too_large': 'Could not get the OIDC configuration: the answer is too large',
  'option.oidc_discovery_not_json': 'Could not get the OIDC configuration: the answer is not valid JSON',
  'option.oidc_discovery_incomplete':
    'Could not get the OIDC configuration: the answer has no authorization_endpoint or token_endpoint',
};
