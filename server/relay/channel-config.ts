import { type ChannelInfo, enabledKeyIndices, readChannelInfo, splitChannelKeys } from '../../shared/channel-info.ts';
import { channelTypeInfo } from '../../shared/channel-types.ts';
import type { ChannelRow } from '../db/types.ts';

/**
 * A channel row parsed once when the routing cache loads, so the hot path never
 * parses JSON columns. Secrets (`keys`) stay in memory and are never logged.
 */
export interface ChannelConfig {
  id: number;
  type: number;
  name: string;
  /** Base URL without a trailing slash; the type's default when the row has none. */
  baseUrl: string;
  /** One or more keys (multi-key channels: newline- or comma-separated in the row). */
  keys: string[];
  /** The raw key column as read. */
  rawKey: string;
  /**
   * Per-key state (channel_info): only enabled keys are picked, at random or in turn. The relay
   * replaces it in place when it marks a key dead, before the routing reload brings the stored one.
   */
  keyInfo: ChannelInfo;
  openaiOrganization: string;
  autoBan: boolean;
  modelMapping: Record<string, string>;
  statusCodeMapping: Record<string, string>;
  paramOverride: Record<string, unknown>;
  systemPrompt: string;
  modelPrefix: string;
  other: string;
  setting: Record<string, unknown>;
}

const parseObject = (text: string | null): Record<string, unknown> => {
  if (!text || text.trim() === '') return {};
  try {
    const v: unknown = JSON.parse(text);
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    // A broken JSON column must not take the channel (or the relay) down; it acts as empty.
    return {};
  }
};

const stringMap = (o: Record<string, unknown>): Record<string, string> =>
  Object.fromEntries(
    Object.entries(o)
      .filter(([, v]) => typeof v === 'string' || typeof v === 'number')
      .map(([k, v]) => [k, String(v)]),
  );

/** Multi-key channels hold keys one per line (new-api) or comma-separated (older consoles). */
export const splitKeys = splitChannelKeys;

export function parseChannel(row: ChannelRow): ChannelConfig {
  const base = (row.base_url ?? '').trim() || channelTypeInfo(row.type)?.baseUrl || '';
  const keys = splitKeys(row.key);
  return {
    id: Number(row.id),
    type: row.type,
    name: row.name,
    baseUrl: base.replace(/\/+$/, ''),
    keys,
    rawKey: row.key,
    keyInfo: readChannelInfo(row.channel_info, keys.length, row.setting),
    openaiOrganization: row.openai_organization ?? '',
    autoBan: row.auto_ban === 1,
    modelMapping: stringMap(parseObject(row.model_mapping)),
    statusCodeMapping: stringMap(parseObject(row.status_code_mapping)),
    paramOverride: parseObject(row.param_override),
    systemPrompt: row.system_prompt ?? '',
    modelPrefix: row.model_prefix ?? '',
    other: row.other,
    setting: parseObject(row.setting),
  };
}

/**
 * The upstream model name for a requested one: the channel's model_mapping first
 * (chains are not followed, as in new-api), then `model_prefix` prepended when the
 * provider wants namespaced names (e.g. `openai/` on an aggregator) and it is missing.
 */
export function upstreamModelFor(channel: ChannelConfig, model: string): { name: string; mapped: boolean } {
  const mapped = channel.modelMapping[model];
  let name = mapped && mapped !== '' ? mapped : model;
  if (channel.modelPrefix && !name.startsWith(channel.modelPrefix)) name = channel.modelPrefix + name;
  return { name, mapped: name !== model };
}

/** Next turn per channel for the "polling" mode (per instance: an even spread, not a shared order). */
const turns = new Map<number, number>();

/** The channel has a key it may use (a multi-key channel whose keys are all disabled has none). */
export const hasUsableKey = (channel: ChannelConfig): boolean =>
  channel.keys.length <= 1 || enabledKeyIndices(channel.keyInfo).length > 0;

/**
 * The key for the next request on a multi-key channel (relay.md §3: "picked at random or in
 * turn"), among its enabled keys and not one in `avoid` (keys this request already failed on):
 * at random, or in turn when channel_info's `multi_key_mode` is "polling" (before channel_info,
 * the settings JSON's `{"multi_key_mode": "polling"}`, still honoured). Only when no enabled
 * key is left (the channel is on its way out) does it fall back on the first key.
 */
export function pickKey(channel: ChannelConfig, avoid?: ReadonlySet<string>): string {
  const { keys } = channel;
  if (keys.length <= 1) return keys[0] ?? '';
  const usable = enabledKeyIndices(channel.keyInfo).filter((i) => !avoid?.has(keys[i]));
  if (usable.length === 0) return keys[0];
  if (channel.keyInfo.multi_key_mode !== 'polling') return keys[usable[Math.floor(Math.random() * usable.length)]];
  const turn = (turns.get(channel.id) ?? 0) % keys.length;
  const index = usable.find((i) => i >= turn) ?? usable[0];
  turns.set(channel.id, (index + 1) % keys.length);
  return keys[index];
}

/** Whether a request that failed on `tried` keys of this channel has another enabled key to try. */
export const hasOtherKey = (channel: ChannelConfig, tried: ReadonlySet<string>): boolean =>
  channel.keys.length > 1 && enabledKeyIndices(channel.keyInfo).some((i) => !tried.has(channel.keys[i]));
