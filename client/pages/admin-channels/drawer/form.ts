import { ChannelType, channelTypeInfo } from '../../../../shared/channel-types.ts';
import { DEFAULT_GROUP } from '../../../../shared/constants.ts';
import { isChannelBaseUrl, isJsonObjectText } from '../../../../shared/schemas/channels.ts';
import type { ChannelRow } from '../types.ts';

/** How several keys are stored on create: one channel each, or all in one channel. */
export type MultiKeyMode = 'batch' | 'multi_to_single';

export interface ChannelFormValues {
  type: number;
  name: string;
  base_url: string;
  key: string;
  multiKey: boolean;
  multiKeyMode: MultiKeyMode;
  /** How a multi-key channel picks its keys: at random or in turn (channel_info.multi_key_mode). */
  keySelection: 'random' | 'polling';
  openai_organization: string;
  models: string[];
  model_mapping: string;
  groups: string[];
  tag: string;
  priority: number | string;
  weight: number | string;
  auto_ban: boolean;
  test_model: string;
  model_prefix: string;
  system_prompt: string;
  status_code_mapping: string;
  setting: string;
  param_override: string;
  other: string;
}

/** Spec §9 channel defaults: type 1, auto_ban on, group default, priority 0, weight 0. */
export const emptyChannel = (): ChannelFormValues => ({
  type: ChannelType.OpenAI,
  name: '',
  base_url: '',
  key: '',
  multiKey: false,
  multiKeyMode: 'batch',
  keySelection: 'random',
  openai_organization: '',
  models: [...(channelTypeInfo(ChannelType.OpenAI)?.defaultModels ?? [])],
  model_mapping: '',
  groups: [DEFAULT_GROUP],
  tag: '',
  priority: 0,
  weight: 0,
  auto_ban: true,
  test_model: '',
  model_prefix: '',
  system_prompt: '',
  status_code_mapping: '',
  setting: '',
  param_override: '',
  other: '',
});

const csv = (v: string | null | undefined) =>
  (v ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

export function valuesFromChannel(c: ChannelRow): ChannelFormValues {
  return {
    ...emptyChannel(),
    type: c.type,
    name: c.name,
    base_url: c.base_url ?? '',
    key: '',
    multiKey: c.channel_info?.is_multi_key ?? false,
    keySelection: c.channel_info?.multi_key_mode ?? 'random',
    openai_organization: c.openai_organization ?? '',
    models: csv(c.models),
    model_mapping: c.model_mapping ?? '',
    groups: csv(c.group),
    tag: c.tag ?? '',
    priority: c.priority,
    weight: c.weight,
    auto_ban: c.auto_ban === 1,
    test_model: c.test_model ?? '',
    model_prefix: c.model_prefix ?? '',
    system_prompt: c.system_prompt ?? '',
    status_code_mapping: c.status_code_mapping ?? '',
    setting: c.setting ?? '',
    param_override: c.param_override ?? '',
    other: c.other,
  };
}

/** Keys split on commas and new lines (the multi-key view keeps one per line). */
export const splitKeys = (text: string) =>
  text
    .split(/[\n,]/)
    .map((s) => s.trim())
    .filter(Boolean);

/** Types without a base URL field: Bedrock and Vertex AI take their region in `other`. */
export const hasBaseUrl = (type: number) => type !== 33 && type !== ChannelType.VertexAI;
/** Vertex AI keys are service-account JSON: never several keys. */
export const hasMultiKey = (type: number) => type !== ChannelType.VertexAI;
export type Problem =
  'nameAndKey' | 'noModel' | 'modelMapping' | 'statusCodeMapping' | 'setting' | 'paramOverride' | 'other' | 'priority';

/** The spec §5 rules, in the order new-api checks them; the first problem, or null. */
export function problemOf(v: ChannelFormValues, creating: boolean): Problem | null {
  if (creating && (!v.name.trim() || !v.key.trim())) return 'nameAndKey';
  if (v.models.length === 0) return 'noModel';
  if (!isJsonObjectText(v.model_mapping)) return 'modelMapping';
  if (!isJsonObjectText(v.status_code_mapping)) return 'statusCodeMapping';
  if (!isJsonObjectText(v.setting)) return 'setting';
  if (!isJsonObjectText(v.param_override)) return 'paramOverride';
  if (v.type === ChannelType.VertexAI && v.other.trim().startsWith('{') && !isJsonObjectText(v.other)) return 'other';
  if (Number(v.priority) < -999) return 'priority';
  return null;
}

/** The base URL as it will be sent is empty (the type's default) or http(s)://host[:port][/path]. */
export const baseUrlProblem = (v: Pick<ChannelFormValues, 'type' | 'base_url'>): boolean => {
  const url = v.base_url.trim().replace(/\/+$/, '');
  return hasBaseUrl(v.type) && url !== '' && !isChannelBaseUrl(url);
};

/** A base URL ending in /v1 usually doubles the path; the form asks before saving it. */
export const baseUrlEndsInV1 = (url: string) => /\/v1\/*$/.test(url.trim());

const int = (v: number | string) => Math.trunc(Number(v)) || 0;

/** The wire body: trailing slash stripped, type 18 defaulted to v2.1, weight at least 0. */
export function toChannelInput(v: ChannelFormValues) {
  const key = v.multiKey ? splitKeys(v.key).join('\n') : v.key.trim();
  const other = v.type === ChannelType.XunfeiSpark && !v.other.trim() ? 'v2.1' : v.other.trim();
  return {
    type: v.type,
    name: v.name.trim(),
    base_url: hasBaseUrl(v.type) ? v.base_url.trim().replace(/\/+$/, '') : '',
    key,
    openai_organization: v.openai_organization.trim(),
    models: v.models.join(','),
    model_mapping: v.model_mapping.trim(),
    groups: v.groups.length ? v.groups : [DEFAULT_GROUP],
    tag: v.tag.trim(),
    priority: Math.max(-999, int(v.priority)),
    weight: Math.max(0, int(v.weight)),
    auto_ban: v.auto_ban ? 1 : 0,
    test_model: v.test_model.trim(),
    model_prefix: v.model_prefix.trim(),
    system_prompt: v.system_prompt,
    status_code_mapping: v.status_code_mapping.trim(),
    setting: v.setting.trim(),
    param_override: v.param_override.trim(),
    other,
    // Only a channel holding several keys has a key selection (sent as new-api's top-level field).
    ...(v.multiKey ? { multi_key_mode: v.keySelection } : {}),
  };
}
