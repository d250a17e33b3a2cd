import type { AppDeps } from '../../server/context.ts';
import type { NewLog } from '../../server/db/types.ts';
import { computeQuota, type PriceInfo, priceDescription } from '../../server/domains/billing/pricing.rules.ts';
import { insertLogs } from '../../server/domains/logs/insert-logs.repo.ts';
import { addToQuotaData } from '../../server/domains/logs/quota-data.repo.ts';

/*
 * Usage data for the log and dashboard pages, written the way the relay writes it: consume
 * rows priced by the billing code (so the log details' formula must add up to `quota`), with
 * their hourly rollup and their quota_data buckets, in one transaction.
 */

export interface Who {
  userId: number;
  username: string;
  tokenName: string;
}

export interface UsageRow {
  at: number;
  model: string;
  prompt: number;
  completion: number;
  cached?: number;
  /** Per-token model ratio; a fixed per-call price instead when `price` is set. */
  ratio?: number;
  completionRatio?: number;
  price?: number;
  groupRatio?: number;
  channelId?: number;
  stream?: boolean;
  useTime?: number;
}

const QUOTA_PER_UNIT = 500_000;

/** A type-2 log row with the `other` JSON the relay writes, and the quota the billing code computes. */
export function consumeRow(who: Who, r: UsageRow): NewLog {
  const price: PriceInfo = {
    mode: r.price !== undefined ? 'price' : 'ratio',
    modelRatio: r.price !== undefined ? 0 : (r.ratio ?? 0.075),
    completionRatio: r.price !== undefined ? 0 : (r.completionRatio ?? 4),
    cacheRatio: 0.1,
    cacheCreationRatio: 1.25,
    groupRatio: r.groupRatio ?? 1,
    modelPrice: r.price ?? -1,
    quotaPerUnit: QUOTA_PER_UNIT,
    fallback: false,
  };
  const quota = computeQuota(price, {
    promptTokens: r.prompt,
    completionTokens: r.completion,
    cachedTokens: r.cached ?? 0,
    cacheCreationTokens: 0,
  });
  const other = {
    model_ratio: price.modelRatio,
    completion_ratio: price.completionRatio,
    group_ratio: price.groupRatio,
    model_price: price.modelPrice,
    cache_tokens: r.cached ?? 0,
    cache_ratio: price.cacheRatio,
    cache_creation_tokens: 0,
    cache_creation_ratio: price.cacheCreationRatio,
    frt: r.stream ? 840 : 0,
    is_model_mapped: false,
    upstream_model_name: r.model,
    admin_info: { use_channel: [String(r.channelId ?? 1)] },
  };
  return {
    user_id: who.userId,
    username: who.username,
    token_name: who.tokenName,
    token_id: 0,
    created_at: r.at,
    type: 2,
    content: priceDescription(price),
    model_name: r.model,
    quota,
    prompt_tokens: r.prompt,
    completion_tokens: r.completion,
    use_time: r.useTime ?? 2,
    is_stream: r.stream ? 1 : 0,
    channel_id: r.channelId ?? 1,
    group: 'default',
    ip: '',
    request_id: '',
    other: JSON.stringify(other),
  };
}

/** Writes rows as the relay's settlement does: logs, hourly rollup and dashboard buckets together. */
export async function writeUsage(deps: AppDeps, rows: NewLog[]): Promise<void> {
  await deps.db.transaction().execute(async (trx) => {
    await insertLogs(trx, rows);
    await addToQuotaData(trx, rows);
  });
}

/** The models a made-up operator serves, with their prices (ratio per token or USD per call). */
export const MODELS: Omit<UsageRow, 'at' | 'prompt' | 'completion'>[] = [
  { model: 'gpt-4o-mini', ratio: 0.075, completionRatio: 4 },
  { model: 'claude-3-5-sonnet-20241022', ratio: 1.5, completionRatio: 5, stream: true },
  { model: 'deepseek-chat', ratio: 0.135, completionRatio: 2 },
  { model: 'dall-e-3', price: 0.04 },
];

/** `n` requests spread evenly over [from, to), cycling through the models and two sizes. */
export function spread(who: Who, from: number, to: number, n: number): NewLog[] {
  return Array.from({ length: n }, (_, i) => {
    const m = MODELS[i % MODELS.length];
    const at = from + Math.floor(((to - from) * i) / n);
    return consumeRow(who, {
      ...m,
      at,
      prompt: i % 3 === 0 ? 1200 + i : 180 + (i % 7),
      completion: i % 2 ? 350 : 42,
      cached: i % 5 === 0 ? 512 : 0,
    });
  });
}
