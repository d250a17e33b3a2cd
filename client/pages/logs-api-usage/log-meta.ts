import { LogType } from '../../../shared/constants.ts';

/*
 * Pure helpers of the usage-log page: log types, latency colours (spec §9) and the
 * parsed `other` JSON (spec §3: an unparsable `other` is treated as empty). No macros here: vitest imports it.
 */

export interface LogOther {
  is_model_mapped?: boolean;
  upstream_model_name?: string;
  frt?: number;
  model_ratio?: number;
  model_price?: number;
  completion_ratio?: number;
  group_ratio?: number;
  user_group_ratio?: number;
  cache_tokens?: number;
  cache_ratio?: number;
  cache_creation_tokens?: number;
  cache_creation_ratio?: number;
  claude?: boolean;
  ws?: boolean;
  audio?: boolean;
  audio_input?: number;
  audio_output?: number;
  text_input?: number;
  text_output?: number;
  audio_ratio?: number;
  audio_completion_ratio?: number;
  /** Image calls (issue 44): the pictures returned, and the size and quality asked. */
  image_count?: number;
  image_size?: string;
  image_quality?: string;
  /** The provider's price ratio of that size and quality to the model's plain picture (absent = 1). */
  image_ratio?: number;
  /** Quota the balance could not cover (the charge was cut to what was left). */
  shortfall?: number;
  /** The relay counted the tokens itself (the upstream reported none). */
  usage_counted?: boolean;
  fallback_pricing?: boolean;
  /** Admins only: the channels tried, and an upstream's own reason the caller was not shown. */
  admin_info?: {
    use_channel?: (number | string)[];
    upstream_reason?: string;
    /** The answer followed the session's pinned channel and key (session affinity). */
    channel_affinity?: { using_group?: string; key_fingerprint?: string; ttl_seconds?: number };
  };
  reasoning_effort?: string;
  /** Tools the client declared that the upstream cannot run, left out of the request (X-Switchyard-Dropped-Tools). */
  dropped_tools?: string[];
  error_type?: string;
  error_code?: string;
  status_code?: number;
  channel_id?: number;
  /** Error rows: which attempt of the call failed (1-based; 0 when no channel was tried). */
  attempt?: number;
  /** Error rows: the attempt failed and the call went on to another channel. */
  retried?: boolean;
  duration_ms?: number;
  request_id?: string;
  system_prompt?: string;
  context?: unknown;
  input_content?: string;
  output_content?: string;
  /** The registry message the server stored beside `content` (shared/stored-message.ts; read by log-text.ts). */
  message?: unknown;
  /** new-api's fields of a call paid from a subscription's pool instead of the wallet. */
  billing_source?: string;
  subscription_id?: number;
  subscription_plan_id?: number;
  subscription_plan_title?: string;
}

/** The plan whose subscription paid the call (issue 39); null when the wallet paid. */
export function paidFromPlan(o: LogOther): { title: string; subscriptionId: number } | null {
  if (o.billing_source !== 'subscription') return null;
  const title = typeof o.subscription_plan_title === 'string' ? o.subscription_plan_title : '';
  return { title, subscriptionId: Number(o.subscription_id) || 0 };
}

export function parseOther(other: string | null | undefined): LogOther {
  if (!other) return {};
  try {
    const v: unknown = JSON.parse(other);
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as LogOther) : {};
  } catch {
    return {};
  }
}

/** Rows that carry model, tokens and cost (consumption, and type 0 shown as such, and errors). */
export const isConsumeLike = (type: number) =>
  type === LogType.Consume || type === LogType.Unknown || type === LogType.Error;

export const isError = (type: number) => type === LogType.Error;

/** Total time: under 101 s green, under 300 s orange, else red. */
export function useTimeColor(seconds: number): string {
  if (seconds < 101) return 'green';
  if (seconds < 300) return 'orange';
  return 'red';
}

/** First-token time in seconds: under 3 s green, under 10 s orange, else red. */
export function firstTokenColor(seconds: number): string {
  if (seconds < 3) return 'green';
  if (seconds < 10) return 'orange';
  return 'red';
}

/** The channels a request tried, in order (admins only; e.g. "3 → 5"). */
export function retryChain(other: LogOther): string[] {
  const chain = other.admin_info?.use_channel;
  return Array.isArray(chain) ? chain.map(String) : [];
}

/** An image row's pictures (issue 44): how many, at which size and quality; null for any other row. */
export function imagesOf(o: LogOther): { count: number; size?: string; quality?: string } | null {
  if (typeof o.image_count !== 'number' || o.image_count < 0) return null;
  return {
    count: o.image_count,
    ...(o.image_size ? { size: o.image_size } : {}),
    ...(o.image_quality ? { quality: o.image_quality } : {}),
  };
}
