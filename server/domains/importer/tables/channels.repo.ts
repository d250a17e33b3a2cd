import { readChannelInfo, splitChannelKeys } from '../../../../shared/channel-info.ts';
import { oneApiTypeMap } from './one-api-types.rules.ts';
import type { ImportContext, Row, TableImporter } from './types.ts';
import { movesSequence, upsertById } from './upsert.repo.ts';
import { bool01, int, num, str, strOrNull } from './values.rules.ts';

/*
 * Channels: keys, models, groups, mappings, overrides, balances and test results, and a multi-key channel's
 * per-key state (issue 42): new-api's `channel_info` indexes its per-key maps by strings from "0" (2 manually
 * disabled, 3 automatically), null for a single-key channel; Switchyard stores the same JSON (shared/channel-info.ts).
 * Vertex AI keeps several service accounts as a JSON array: they become one compact JSON per line.
 */

/** The key column as Switchyard reads it: one key per line; a JSON array of credentials one JSON per line. */
export function keysOf(raw: string): string {
  const text = raw.trim();
  if (!text.startsWith('[')) return raw;
  try {
    const list: unknown = JSON.parse(text);
    if (Array.isArray(list) && list.length)
      return list.map((k) => (typeof k === 'string' ? k : JSON.stringify(k))).join('\n');
  } catch {
    /* not JSON: kept as written */
  }
  return raw;
}

/** new-api's channel_info normalised against the imported keys; '' for a single-key channel. */
export function channelInfoOf(raw: unknown, key: string, setting: string | null): string {
  const text = raw === null || raw === undefined ? '' : typeof raw === 'string' ? raw : JSON.stringify(raw);
  const keyCount = splitChannelKeys(key).length;
  if (!text.trim() || text.trim() === 'null') return '';
  const info = readChannelInfo(text, keyCount, setting);
  return keyCount > 1 || Object.keys(info.multi_key_status_list).length ? JSON.stringify(info) : '';
}

const mapChannel = (r: Row, ctx: ImportContext) => {
  let type = int(r.type, 1);
  let baseUrl = strOrNull(r.base_url);
  const remap = ctx.shape === 'one-api' ? oneApiTypeMap[type] : undefined;
  if (remap) {
    type = remap.type;
    baseUrl = baseUrl ?? remap.baseUrl ?? null;
  }
  const key = keysOf(str(r.key));
  const setting = strOrNull(r.setting);
  return {
    id: int(r.id),
    type,
    key,
    openai_organization: strOrNull(r.openai_organization),
    test_model: strOrNull(r.test_model),
    status: int(r.status, 1),
    name: str(r.name),
    weight: Math.max(0, int(r.weight)),
    created_time: int(r.created_time),
    test_time: int(r.test_time),
    response_time: int(r.response_time),
    base_url: baseUrl,
    other: str(r.other),
    balance: num(r.balance),
    balance_updated_time: int(r.balance_updated_time),
    models: str(r.models),
    group: str(r.group) || 'default',
    used_quota: int(r.used_quota),
    model_mapping: strOrNull(r.model_mapping),
    status_code_mapping: strOrNull(r.status_code_mapping),
    priority: int(r.priority),
    auto_ban: r.auto_ban === null || r.auto_ban === undefined ? 1 : bool01(r.auto_ban),
    other_info: str(r.other_info),
    tag: strOrNull(r.tag),
    setting,
    param_override: strOrNull(r.param_override),
    system_prompt: strOrNull(r.system_prompt),
    channel_info: channelInfoOf(r.channel_info, key, setting),
  };
};

export const channelsImporter: TableImporter = {
  name: 'channels',
  sourceTable: 'channels',
  finish: movesSequence('channels'),
  optional: false,
  importBatch(trx, rows, ctx) {
    if (ctx.columns.has('header_override') && rows.some((r) => strOrNull(r.header_override)))
      ctx.note('channels.header_override: Switchyard has no per-channel header override; those headers are not sent');
    return upsertById(
      trx,
      'channels',
      rows.map((r) => mapChannel(r, ctx)),
    );
  },
};
