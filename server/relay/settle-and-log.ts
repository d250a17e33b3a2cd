import { computeQuota } from '../domains/billing/pricing.rules.ts';
import type { Reservation } from '../domains/billing/reserve.service.ts';
import { notifyIfCrossed } from '../domains/notifications/quota-warning.service.ts';
import { keyFpOf } from './affinity/pins.ts';
import { type ImageBilling, imageCharge } from './images/price.ts';
import type { RelayCall } from './prepare.ts';
import type { Usage } from './providers/types.ts';
import { buildConsumeLog, type ConsumeRecord } from './relay-log.ts';
import type { RelayRuntime } from './runtime.ts';
import type { Served } from './serve.ts';
import { countedUsage, countText, loadTokenizers } from './usage.ts';

/*
 * The relay's last step, after the answer was sent: the usage (reported, or counted by the
 * tokenizer), the final charge, and the settlement with its log row.
 */

/** How the answer went: what the settlement needs of it once the bytes are out. */
export interface SettleOutcome {
  /** Usage the upstream reported; when absent, the tokenizer counts the request and the produced text. */
  reported: Usage | undefined;
  produced: () => string;
  frtMs: number;
  clientAborted: boolean;
  /** The answer stopped early (client gone, upstream broke): usage reported so far may predate the text sent. */
  cut: boolean;
  /** Image calls: the pictures the client got (answer-images.ts; never 0, that is a failure). */
  images?: number;
  /** The answer's finish reasons, when known (a traced call's span). */
  finishReasons?: string[];
}

/** What was billed: the usage (reported or counted) and the quota charged. */
export interface Settled {
  usage: Usage;
  quota: number;
}

/** What the log row needs of a request before its charge and usage are known. */
type SettleRecord = Omit<ConsumeRecord, 'quota' | 'shortfall' | 'usage'>;

/**
 * Runs after the response bytes were sent: settle the reservation and write the log row in one
 * transaction. The settlement waits for its batch (up to SETTLE_WINDOW_MS), so only what the log
 * row needs is kept that long: the request, the upstream answer and the body are let go here, and
 * die young instead of being promoted to the old generation under load.
 */
export function settleAndLog(rt: RelayRuntime, call: RelayCall, served: Served, o: SettleOutcome): Promise<Settled> {
  const { ok, model, reservation } = served;
  const { body } = call;
  const record: SettleRecord = {
    principal: call.principal,
    model,
    channelId: ok.ctx.channel.id,
    usageCounted: !o.reported,
    price: served.price,
    startedAtMs: call.startedAtMs,
    isStream: call.stream,
    ip: call.req.ip,
    requestId: call.req.id,
    frtMs: o.frtMs,
    mapped: ok.mapped,
    upstreamModel: ok.ctx.upstreamModel,
    reasoningEffort: typeof body.reasoning_effort === 'string' ? body.reasoning_effort : undefined,
    channelChain: ok.chain,
    clientAborted: o.clientAborted,
    droppedTools: served.droppedTools,
    affinity: ok.followedPin
      ? {
          using_group: call.principal.group,
          key_fingerprint: keyFpOf(ok.ctx.channel, ok.ctx.key),
          ttl_seconds: rt.deps.services.options.get('channel_affinity_setting.default_ttl_seconds'),
        }
      : undefined,
  };
  const { produced, reported } = o;
  if (served.image) return settleImages(rt, reservation, record, served.image, o);
  if (reported && !o.cut) return settleRecord(rt, reservation, record, reported);
  return loadTokenizers().then(() => {
    if (!reported) return settleRecord(rt, reservation, record, countedUsage(model, body, produced()));
    // relay.md §5, a cut stream bills what was produced: Anthropic's opening count (message_start says
    // 1 output token) is all a stream cut before message_delta reported, so the text sent is counted too.
    const sent = countText(model, produced());
    if (sent <= reported.completionTokens) return settleRecord(rt, reservation, record, reported);
    const usage = { ...reported, completionTokens: sent };
    return settleRecord(rt, reservation, { ...record, usageCounted: true }, usage);
  });
}

/** Image calls (images/price.ts): the pictures returned at their size and quality, or their tokens. */
async function settleImages(
  rt: RelayRuntime,
  reservation: Reservation,
  record: SettleRecord,
  image: ImageBilling,
  o: SettleOutcome,
): Promise<Settled> {
  if (!o.reported && record.price.mode === 'ratio') await loadTokenizers();
  const returned = o.images ?? image.asked;
  const charge = imageCharge(record.price, image, record.model, returned, o.reported);
  const withImages: SettleRecord = {
    ...record,
    usageCounted: charge.counted,
    image: {
      count: returned,
      size: image.size ?? image.aspectRatio,
      quality: image.quality,
      // The log's cost formula reads the size/quality ratio of a per-picture price (1 is left out).
      ratio: record.price.mode === 'price' && image.multiplier !== 1 ? image.multiplier : undefined,
    },
  };
  return settleRecord(rt, reservation, withImages, charge.usage, charge.quota);
}

async function settleRecord(
  rt: RelayRuntime,
  reservation: Reservation,
  record: SettleRecord,
  usage: Usage,
  quota?: number,
): Promise<Settled> {
  const final = quota ?? computeQuota(record.price, usage);
  const settled = await rt.deps.services.billing.settle(reservation, final, record.channelId, (st) =>
    buildConsumeLog({ ...record, quota: st.charged, shortfall: st.shortfall, usage }),
  );
  const m = rt.deps.metrics;
  m.quotaBilled.inc({ model: record.model }, settled.charged);
  m.tokensBilled.inc({ model: record.model, kind: 'prompt' }, usage.promptTokens);
  m.tokensBilled.inc({ model: record.model, kind: 'completion' }, usage.completionTokens);
  const userId = record.principal.user.id;
  // A subscription's pool paid: the wallet did not move, so no balance threshold was crossed.
  if (settled.subscriptionId === 0)
    notifyIfCrossed(rt.deps, userId, settled.userQuotaAfter + settled.charged, settled.userQuotaAfter);
  return { usage, quota: settled.charged };
}
