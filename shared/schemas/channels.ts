import { z } from 'zod';
import { validAutoCacheControl } from '../channel-cache.ts';
import { ChannelType } from '../channel-types.ts';
import { boolish, intish, splitList } from './common.ts';

/*
 * Channel form and API inputs (spec admin-pricing-channels-tokens §5, api-contract §4).
 * Field names are new-api's wire names. Field-level shape and normalisation live in
 * the schema; rules that need several fields (or the stored row on a partial update)
 * are in checkChannelRules(), which the server runs on the merged channel.
 */

export const MESSAGES = {
  nameAndKey: '请填写渠道名称和渠道密钥！',
  noModel: '请至少选择一个模型！',
  modelMapping: '模型映射必须是合法的 JSON 格式！',
  statusCodeMapping: '状态码复写必须是合法的 JSON 格式！',
  setting: '渠道额外设置必须是合法的 JSON 格式！',
  autoCacheControl: '渠道额外设置中的 auto_cache_control 只能是 true 或 false',
  paramOverride: '参数覆盖必须是合法的 JSON 格式！',
  vertexOther: '部署地区必须是合法的 JSON 格式！',
  priority: '优先级不能小于 -999',
  modelName: '模型名称过长，最多 255 个字符',
  fetchKey: '请填写密钥',
  tagRequired: '请填写标签',
  baseUrl: 'Base URL 格式不正确，应以 http:// 或 https:// 开头，例如 https://api.example.com',
  klingKey: '可灵渠道的密钥格式为 AccessKey|SecretKey，两者用 | 分隔',
  jimengKey: '即梦渠道的密钥格式为 AccessKeyID|SecretAccessKey，两者用 | 分隔',
} as const;

/*
 * Types whose key is two credentials joined by "|" (issue 40): Kling signs a JWT with its access and
 * secret keys, Jimeng signs Volcengine V4 requests with an access key id and secret. A key of any other
 * shape can never authenticate, so it is refused on save rather than on the first call.
 */
const PAIR_KEY_TYPES: Partial<Record<number, string>> = {
  [ChannelType.Kling]: MESSAGES.klingKey,
  [ChannelType.Jimeng]: MESSAGES.jimengKey,
};

/** Every key line (one per line on a multi-key channel) is exactly two non-empty parts joined by "|". */
const isPairKey = (key: string) =>
  splitList(key, /\n/).every((line) => {
    const parts = line.split('|');
    return parts.length === 2 && parts.every((p) => p.trim() !== '' && p.trim() === p);
  });

/**
 * A channel's base URL: `http(s)://host[:port][/path]` (issue 28: `localhost:9100` was saved and every
 * call then failed). No query, fragment or credentials; the path may hold anything else. Empty means
 * the type's default and is checked by whoever needs one.
 */
export function isChannelBaseUrl(v: string): boolean {
  if (!/^https?:\/\/[^\s/?#@]+(\/[^\s?#]*)?$/i.test(v)) return false;
  try {
    const u = new URL(v);
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname !== '';
  } catch {
    return false;
  }
}

/** Trimmed, trailing slashes dropped, and refused unless empty or a base URL. */
const baseUrlField = z
  .string()
  .trim()
  .nullish()
  .transform((v) => (v ? v.replace(/\/+$/, '') : v))
  .refine((v) => !v || isChannelBaseUrl(v), MESSAGES.baseUrl);

/** Empty, or the text of a JSON object (arrays and scalars are not mappings). */
export const isJsonObjectText = (v: string | null | undefined): boolean => {
  if (v === null || v === undefined || v.trim() === '') return true;
  try {
    const parsed: unknown = JSON.parse(v);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed);
  } catch {
    return false;
  }
};

/**
 * The text `null` (what JSON.stringify gives for an empty mapping; today's new-api console sends
 * `"model_mapping":"null"`) means "none", as in new-api: it is read as empty.
 */
const jsonText = (message: string) =>
  z
    .preprocess((v) => (typeof v === 'string' && v.trim() === 'null' ? '' : v), z.string().nullish())
    .refine((v) => isJsonObjectText(v), message);

/** An enum field where new-api's consoles send '' for "not chosen". */
const blankAsUnset = <const T extends readonly [string, ...string[]]>(values: T) =>
  z.preprocess((v) => (v === '' ? undefined : v), z.enum(values).nullish());

/** A comma string on the wire; arrays are accepted too and joined. */
const commaList = z
  .union([z.string(), z.array(z.string())])
  .transform((v) => splitList(v).join(','))
  .refine((v) => v.split(',').every((m) => m.length <= 255), MESSAGES.modelName);

/** Every editable channel field; all optional so that PUT can send only what changed. */
export const channelFields = z.object({
  type: intish('渠道类型无效').pipe(z.number().min(0, '渠道类型无效')).optional(),
  name: z.string().trim().max(255, '渠道名称过长').optional(),
  key: z.string().optional(),
  openai_organization: z.string().nullish(),
  test_model: z.string().trim().nullish(),
  base_url: baseUrlField,
  other: z.string().nullish(),
  model_mapping: jsonText(MESSAGES.modelMapping),
  status_code_mapping: jsonText(MESSAGES.statusCodeMapping),
  /** Provider options as JSON; `auto_cache_control`, when present, is a boolean (shared/channel-cache.ts). */
  setting: jsonText(MESSAGES.setting).refine((v) => validAutoCacheControl(v), MESSAGES.autoCacheControl),
  param_override: jsonText(MESSAGES.paramOverride),
  models: commaList.optional(),
  group: commaList.optional(),
  /** A comma string on the wire (admin spec), or an array as newer consoles send it. */
  groups: z.union([z.string(), z.array(z.string())]).nullish(),
  auto_ban: z
    .union([intish(), boolish()])
    .transform((v) => (v === true || v === 1 ? 1 : 0))
    .optional(),
  priority: intish('优先级必须是整数').pipe(z.number().min(-999, MESSAGES.priority)).nullish(),
  weight: intish('权重必须是整数')
    .transform((v) => Math.max(0, v))
    .nullish(),
  tag: z.string().trim().nullish(),
  system_prompt: z.string().nullish(),
  model_prefix: z.string().trim().nullish(),
  max_input_tokens: intish().pipe(z.number().min(0)).nullish(),
  status: intish('状态无效').pipe(z.number().min(0).max(3, '状态无效')).optional(),
  /** A multi-key channel's key selection, new-api's top-level field (stored in channel_info). */
  multi_key_mode: blankAsUnset(['random', 'polling']),
});
export type ChannelFields = z.infer<typeof channelFields>;

/**
 * How a several-key `key` is stored: `batch` makes one channel per line (new-api's
 * behaviour, the default), `multi_to_single` keeps the lines in one channel and the
 * relay picks among them, `single` takes the key text as one key.
 */
export const channelKeyMode = z.enum(['single', 'batch', 'multi_to_single']);
export type ChannelKeyMode = z.infer<typeof channelKeyMode>;

/** POST /api/channel/: the channel itself, or newer consoles' `{mode, channel}`. */
export const createChannelInput = z.preprocess(
  (v) => {
    if (v && typeof v === 'object' && 'channel' in v && typeof (v as { channel: unknown }).channel === 'object') {
      // new-api sends the multi-key selection beside the channel, not in it.
      const { channel, mode, multi_key_mode } = v as { channel: object; mode?: unknown; multi_key_mode?: unknown };
      return { multi_key_mode, ...channel, mode };
    }
    return v;
  },
  channelFields.extend({ mode: channelKeyMode.nullish() }),
);
export type CreateChannelInput = z.infer<typeof createChannelInput>;

export const updateChannelInput = channelFields.extend({
  id: intish('id 无效').pipe(z.number().positive('id 无效')),
  /** new-api: `append` adds the sent keys to a multi-key channel's list; otherwise they replace it. */
  key_mode: blankAsUnset(['append', 'replace']),
});
export type UpdateChannelInput = z.infer<typeof updateChannelInput>;

/** The merged channel that checkChannelRules() looks at. */
export interface ChannelRuleView {
  type: number;
  name: string;
  key: string;
  models: string;
  other: string;
}

/** Cross-field rules of spec §5; returns the first message, or null. */
export function checkChannelRules(c: ChannelRuleView, creating: boolean): string | null {
  if (creating && (c.name.trim() === '' || c.key.trim() === '')) return MESSAGES.nameAndKey;
  if (splitList(c.models).length === 0) return MESSAGES.noModel;
  if (c.type === ChannelType.VertexAI && c.other.trim().startsWith('{') && !isJsonObjectText(c.other))
    return MESSAGES.vertexOther;
  const pairMessage = PAIR_KEY_TYPES[c.type];
  // On an update this is the merged key: a stored one of the wrong shape (imported) cannot authenticate either.
  if (pairMessage && c.key.trim() !== '' && !isPairKey(c.key)) return pairMessage;
  return null;
}

/** Type 18 (Xunfei Spark) keeps its API version in `other`; new-api defaults it to v2.1. */
export const defaultOtherFor = (type: number, other: string | null | undefined): string =>
  type === ChannelType.XunfeiSpark && !other ? 'v2.1' : (other ?? '');

/** new-api's per-key actions on a multi-key channel (POST /api/channel/multi_key/manage); get_key_status reads. */
export const keyActions = [
  'disable_key',
  'enable_key',
  'enable_all_keys',
  'disable_all_keys',
  'delete_key',
  'delete_disabled_keys',
] as const;
export type KeyAction = (typeof keyActions)[number];

export const multiKeyManageInput = z.object({
  channel_id: intish('id 无效').pipe(z.number().positive('id 无效')),
  action: z.string(),
  key_index: intish().nullish(),
  page: intish().nullish(),
  page_size: intish().nullish(),
  status: intish().nullish(),
});

export const listChannelsInput = z.object({
  page: z.number().int().min(1).default(1),
  pageSize: z.number().int().min(1).max(100).default(10),
  idSort: z.boolean().default(false),
  tagMode: z.boolean().default(false),
  keyword: z.string().trim().optional(),
  group: z.string().trim().optional(),
  model: z.string().trim().optional(),
});
export type ListChannelsInput = z.infer<typeof listChannelsInput>;

export const tagInput = z.object({ tag: z.string().trim().min(1, MESSAGES.tagRequired) });

export const batchTagInput = z.object({
  ids: z.array(intish('id 无效')).min(1, '请先选择渠道'),
  tag: z
    .string()
    .trim()
    .nullish()
    .transform((v) => v || null),
});

/** PUT /api/channel/tag: null or absent means "leave unchanged". */
export const editTagInput = z.object({
  tag: z.string().trim().min(1, MESSAGES.tagRequired),
  new_tag: z.string().trim().nullish(),
  priority: intish('优先级必须是整数').pipe(z.number().min(-999, MESSAGES.priority)).nullish(),
  weight: intish('权重必须是整数').pipe(z.number().min(0, '权重必须是非负整数')).nullish(),
  model_mapping: z
    .string()
    .nullish()
    .refine((v) => isJsonObjectText(v), MESSAGES.modelMapping),
  models: z
    .union([z.string(), z.array(z.string())])
    .nullish()
    .transform((v) => (v === null || v === undefined ? v : splitList(v).join(','))),
  groups: z
    .union([z.string(), z.array(z.string())])
    .nullish()
    .transform((v) => (v === null || v === undefined ? v : splitList(v).join(','))),
});
export type EditTagInput = z.infer<typeof editTagInput>;

export const fetchModelsInput = z.object({
  base_url: baseUrlField,
  type: intish('渠道类型无效').default(1),
  key: z.string().trim().nullish(),
  /** The channel's `other` (Cloudflare's account id) for providers whose list URL needs it. */
  other: z.string().trim().nullish(),
});
export type FetchModelsInput = z.infer<typeof fetchModelsInput>;
