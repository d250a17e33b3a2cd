import { msg } from '@lingui/core/macro';
import { DEFAULT_RETRY_STATUS_CODES } from '../../../../shared/options.ts';
import type { FieldDef } from '../form/fields.ts';

export const globalFields: FieldDef[] = [
  {
    key: 'global.pass_through_request_enabled',
    kind: 'switch',
    label: msg`Pass requests through unchanged`,
    span: 6,
  },
  { key: 'global.hide_upstream_error_enabled', kind: 'switch', label: msg`Hide upstream error details`, span: 6 },
  {
    key: 'global.block_browser_extension_enabled',
    kind: 'switch',
    label: msg`Block requests from browser extensions`,
    span: 6,
  },
  { key: 'global.rate_limit_exempt_enabled', kind: 'switch', label: msg`Rate-limit exemption`, span: 6 },
  {
    key: 'global.rate_limit_exempt_group',
    kind: 'text',
    label: msg`Group exempt from rate limits`,
    disabledWhen: (v) => v['global.rate_limit_exempt_enabled'] !== 'true',
  },
  { key: 'global.safe_check_exempt_enabled', kind: 'switch', label: msg`Safety-check exemption`, span: 4 },
  {
    key: 'global.safe_check_exempt_group',
    kind: 'text',
    label: msg`Group exempt from safety checks`,
    disabledWhen: (v) => v['global.safe_check_exempt_enabled'] !== 'true',
  },
  { key: 'general_setting.ping_interval_enabled', kind: 'switch', label: msg`Keep-alive ping on streams`, span: 6 },
  {
    key: 'general_setting.ping_interval_seconds',
    kind: 'number',
    label: msg`Ping interval (seconds)`,
    min: 1,
    decimals: 0,
    span: 6,
    disabledWhen: (v) => v['general_setting.ping_interval_enabled'] !== 'true',
  },
];

/**
 * The one retry concept (issue 28): how many other channels a failed request is tried on (RetryTimes;
 * the server keeps its legacy name global.auto_retry_count equal), and which upstream statuses count
 * as failed: the built-in list, or the operator's own when the custom switch is on; and whether a
 * multi-key channel's other keys are tried before another channel (force_channel_switch off).
 */
export const retryFields: FieldDef[] = [
  {
    key: 'RetryTimes',
    kind: 'number',
    label: msg`Other channels to try`,
    description: msg`0 turns failover off`,
    min: 0,
    max: 10,
    decimals: 0,
  },
  {
    key: 'global.auto_retry_enabled',
    kind: 'switch',
    label: msg`Custom list of retried statuses`,
    description: msg`Off: the built-in list`,
  },
  {
    key: 'global.auto_retry_status_codes',
    kind: 'text',
    label: msg`Retried upstream statuses`,
    description: msg`Like 429,5xx or 500-503; empty means every status`,
    placeholder: DEFAULT_RETRY_STATUS_CODES,
    disabledWhen: (v) => v['global.auto_retry_enabled'] !== 'true',
  },
  {
    key: 'global.auto_retry_force_channel_switch',
    kind: 'switch',
    label: msg`Always switch channel`,
    description: msg`Off: a multi-key channel first tries its other keys after a rate limit or a dead key`,
  },
];

/**
 * Session affinity (issue 29; new-api's channel_affinity_setting keys): an agent session's turns go to
 * the channel and key that answered its last one, so the upstream's prompt cache is read, for a TTL
 * renewed by every turn.
 */
export const affinityFields: FieldDef[] = [
  {
    key: 'channel_affinity_setting.enabled',
    kind: 'switch',
    label: msg`Keep each session on one channel and key`,
    description: msg`Off: every request is routed on its own`,
    span: 6,
  },
  {
    key: 'channel_affinity_setting.default_ttl_seconds',
    kind: 'number',
    label: msg`Keep a session for (seconds after its last request)`,
    description: msg`300 matches Anthropic's default cache, 3600 its 1-hour cache and OpenAI's longest in-memory one`,
    min: 60,
    max: 86400,
    decimals: 0,
    span: 6,
    disabledWhen: (v) => v['channel_affinity_setting.enabled'] !== 'true',
  },
];

export const geminiFields: FieldDef[] = [
  { key: 'gemini.safety_settings', kind: 'json', label: msg`Safety settings`, span: 6 },
  { key: 'gemini.version_settings', kind: 'json', label: msg`API version settings`, span: 6 },
  { key: 'gemini.supported_imagine_models', kind: 'json', label: msg`Models that generate images`, span: 6 },
  {
    key: 'gemini.models_supported_thinking_budget',
    kind: 'json',
    label: msg`Models supporting a thinking budget`,
    span: 6,
  },
  { key: 'gemini.thinking_adapter_enabled', kind: 'switch', label: msg`Thinking adapter`, span: 6 },
  {
    key: 'gemini.thinking_adapter_budget_tokens_percentage',
    kind: 'number',
    label: msg`Thinking budget share of max tokens`,
    description: msg`Between 0.002 and 1`,
    min: 0.002,
    max: 1,
    step: 0.1,
    span: 6,
  },
];

export const claudeFields: FieldDef[] = [
  { key: 'claude.model_headers_settings', kind: 'json', label: msg`Extra request headers per model`, span: 6 },
  { key: 'claude.default_max_tokens', kind: 'json', label: msg`Default max tokens per model`, span: 6 },
  { key: 'claude.thinking_adapter_enabled', kind: 'switch', label: msg`Thinking adapter`, span: 6 },
  {
    key: 'claude.thinking_adapter_budget_tokens_percentage',
    kind: 'number',
    label: msg`Thinking budget share of max tokens`,
    description: msg`Between 0.1 and 1`,
    min: 0.1,
    max: 1,
    step: 0.1,
    span: 6,
  },
];
