import type { NewLog } from '../db/types.ts';
import type { PriceInfo } from '../domains/billing/pricing.rules.ts';
import { priceDescription } from '../domains/billing/pricing.rules.ts';
import type { RelayPrincipal } from './principal.ts';
import type { Usage } from './providers/types.ts';

export interface ConsumeRecord {
  principal: RelayPrincipal;
  model: string;
  channelId: number;
  quota: number;
  shortfall: number;
  usage: Usage;
  usageCounted: boolean;
  price: PriceInfo;
  startedAtMs: number;
  isStream: boolean;
  ip: string;
  requestId: string;
  frtMs: number;
  mapped: boolean;
  upstreamModel: string;
  reasoningEffort?: string;
  channelChain: number[];
  clientAborted: boolean;
  /** Declared tools the upstream could not run, left out of the request (dropped-tools.ts). */
  droppedTools?: string[];
  /** Image calls (issue 44): pictures returned and the size and quality asked (the log's image line). */
  image?: { count: number; size?: string; quality?: string; ratio?: number };
  /** The session pin the answer followed (affinity/pins.ts), as new-api's admin_info.channel_affinity. */
  affinity?: { using_group: string; key_fingerprint: string; ttl_seconds: number };
}

/** The one type-2 log row of a relayed request (console spec §3 log entry, `other` JSON included). */
export function buildConsumeLog(r: ConsumeRecord): NewLog {
  const now = Date.now();
  const p = r.price;
  const other: Record<string, unknown> = {
    model_ratio: p.modelRatio,
    completion_ratio: p.completionRatio,
    group_ratio: p.groupRatio,
    model_price: p.modelPrice,
    cache_tokens: r.usage.cachedTokens,
    cache_ratio: p.cacheRatio,
    cache_creation_tokens: r.usage.cacheCreationTokens,
    cache_creation_ratio: p.cacheCreationRatio,
    frt: r.frtMs,
    is_model_mapped: r.mapped,
    upstream_model_name: r.upstreamModel,
    admin_info: {
      use_channel: r.channelChain.map(String),
      ...(r.affinity ? { channel_affinity: r.affinity } : {}),
    },
  };
  const audioIn = r.usage.audioPromptTokens ?? 0;
  const audioOut = r.usage.audioCompletionTokens ?? 0;
  if (audioIn + audioOut > 0)
    // The log details' audio line (console spec §3): audio and text parts of each side, and the audio ratios.
    Object.assign(other, {
      audio: true,
      audio_input: audioIn,
      audio_output: audioOut,
      text_input: r.usage.promptTokens - audioIn,
      text_output: r.usage.completionTokens - audioOut,
      ...(p.audioRatio !== undefined
        ? { audio_ratio: p.audioRatio, audio_completion_ratio: p.audioCompletionRatio ?? 1 }
        : {}),
    });
  if (r.image)
    Object.assign(other, {
      image_count: r.image.count,
      ...(r.image.size ? { image_size: r.image.size } : {}),
      ...(r.image.quality ? { image_quality: r.image.quality } : {}),
      ...(r.image.ratio ? { image_ratio: r.image.ratio } : {}),
    });
  if (r.reasoningEffort) other.reasoning_effort = r.reasoningEffort;
  if (p.fallback) other.fallback_pricing = true;
  if (r.usageCounted) other.usage_counted = true;
  if (r.clientAborted) other.client_aborted = true;
  if (r.droppedTools?.length) other.dropped_tools = r.droppedTools;
  if (r.shortfall > 0) other.shortfall = r.shortfall;
  let content = priceDescription(p);
  if (r.quota === 0 && r.usage.promptTokens + r.usage.completionTokens === 0) content += '，零 token 不计费';
  return {
    user_id: r.principal.user.id,
    created_at: Math.floor(now / 1000),
    type: 2,
    content,
    username: r.principal.user.username,
    token_name: r.principal.token?.name ?? '',
    token_id: r.principal.token?.id ?? 0,
    model_name: r.model,
    quota: r.quota,
    prompt_tokens: r.usage.promptTokens,
    completion_tokens: r.usage.completionTokens,
    use_time: Math.round((now - r.startedAtMs) / 1000),
    is_stream: r.isStream ? 1 : 0,
    channel_id: r.channelId,
    group: r.principal.group,
    ip: r.principal.user.showIpInLogs ? r.ip : '',
    request_id: r.requestId,
    other: JSON.stringify(other),
  };
}
